// What SCORM 1.2 (scorm12.ts) and SCORM 2004 (scorm2004.ts) share: finding the LMS's API object
// up the frame chain, calling it with each call's error code checked, and the session's length
// written as each standard writes a time span.
import type { XapiAgent } from '../widgets/element/public-types';

/** The most frames searched up a chain (parents of this window, then of its opener), as ADL's own finder does. */
const MAX_DEPTH = 7;

/**
 * The LMS's API object named `name` ("API" for SCORM 1.2, "API_1484_11" for 2004) in this window
 * or one of its parents, else in the window that opened it or one of that window's parents;
 * undefined when none has it. A parent on another origin cannot be read and ends that chain.
 */
export function findApi<T>(name: string, from: Window = window): T | undefined {
  const up = (start: Window | null): T | undefined => {
    let win = start;
    for (let depth = 0; win && depth <= MAX_DEPTH; depth++) {
      try {
        const api = (win as unknown as Record<string, unknown>)[name];
        if (api && typeof api === 'object') return api as T;
        if (win.parent === win) return undefined;
        win = win.parent;
      } catch {
        return undefined; // another origin's frame
      }
    }
    return undefined;
  };
  const opener = (): Window | null => {
    try {
      return (from.top?.opener as Window | null) ?? null;
    } catch {
      return null; // another origin's window
    }
  };
  return up(from) ?? up(opener());
}

/**
 * Calls an API function and checks its error code: a failure (code other than "0") is said on
 * the console with the LMS's own words for it, and the call's answer is returned either way.
 * `quiet` lists codes that are an answer, not a failure (2004's 403: a value never set).
 */
export function checkedCall(
  api: Record<string, (...args: string[]) => unknown>,
  names: { lastError: string; errorString: string; diagnostic: string },
  fn: string,
  args: string[],
  quiet: readonly string[] = [],
): { value: string; error: string } {
  let value: string;
  try {
    value = String(api[fn](...args));
  } catch (error) {
    console.error(`attention-lab: the LMS's ${fn}(${args.map((a) => JSON.stringify(a)).join(', ')}) threw`, error);
    return { value: '', error: 'threw' };
  }
  const error = String(api[names.lastError]() ?? '0');
  if (error !== '0' && error !== '' && !quiet.includes(error)) {
    const said = String(api[names.errorString](error) ?? '');
    const diagnostic = String(api[names.diagnostic](error) ?? '');
    const shown = args.map((a) => JSON.stringify(a.length > 80 ? `${a.slice(0, 80)}…` : a)).join(', ');
    console.error(
      `attention-lab: the LMS refused ${fn}(${shown}): error ${error} ${said}${diagnostic && diagnostic !== said ? ` (${diagnostic})` : ''}`,
    );
  }
  return { value, error };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** SCORM 1.2's CMITimespan, HHHH:MM:SS.SS (hours 4 digits, up to 9999), for `ms` milliseconds. */
export function scorm12Time(ms: number): string {
  const centis = Math.min(Math.max(0, Math.round(ms / 10)), 9999 * 360000 + 359999);
  const hours = Math.floor(centis / 360000);
  const minutes = Math.floor((centis % 360000) / 6000);
  const seconds = (centis % 6000) / 100;
  return `${String(hours).padStart(4, '0')}:${two(minutes)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/** SCORM 2004's timeinterval, an ISO 8601 duration (PT1H2M3.45S), for `ms` milliseconds. */
export function scorm2004Time(ms: number): string {
  const centis = Math.max(0, Math.round(ms / 10));
  const hours = Math.floor(centis / 360000);
  const minutes = Math.floor((centis % 360000) / 6000);
  const seconds = (centis % 6000) / 100;
  return `PT${hours ? `${hours}H` : ''}${hours || minutes ? `${minutes}M` : ''}${Number(seconds.toFixed(2))}S`;
}

/**
 * The learner as SCORM names them (cmi learner/student id and name), with an xAPI actor for the
 * widgets' statements: an account on this page's origin (the LMS's, which serves the package).
 */
export function scormLearner(id: string, name: string): { id: string; actor: XapiAgent } | undefined {
  if (!id) return undefined;
  return {
    id,
    actor: { objectType: 'Agent', account: { homePage: location.origin, name: id }, ...(name ? { name } : {}) },
  };
}

/**
 * Is the page going away (pagehide or beforeunload seen)? Then a Commit is not called: an LMS's
 * commit request may be refused while a page unloads, and Finish/Terminate, which follows, keeps
 * every value set. Listened from the adapter's start, so before the bridge's own listeners.
 */
export function watchLeaving(): () => boolean {
  let leaving = false;
  const leave = () => (leaving = true);
  addEventListener('pagehide', leave);
  addEventListener('beforeunload', leave);
  return () => leaving;
}
