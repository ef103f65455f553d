// The course package's bridge (lms/bridge.js in the package; the packaged page's one script):
// it connects to the LMS with the adapter of the standard the package was made for (the page's
// <script type="application/json" id="attention-lab-package">, PackageSettings), then starts
// the widgets (the package's attention-lab.js) with
//   - a progress store over the LMS's saved state (package-state.ts): every widget's answers
//     and settings, restored from the last session of the attempt, saved at most once a second
//     and when the page goes;
//   - the learner as each widget's xAPI actor (and the attempt's registration, for cmi5);
// and reports the page's score whenever a graded widget's progress changes (attn-progress):
// points over the maximum of every quiz and exercise set, completed when every item is answered,
// passed when the scaled score reaches the pass mark. Widgets' statements go to the session
// (cmi5 sends them). The session ends when the page is left.
//
// cmi5: each widget without an activity-id gets one under the AU's activity id (the launch's
// activityId + "/" + the widget's key), so that its statements name the same activities in
// every session (the page's address carries a new fetch URL each launch). When the LMS gives a
// returnURL, a "Done: back to the course" button at the page's end ends the session and goes
// there (the learner says when they have nothing else to do; the page does not leave on its own,
// so that the last answer's feedback stays in view).
//
// Without an LMS, or when the LMS refused the launch (a cmi5 session whose status is not ok), the
// page works as a page and says so in a line at its top.
import { languageOf } from '../common/language';
import { messagesIn } from '../common/messages';
import { CONTRACTS } from '../widgets/element/contracts';
import { setProgressStore, widgetKey } from '../widgets/element/progress-store';
import type { XapiStatement } from '../widgets/element/public-types';
import lmsMessages from 'attn-messages:lms';
import { PackageState } from './package-state';
import { pageResult, type Progress } from './page-result';
import type { LmsSession, PackageSettings, Standard } from './session';

/** Each standard's adapter, loaded only for the package's own. */
const ADAPTERS: Partial<
  Record<Standard, () => Promise<{ connect(settings: PackageSettings): Promise<LmsSession | undefined> }>>
> = {
  scorm12: () => import('./scorm12'),
  scorm2004: () => import('./scorm2004'),
  cmi5: () => import('./cmi5'),
};

/** What a cmi5 session adds to LmsSession (cmi5.ts's Cmi5Session), read without loading cmi5.ts. */
/** How often, at most, the saved state goes to the LMS while the learner works. */
const SAVE_EVERY_MS = 1000;

/** The package's settings as the packager wrote them into the page; undefined (said on the console) when unreadable. */
function readSettings(): PackageSettings | undefined {
  const text = document.getElementById('attention-lab-package')?.textContent;
  try {
    const settings = JSON.parse(text ?? '') as PackageSettings;
    if (typeof settings?.standard === 'string' && typeof settings.passMark === 'number') return settings;
  } catch {
    // said below
  }
  console.error(
    'attention-lab: the page has no readable package settings (<script type="application/json" id="attention-lab-package">)',
  );
  return undefined;
}

async function connect(settings: PackageSettings | undefined): Promise<LmsSession | undefined> {
  if (!settings) return undefined;
  const adapter = ADAPTERS[settings.standard];
  if (!adapter) {
    console.error(`attention-lab: this bridge has no adapter for the standard "${settings.standard}"`);
    return undefined;
  }
  try {
    return await (await adapter()).connect(settings);
  } catch (error) {
    console.error('attention-lab: connecting to the learning system failed', error);
    return undefined;
  }
}

/** The line at the page's top that says the answers go nowhere: `key` says why (lms catalog). */
async function sayNotConnected(key = 'notConnected'): Promise<void> {
  const messages = await messagesIn(languageOf(document.documentElement), lmsMessages);
  const line = document.createElement('p');
  line.className = 'attn-lms-status';
  line.setAttribute('role', 'status');
  line.textContent = messages.text(key);
  Object.assign(line.style, { margin: '0 0 1em', padding: '0.5em 0.75em', border: '1px solid #b58900' });
  document.body.prepend(line);
}

const widgets = (): HTMLElement[] =>
  [...document.querySelectorAll<HTMLElement>('*')].filter((element) => element.localName.startsWith('attn-'));

/** Keeps the page's state, score and statements in `session`, and ends it when the page goes. */
function attend(session: LmsSession, settings: PackageSettings): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsaved = false;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!unsaved) return;
    unsaved = false;
    void session.saveState(state.text);
  };
  const state = new PackageState(session.savedState, session.stateLimit, () => {
    unsaved = true;
    timer ??= setTimeout(flush, SAVE_EVERY_MS);
  });
  setProgressStore(state);

  // The learner, the attempt and the pass mark in force, for every widget's learning records
  // (the author's own activity ids and pass marks stay).
  const actor = session.learner?.actor;
  const passMark = session.passMark ?? settings.passMark;
  const au = session.activityId;
  for (const widget of widgets()) {
    const declared = CONTRACTS.find((contract) => contract.tag === widget.localName)?.attributes ?? [];
    const takes = (name: string) => declared.some((attribute) => attribute.name === name);
    if (actor) (widget as HTMLElement & { actor?: unknown }).actor = actor;
    if (session.registration && takes('registration')) widget.setAttribute('registration', session.registration);
    if (takes('pass-mark') && !widget.hasAttribute('pass-mark')) widget.setAttribute('pass-mark', String(passMark));
    if (au && !widget.hasAttribute('activity-id')) widget.setAttribute('activity-id', `${au}/${widgetKey(widget)}`);
  }

  const progress = new Map<string, Progress>();
  let reported = '';
  document.addEventListener('attn-progress', (event) => {
    const detail = (event as CustomEvent<Progress>).detail;
    if (!detail || typeof detail.key !== 'string') return;
    state.graded.add(detail.key);
    progress.set(detail.key, detail);
    const result = pageResult(progress.values(), passMark);
    if (JSON.stringify(result) === reported) return; // the LMS has it
    reported = JSON.stringify(result);
    void session.report(result);
  });

  const withStatements = new Set(CONTRACTS.flatMap((contract) => contract.events.map((event) => event.name)));
  for (const name of withStatements)
    document.addEventListener(name, (event) => {
      const statement = (event as CustomEvent<{ statement?: XapiStatement }>).detail?.statement;
      if (statement) void session.record(statement);
    });

  let ended: Promise<void> | undefined;
  const end = (): Promise<void> => {
    if (ended) return ended;
    flush();
    ended = session.terminate().catch(() => undefined);
    return ended;
  };
  addEventListener('pagehide', end);
  addEventListener('beforeunload', end);

  const returnURL = session.returnURL;
  if (returnURL) void offerReturn(returnURL, end);
}

/** The button at the page's end that ends the session (`end`) and goes to the LMS's `returnURL`. */
async function offerReturn(returnURL: string, end: () => Promise<void>): Promise<void> {
  const messages = await messagesIn(languageOf(document.documentElement), lmsMessages);
  const line = document.createElement('p');
  line.className = 'attn-lms-finish';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = messages.text('finish');
  button.addEventListener('click', () => {
    button.disabled = true;
    void end().finally(() => location.assign(returnURL));
  });
  line.append(button);
  document.body.append(line);
}

async function start(): Promise<void> {
  const settings = readSettings();
  const session = await connect(settings);
  const status = session?.status;
  if (session && settings && status?.ok !== false) attend(session, settings);
  else await sayNotConnected(status?.error?.code === 'fetch-used' ? 'launchUsed' : status ? 'launchFailed' : undefined);
  await import('../package/index');
}

void start();
