// The cmi5 side of a course package: the page was launched by a cmi5 LMS when its address carries
// the launch parameters (endpoint, fetch, actor, registration, activityId). connect() then takes
// the session's auth token from the fetch URL (one POST: the LMS gives it once), reads the
// LMS.LaunchData state document, fetches the learner's preferences, reads the learner's saved
// progress and sends "initialized"; the session it returns sends the cmi5-defined statements
// (passed or failed, completed, terminated) and the widgets' own statements as cmi5-allowed ones.
//
// Written on fetch rather than @xapi/cmi5: that library brings @xapi/xapi, axios, deepmerge and
// uuid into the learner's page for the dozen requests a session makes.
//
// Choices the cmi5 spec leaves to the AU:
// - passed or failed is judged once every item is answered (points / max against the LMS's
//   masteryScore, else the package's pass mark), at most one of them per session, passed at most
//   once per registration and never failed after passed; completed once per registration when
//   every item is answered. Browse and Review launches send neither (the spec forbids it) and
//   Review keeps no progress (the learner looks back at the finished attempt).
// - the learner's progress lives in a state document of the AU's own, stateId
//   `<activityId>/attention-lab-progress` (see progressStateId), with the launch's agent and
//   registration: JSON { progress: the bridge's saved string, completed, passed: what this
//   registration already sent, time: milliseconds spent in earlier sessions }.
// - terminate() does not leave the page: the session's returnURL is for the bridge, which offers
//   a button that ends the session and goes there (the spec wants the AU to go back to it).
// - errors are said on the console ("cmi5: ...") and kept in the session's `status`; saveState()
//   also rejects (the progress store reports it in place), the other calls never do.
import type { XapiAgent, XapiStatement } from '../widgets/element/public-types';
import type { LmsSession, PackageSettings, Result } from './session';

const XAPI_VERSION = '1.0.3';
const ADL_VERBS = 'http://adlnet.gov/expapi/verbs/';
export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
export const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
export const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
/** The most characters saveState keeps: xAPI sets no size for a state document; this bounds ours. */
const STATE_LIMIT = 1_000_000;

/** The five launch parameters of a cmi5 launch URL. */
export interface Cmi5Launch {
  /** the LRS's base endpoint, ending in "/" */
  endpoint: string;
  /** the one-use URL that gives the session's auth token */
  fetch: string;
  /** the learner, an Agent with an account */
  actor: XapiAgent;
  /** the enrolment's registration (a UUID) */
  registration: string;
  /** the AU's activity id: the object of every cmi5-defined statement */
  activityId: string;
}

export type LaunchMode = 'Normal' | 'Browse' | 'Review';

/** What the session reads from the LMS.LaunchData state document. */
export interface LaunchData {
  contextTemplate: Context;
  launchMode: LaunchMode;
  /** scaled score in [0, 1] to pass; undefined: the course structure has none */
  masteryScore?: number;
  /** the LMS's rule for moving on (Passed, Completed, CompletedAndPassed, CompletedOrPassed, NotApplicable) */
  moveOn: string;
  /** where the learner goes once the session ends; undefined: nowhere */
  returnURL?: string;
  /** the course structure's launch parameters for this AU, as given */
  launchParameters?: string;
}

/** Where the session stands: ok, or what went wrong first (code for the bridge's words, message for the console). */
export interface Cmi5Status {
  ok: boolean;
  error?: { code: Cmi5ErrorCode; message: string };
}

/**
 * launch: a launch parameter missing or malformed; fetch-used: the fetch URL had already given
 * its token (a reload of the launch URL); fetch: no token otherwise; launch-data: no usable
 * LMS.LaunchData; lrs: the LRS refused or did not answer a request.
 */
export type Cmi5ErrorCode = 'launch' | 'fetch-used' | 'fetch' | 'launch-data' | 'lrs';

export class Cmi5Error extends Error {
  constructor(
    readonly code: Cmi5ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'Cmi5Error';
  }
}

type Json = Record<string, unknown>;
interface ActivityRef {
  objectType?: 'Activity';
  id: string;
}
interface Context extends Json {
  registration?: string;
  contextActivities?: {
    parent?: ActivityRef[];
    grouping?: ActivityRef[];
    category?: ActivityRef[];
    other?: ActivityRef[];
  };
  extensions?: Json;
}

const PARAMETERS = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'] as const;

/**
 * The launch parameters in `search` (a query string); undefined when none of the five is there
 * (not a cmi5 launch). Throws a Cmi5Error (code "launch") naming the parameter missing or wrong.
 */
export function launchParameters(search: string): Cmi5Launch | undefined {
  const query = new URLSearchParams(search);
  if (!PARAMETERS.some((name) => query.has(name))) return undefined;
  const missing = PARAMETERS.filter((name) => !query.get(name));
  if (missing.length) throw new Cmi5Error('launch', `the launch URL lacks ${missing.join(', ')}`);
  const value = (name: (typeof PARAMETERS)[number]) => query.get(name) as string;
  const absolute = (name: 'endpoint' | 'fetch') => {
    try {
      return new URL(value(name)).href;
    } catch {
      throw new Cmi5Error('launch', `the launch parameter ${name} is not an absolute URL: "${value(name)}"`);
    }
  };
  let actor: XapiAgent;
  try {
    actor = JSON.parse(value('actor')) as XapiAgent;
  } catch {
    throw new Cmi5Error('launch', `the launch parameter actor is not JSON: "${value('actor')}"`);
  }
  if (typeof actor !== 'object' || actor === null || typeof actor.account?.name !== 'string' || !actor.account.homePage)
    throw new Cmi5Error('launch', `the launch parameter actor is not an Agent with an account: ${value('actor')}`);
  return {
    endpoint: absolute('endpoint').replace(/\/?$/, '/'),
    fetch: absolute('fetch'),
    actor: { ...actor, objectType: 'Agent' },
    registration: value('registration'),
    activityId: value('activityId'),
  };
}

/** The stateId of the AU's own state document (the learner's progress) for the AU `activityId`. */
export function progressStateId(activityId: string): string {
  return `${activityId}/attention-lab-progress`;
}

/** An ISO 8601 duration of `ms` milliseconds, to the hundredth of a second (xAPI's precision). */
export function isoDuration(ms: number): string {
  return `PT${Math.round(Math.max(0, ms) / 10) / 100}S`;
}

/** The LMS.LaunchData document's fields, checked; throws a Cmi5Error (code "launch-data") naming a wrong one. */
export function readLaunchData(document: unknown): LaunchData {
  const bad = (what: string) => new Cmi5Error('launch-data', `LMS.LaunchData: ${what}`);
  if (typeof document !== 'object' || document === null) throw bad('not a JSON object');
  const data = document as Json;
  const template = data.contextTemplate as Context | undefined;
  if (typeof template !== 'object' || template === null) throw bad('no contextTemplate');
  if (typeof template.extensions?.[SESSION_EXTENSION] !== 'string')
    throw bad(`contextTemplate has no session id (${SESSION_EXTENSION})`);
  const launchMode = data.launchMode ?? 'Normal';
  if (launchMode !== 'Normal' && launchMode !== 'Browse' && launchMode !== 'Review')
    throw bad(`launchMode "${String(launchMode)}" is none of Normal, Browse, Review`);
  const mastery = data.masteryScore;
  if (mastery !== undefined && (typeof mastery !== 'number' || !(mastery >= 0 && mastery <= 1)))
    throw bad(`masteryScore ${JSON.stringify(mastery)} is not a number from 0 to 1`);
  return {
    contextTemplate: template,
    launchMode,
    masteryScore: mastery,
    moveOn: typeof data.moveOn === 'string' ? data.moveOn : 'NotApplicable',
    returnURL: typeof data.returnURL === 'string' && data.returnURL ? data.returnURL : undefined,
    launchParameters: typeof data.launchParameters === 'string' ? data.launchParameters : undefined,
  };
}

/** A version 4 UUID (crypto.randomUUID where the page is a secure context). */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const union = (...lists: (ActivityRef[] | undefined)[]): ActivityRef[] => {
  const seen = new Set<string>();
  return lists.flatMap((list) => list ?? []).filter((a) => !seen.has(a.id) && seen.add(a.id));
};

/**
 * The context of a statement: the launch's context template (never overwritten: the template's
 * values win), the registration, the statement's own context activities and extensions, and
 * `categories` added (cmi5-defined) or the cmi5 ones removed (cmi5-allowed: categories undefined).
 */
export function mergeContext(
  template: Context,
  registration: string,
  own: Context = {},
  categories?: string[],
): Context {
  const t = template.contextActivities ?? {};
  const o = own.contextActivities ?? {};
  const cmi5 = new Set([CMI5_CATEGORY, MOVEON_CATEGORY]);
  const category = union(
    t.category,
    o.category,
    categories?.map((id) => ({ objectType: 'Activity', id })),
  ).filter((a) => categories !== undefined || !cmi5.has(a.id));
  const activities: NonNullable<Context['contextActivities']> = {};
  for (const [key, list] of [
    ['parent', union(t.parent, o.parent)],
    ['grouping', union(t.grouping, o.grouping)],
    ['category', category],
    ['other', union(t.other, o.other)],
  ] as const)
    if (list.length) activities[key] = list;
  return {
    ...own,
    ...template,
    registration,
    ...(Object.keys(activities).length ? { contextActivities: activities } : {}),
    extensions: { ...own.extensions, ...template.extensions },
  };
}

/** What the AU's own state document holds (see the head of this file). */
interface Progress {
  progress: string;
  completed: boolean;
  passed: boolean;
  time: number;
}

/** A connected cmi5 session; see the head of this file for what it sends and when. */
export class Cmi5Session implements LmsSession {
  readonly standard = 'cmi5' as const;
  readonly stateLimit = STATE_LIMIT;
  status: Cmi5Status = { ok: true };
  readonly learner?: { id: string; actor?: XapiAgent };
  readonly registration?: string;
  readonly savedState: string;
  /** the LMS.LaunchData the session follows; undefined when the session failed before reading it */
  readonly launchData?: LaunchData;
  /** the learner's cmi5LearnerPreferences (languagePreference, audioPreference) when the LMS keeps some */
  readonly preferences?: { languagePreference?: string; audioPreference?: string };
  /** where the bridge sends the learner after terminate(); undefined: stay */
  readonly returnURL?: string;
  /** the pass mark in force: the LMS's masteryScore, else the package's */
  readonly passMark: number;
  /** the AU's activity id from the launch; the bridge names the widgets' activities under it */
  readonly activityId?: string;

  #launch?: Cmi5Launch;
  #token = '';
  #progress: Progress = { progress: '', completed: false, passed: false, time: 0 };
  #started = Date.now();
  #verdictSent = false;
  #terminated = false;
  /** the requests not yet sent, sent one at a time in order */
  #jobs: Job[] = [];
  #busy = false;

  constructor(
    settings: PackageSettings,
    parts: {
      launch?: Cmi5Launch;
      token?: string;
      launchData?: LaunchData;
      progress?: Progress;
      preferences?: Cmi5Session['preferences'];
      error?: Cmi5Error;
    },
  ) {
    this.#launch = parts.launch;
    this.#token = parts.token ?? '';
    this.launchData = parts.launchData;
    if (parts.progress) this.#progress = parts.progress;
    this.preferences = parts.preferences;
    this.savedState = this.#progress.progress;
    this.passMark = parts.launchData?.masteryScore ?? settings.passMark;
    this.returnURL = parts.launchData?.returnURL;
    if (parts.launch) {
      const account = parts.launch.actor.account;
      this.learner = { id: account?.name ?? '', actor: parts.launch.actor };
      this.registration = parts.launch.registration;
      this.activityId = parts.launch.activityId;
    }
    if (parts.error) this.#fail(parts.error);
  }

  /** Sends "initialized" (connect() does, once). */
  async initialize(): Promise<void> {
    this.#started = Date.now();
    await this.#defined('initialized');
  }

  async saveState(state: string): Promise<void> {
    if (!this.#connected()) {
      const error = this.status.error ?? { code: 'launch' as const, message: 'not connected' };
      throw new Cmi5Error(error.code, `saveState: no LMS session (${error.message})`);
    }
    if (state.length > STATE_LIMIT)
      throw new Cmi5Error('lrs', `saveState: ${state.length} characters, more than the ${STATE_LIMIT} kept`);
    if (this.launchData?.launchMode === 'Review' || this.#terminated) return;
    this.#progress.progress = state;
    const failure = await this.#writeProgress();
    if (failure) throw failure;
  }

  async report(result: Result): Promise<void> {
    if (!this.#usable() || !this.launchData || this.launchData.launchMode !== 'Normal' || !result.completed) return;
    const mastery = this.passMark;
    const passed = result.max > 0 && result.scaled >= mastery;
    const score = { scaled: result.scaled, raw: result.raw, min: 0, max: result.max };
    const elapsed = { duration: isoDuration(this.#progress.time + Date.now() - this.#started) };
    const masteryExtension = this.launchData.masteryScore === undefined ? {} : { [MASTERY_EXTENSION]: mastery };
    let changed = false;
    if (!this.#verdictSent && !this.#progress.passed) {
      this.#verdictSent = true;
      this.#progress.passed = passed;
      changed = true;
      await this.#defined(passed ? 'passed' : 'failed', { score, success: passed, ...elapsed }, masteryExtension);
    }
    if (!this.#progress.completed) {
      this.#progress.completed = true;
      changed = true;
      await this.#defined('completed', { completion: true, ...elapsed });
    }
    if (changed) await this.#writeProgress();
  }

  async record(statement: XapiStatement): Promise<void> {
    if (!this.#usable()) return;
    const launch = this.#launch!;
    // A widget without an activity-id names its activity by the page's address, which here
    // carries the launch parameters (a new fetch URL each session): such ids are put under the
    // AU's activity id instead, the same in every session.
    const page = location.href.replace(/#.*$/, '');
    const local = (id: string) => (id.startsWith(page) ? launch.activityId + id.slice(page.length) : id);
    const { context, object, ...rest } = statement;
    const own = context as Context | undefined;
    const parent = own?.contextActivities?.parent?.map((a) => ({ ...a, id: local(a.id) }));
    await this.#send({
      ...rest,
      object: { ...object, id: local(object.id) },
      id: uuid(),
      actor: launch.actor,
      context: mergeContext(
        this.launchData!.contextTemplate,
        launch.registration,
        own && { ...own, contextActivities: { ...own.contextActivities, ...(parent ? { parent } : {}) } },
      ),
      timestamp: statement.timestamp ?? new Date().toISOString(),
    });
  }

  async terminate(): Promise<void> {
    if (!this.#usable()) return;
    // From here on nothing else is queued: "terminated" is the session's last statement. The
    // page may be going (the bridge calls this on pagehide), so nothing waits for an answer
    // first: the statements still queued go in one request with "terminated", next to the
    // progress, both sent at once and kept alive past the page.
    this.#terminated = true;
    const spent = Date.now() - this.#started;
    this.#progress.time += spent;
    const pending = this.#jobs.splice(0);
    const statements = pending.filter((job) => job.kind === 'statement').map((job) => job.body);
    statements.push(this.#definedStatement('terminated', { duration: isoDuration(spent) }));
    const [saved, sent] = await Promise.all([
      this.launchData?.launchMode === 'Review' ? undefined : this.#perform('state', [{ ...this.#progress }], true),
      this.#perform('statement', statements, true),
    ]);
    for (const job of pending) job.done(job.kind === 'state' ? saved : sent);
  }

  /** Connected: a token and launch data. */
  #connected(): boolean {
    return this.#launch !== undefined && this.launchData !== undefined && this.#token !== '';
  }

  /** Still talking to the LMS: connected and not terminated (a call after terminate() is said on the console). */
  #usable(): boolean {
    if (this.#terminated) console.error('cmi5: the session has ended; nothing more is sent');
    return this.#connected() && !this.#terminated;
  }

  #fail(error: Cmi5Error): void {
    console.error(`cmi5: ${error.message}`);
    if (this.status.ok) this.status = { ok: false, error: { code: error.code, message: error.message } };
  }

  /** Queues the cmi5-defined statement `verb` (see definedStatement). */
  async #defined(verb: string, result?: Json, extensions: Json = {}): Promise<void> {
    await this.#enqueue('statement', this.#definedStatement(verb, result, extensions));
  }

  /** A cmi5-defined statement about the AU: the verb, `result`, the cmi5 category (and moveon when judged), `extensions`. */
  #definedStatement(verb: string, result?: Json, extensions: Json = {}): Json {
    const launch = this.#launch!;
    const judged = result !== undefined && ('success' in result || 'completion' in result);
    return {
      id: uuid(),
      actor: launch.actor,
      verb: { id: ADL_VERBS + verb, display: { 'en-US': verb } },
      object: { objectType: 'Activity', id: launch.activityId },
      ...(result ? { result } : {}),
      context: mergeContext(
        this.launchData!.contextTemplate,
        launch.registration,
        { extensions },
        judged ? [CMI5_CATEGORY, MOVEON_CATEGORY] : [CMI5_CATEGORY],
      ),
      timestamp: new Date().toISOString(),
    };
  }

  async #send(statement: Json): Promise<void> {
    await this.#enqueue('statement', statement);
  }

  /** Queues a write of the AU's own state document; resolves to the failure, if any. */
  #writeProgress(): Promise<Cmi5Error | undefined> {
    return this.#enqueue('state', { ...this.#progress });
  }

  /** Queues one request (statements keep their order, state writes do not cross); resolves to its failure, if any. */
  #enqueue(kind: Job['kind'], body: Json): Promise<Cmi5Error | undefined> {
    return new Promise((done) => {
      this.#jobs.push({ kind, body, done });
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    for (let job = this.#jobs.shift(); job; job = this.#jobs.shift())
      job.done(await this.#perform(job.kind, [job.body]));
    this.#busy = false;
  }

  /**
   * Sends statements (one request for all) or the progress document now; resolves to the
   * failure (said on the console and in status), if any. keepalive: the request outlives the page.
   */
  async #perform(kind: Job['kind'], bodies: Json[], keepalive = false): Promise<Cmi5Error | undefined> {
    const launch = this.#launch!;
    const [method, path, query, body] =
      kind === 'statement'
        ? ['POST', 'statements', {}, bodies.length === 1 ? bodies[0] : bodies]
        : ['PUT', 'activities/state', stateQuery(launch, progressStateId(launch.activityId)), bodies[0]];
    try {
      await xapi(launch, this.#token, method, path, query, body, keepalive);
      return undefined;
    } catch (error) {
      const failure = error instanceof Cmi5Error ? error : new Cmi5Error('lrs', String(error));
      this.#fail(failure);
      return failure;
    }
  }
}

interface Job {
  kind: 'statement' | 'state';
  body: Json;
  done: (failure: Cmi5Error | undefined) => void;
}

function stateQuery(launch: Cmi5Launch, stateId: string): Record<string, string> {
  return {
    stateId,
    activityId: launch.activityId,
    agent: JSON.stringify(launch.actor),
    registration: launch.registration,
  };
}

/**
 * One xAPI request to the launch's endpoint with the session's token; resolves to the response
 * (a 404 too: "no such document"); throws a Cmi5Error naming the request otherwise.
 */
async function xapi(
  launch: Cmi5Launch,
  token: string,
  method: string,
  path: string,
  query: Record<string, string>,
  body?: Json | Json[],
  keepalive = false,
): Promise<Response> {
  const url = new URL(path, launch.endpoint);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const what = `${method} ${url.pathname}${query.stateId ? ` (${query.stateId})` : ''}`;
  const text = body === undefined ? undefined : JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      // A browser keeps at most 64 KiB of such requests in flight.
      keepalive: keepalive && (text?.length ?? 0) < 32_000,
      headers: {
        Authorization: `Basic ${token}`,
        'X-Experience-API-Version': XAPI_VERSION,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: text,
    });
  } catch (error) {
    throw new Cmi5Error('lrs', `${what}: the LRS did not answer (${String(error)})`);
  }
  if (!response.ok && response.status !== 404) {
    const text = await response.text().catch(() => '');
    throw new Cmi5Error('lrs', `${what}: the LRS answered ${response.status} ${text.slice(0, 200)}`.trim());
  }
  return response;
}

/** The sessionStorage key that says this tab has taken the token of the fetch URL `fetchUrl`. */
const fetchedKey = (fetchUrl: string) => `attention-lab:cmi5-fetched:${fetchUrl}`;

/**
 * The session's auth token from the one-use fetch URL; throws a Cmi5Error (fetch-used, fetch)
 * saying why not. A reload of the launched page finds the URL used (sessionStorage) and asks
 * nothing: the LMS would refuse, and the session ended when the page went.
 */
async function fetchToken(launch: Cmi5Launch): Promise<string> {
  let used = false;
  try {
    used = sessionStorage.getItem(fetchedKey(launch.fetch)) !== null;
  } catch {
    // storage refused: the LMS's answer says it
  }
  if (used)
    throw new Cmi5Error(
      'fetch-used',
      'this page was opened with this launch before (a reload): its session has ended; launch the course again from the LMS',
    );
  let response: Response;
  try {
    response = await fetch(launch.fetch, { method: 'POST' });
  } catch (error) {
    throw new Cmi5Error('fetch', `the fetch URL did not answer (${String(error)})`);
  }
  const body = (await response.json().catch(() => undefined)) as Json | undefined;
  const token = body?.['auth-token'];
  if (response.ok && typeof token === 'string' && token) {
    try {
      sessionStorage.setItem(fetchedKey(launch.fetch), new Date().toISOString());
    } catch {
      // storage refused: a reload asks the LMS, which refuses
    }
    return token;
  }
  const code = String(body?.['error-code'] ?? '');
  const text = String(body?.['error-text'] ?? `answered ${response.status} without a token`);
  throw new Cmi5Error(
    code === '1' ? 'fetch-used' : 'fetch',
    code === '1'
      ? `the fetch URL has already given its token (${text}): launch the course again from the LMS`
      : `the fetch URL gave no token (${code ? `error ${code}: ` : ''}${text})`,
  );
}

async function getJson(launch: Cmi5Launch, token: string, path: string, query: Record<string, string>) {
  const response = await xapi(launch, token, 'GET', path, query);
  if (response.status === 404) return undefined;
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new Cmi5Error('lrs', `GET ${path} (${query.stateId ?? query.profileId}): not JSON`);
  }
}

/**
 * Connects to the cmi5 LMS that launched this page: undefined when location.search holds no
 * launch parameter; else a session — failed (status.ok false, nothing sent) when the launch,
 * the token or the launch data is wrong, else initialized.
 */
export async function connect(settings: PackageSettings, search = location.search): Promise<Cmi5Session | undefined> {
  let launch: Cmi5Launch | undefined;
  try {
    launch = launchParameters(search);
  } catch (error) {
    return new Cmi5Session(settings, { error: error as Cmi5Error });
  }
  if (!launch) return undefined;
  let token: string;
  let launchData: LaunchData;
  let progress: Progress | undefined;
  let preferences: Cmi5Session['preferences'];
  try {
    token = await fetchToken(launch);
    const data = await getJson(launch, token, 'activities/state', stateQuery(launch, 'LMS.LaunchData'));
    if (data === undefined) throw new Cmi5Error('launch-data', 'the LMS wrote no LMS.LaunchData state document');
    launchData = readLaunchData(data);
    // The spec asks the AU to read them; the LMS may keep none (404) or refuse (403, not an error).
    preferences = (await getJson(launch, token, 'agents/profile', {
      agent: JSON.stringify(launch.actor),
      profileId: 'cmi5LearnerPreferences',
    }).catch(() => undefined)) as Cmi5Session['preferences'];
    const saved = (await getJson(
      launch,
      token,
      'activities/state',
      stateQuery(launch, progressStateId(launch.activityId)),
    )) as Partial<Progress> | undefined;
    if (saved)
      progress = {
        progress: typeof saved.progress === 'string' ? saved.progress : '',
        completed: saved.completed === true,
        passed: saved.passed === true,
        time: typeof saved.time === 'number' && saved.time >= 0 ? saved.time : 0,
      };
  } catch (error) {
    const failure = error instanceof Cmi5Error ? error : new Cmi5Error('lrs', String(error));
    return new Cmi5Session(settings, { launch, error: failure });
  }
  const session = new Cmi5Session(settings, { launch, token, launchData, progress, preferences });
  await session.initialize();
  return session;
}
