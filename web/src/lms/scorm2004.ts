// SCORM 2004 (4th edition)'s run-time: the LMS's `API_1484_11` object up the frame chain
// (Initialize, GetValue, SetValue, Commit, Terminate), as an LmsSession for the bridge (bridge.ts).
// The score is the page's points (raw of max, min 0) and scaled in [0, 1]; completion and success
// are reported apart (cmi.completion_status, cmi.success_status).
import { checkedCall, findApi, scormLearner, watchLeaving, scorm2004Time } from './scorm-runtime';
import type { LmsSession, Result } from './session';

type Api = Record<string, (...args: string[]) => unknown>;

const NAMES = { lastError: 'GetLastError', errorString: 'GetErrorString', diagnostic: 'GetDiagnostic' };

/** SCORM 2004 4th edition's cmi.suspend_data holds at least 64,000 characters (an LMS may keep more). */
export const SUSPEND_LIMIT = 64000;

/** GetValue's "data model element value not initialized": a value nothing has set yet. */
const NOT_SET = '403';

/** The LMS's session, or undefined when no `API_1484_11` is up the frame chain or it will not initialise. */
export async function connect(): Promise<LmsSession | undefined> {
  const api = findApi<Api>('API_1484_11');
  if (!api) return undefined;
  const call = (fn: string, ...args: string[]) => checkedCall(api, NAMES, fn, args);
  if (call('Initialize', '').value !== 'true') return undefined;
  const started = Date.now();
  const leaving = watchLeaving();
  const commit = () => leaving() || call('Commit', '');
  const get = (element: string) => checkedCall(api, NAMES, 'GetValue', [element], [NOT_SET]).value;
  const set = (element: string, value: string) => call('SetValue', element, value);

  const entry = get('cmi.entry'); // "ab-initio", "resume" or ""
  const savedState = entry === 'ab-initio' ? '' : get('cmi.suspend_data');
  const id = get('cmi.learner_id');
  const name = get('cmi.learner_name');
  let completed = get('cmi.completion_status') === 'completed';
  if (!completed) set('cmi.completion_status', 'incomplete');
  let ended = false;

  return {
    standard: 'scorm2004',
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
      set('cmi.score.min', '0');
      set('cmi.score.max', String(result.max));
      set('cmi.score.raw', String(result.raw));
      set('cmi.score.scaled', String(Math.round(result.scaled * 10000) / 10000));
      completed = result.completed;
      set('cmi.completion_status', result.completed ? 'completed' : 'incomplete');
      set('cmi.success_status', !result.completed ? 'unknown' : result.passed ? 'passed' : 'failed');
      commit();
    },
    async record() {
      // SCORM keeps no statements; the score and statuses say the attempt.
    },
    async terminate() {
      if (ended) return;
      ended = true;
      set('cmi.session_time', scorm2004Time(Date.now() - started));
      set('cmi.exit', completed ? 'normal' : 'suspend');
      call('Terminate', ''); // which keeps what was set (no Commit first: a page going away may not send one)
    },
  };
}
