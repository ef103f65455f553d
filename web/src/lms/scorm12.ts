// SCORM 1.2's run-time: the LMS's `API` object up the frame chain (LMSInitialize, LMSGetValue,
// LMSSetValue, LMSCommit, LMSFinish), as an LmsSession for the bridge (bridge.ts).
//
// The score is reported as a percentage (raw 0..100, min 0, max 100): an LMS compares raw with
// the manifest's adlcp:masteryscore (the pass mark x 100) when it judges the attempt itself.
import { checkedCall, findApi, scormLearner, watchLeaving, scorm12Time } from './scorm-runtime';
import type { LmsSession, Result } from './session';

type Api = Record<string, (...args: string[]) => unknown>;

const NAMES = { lastError: 'LMSGetLastError', errorString: 'LMSGetErrorString', diagnostic: 'LMSGetDiagnostic' };

/** SCORM 1.2's cmi.suspend_data holds at most 4,096 characters. */
export const SUSPEND_LIMIT = 4096;

/** The LMS's session, or undefined when no `API` is up the frame chain or it will not initialise. */
export async function connect(): Promise<LmsSession | undefined> {
  const api = findApi<Api>('API');
  if (!api) return undefined;
  const call = (fn: string, ...args: string[]) => checkedCall(api, NAMES, fn, args);
  if (call('LMSInitialize', '').value !== 'true') return undefined;
  const started = Date.now();
  const leaving = watchLeaving();
  const commit = () => leaving() || call('LMSCommit', '');
  const get = (element: string) => call('LMSGetValue', element).value;
  const set = (element: string, value: string) => call('LMSSetValue', element, value);

  const entry = get('cmi.core.entry'); // "ab-initio", "resume" or ""
  const savedState = entry === 'ab-initio' ? '' : get('cmi.suspend_data');
  const status = get('cmi.core.lesson_status');
  if (status === 'not attempted' || status === '') set('cmi.core.lesson_status', 'incomplete');
  const id = get('cmi.core.student_id');
  const name = get('cmi.core.student_name');
  let completed = status === 'completed' || status === 'passed' || status === 'failed';
  let ended = false;

  return {
    standard: 'scorm12',
    learner: scormLearner(id, name),
    savedState,
    stateLimit: SUSPEND_LIMIT,
    async saveState(state: string) {
      if (ended) return;
      set('cmi.suspend_data', state);
      commit();
    },
    async report(result: Result) {
      if (ended) return;
      set('cmi.core.score.min', '0');
      set('cmi.core.score.max', '100');
      set('cmi.core.score.raw', String(Math.round(result.scaled * 10000) / 100));
      completed = result.completed;
      set('cmi.core.lesson_status', !result.completed ? 'incomplete' : result.passed ? 'passed' : 'failed');
      commit();
    },
    async record() {
      // SCORM 1.2 keeps no statements; the score and status say the attempt.
    },
    async terminate() {
      if (ended) return;
      ended = true;
      set('cmi.core.session_time', scorm12Time(Date.now() - started));
      set('cmi.core.exit', completed ? '' : 'suspend');
      call('LMSFinish', ''); // which keeps what was set (no Commit first: a page going away may not send one)
    },
  };
}
