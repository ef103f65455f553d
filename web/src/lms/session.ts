// What the course package's bridge (bridge.ts) needs of an LMS, whichever standard it speaks:
// scorm12.ts and scorm2004.ts (the LMS's API object up the frame chain) and cmi5.ts (launch
// parameters, a fetch token, xAPI statements and state). Each exports
// `connect(options): Promise<LmsSession | undefined>` (undefined: no LMS found).
import type { XapiAgent, XapiStatement } from '../widgets/element/public-types';

export type Standard = 'scorm12' | 'scorm2004' | 'cmi5';

/** What the package states about itself (written into the packaged page by the packager). */
export interface PackageSettings {
  standard: Standard;
  /** scaled score in [0, 1] at or above which the attempt passes */
  passMark: number;
  /** the course's title */
  title: string;
}

/** The page's score: every graded widget's points together. */
export interface Result {
  /** points won, of `max` */
  raw: number;
  max: number;
  /** raw / max, in [0, 1]; 0 when max is 0 */
  scaled: number;
  /** every question answered */
  completed: boolean;
  /** scaled >= the pass mark */
  passed: boolean;
}

export interface LmsSession {
  readonly standard: Standard;
  /** The learner as the LMS names them (SCORM's learner id, cmi5's actor); undefined: it does not. */
  readonly learner?: { id: string; actor?: XapiAgent };
  /** The attempt's registration (cmi5), for the widgets' statements. */
  readonly registration?: string;
  /** The pass mark in force when the LMS sets its own (cmi5's masteryScore); undefined: the package's. */
  readonly passMark?: number;
  /** The activity the LMS launched (cmi5): the widgets' activities go under it. */
  readonly activityId?: string;
  /** Where the learner goes back to when done (cmi5's returnURL). */
  readonly returnURL?: string;
  /** A launch the LMS refused (cmi5: a used or failing fetch URL): the page says so and sends nothing. */
  readonly status?: { ok: boolean; error?: { code: string } };
  /** What the last session of this attempt saved (suspend data, cmi5 state), or "". */
  readonly savedState: string;
  /** The most characters saveState may keep (SCORM 1.2: 4096). */
  readonly stateLimit: number;
  /** Keeps `state` (at most stateLimit characters) for the next session. */
  saveState(state: string): Promise<void>;
  /** Reports the page's score, completion and success. */
  report(result: Result): Promise<void>;
  /** A widget's xAPI statement (answered, completed, a run): cmi5 sends it, SCORM ignores it. */
  record(statement: XapiStatement): Promise<void>;
  /** Ends the session (exit as suspend while not completed); nothing more is sent after it. */
  terminate(): Promise<void>;
}
