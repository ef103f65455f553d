// Learning records: the quiz and the exercises describe what the reader did as xAPI 1.0.3
// statements (public-types.ts has their shape), carried in their events' detail, so an LMS or an
// LRS can take them as they are. One "answered" per question or exercise checked, one
// "completed" per quiz or exercise set finished, each with result.success (against the pass mark)
// and a score, and the attempt's registration when the widget has one. Every
// statement has an actor (a record store refuses one without): the element's `actor` property
// when the host page (or a course package's bridge) set it, else anonymousActor(). No statement
// id: the LRS assigns it.
import type {
  XapiActivityDefinition,
  ProbeIntervention,
  ProbeInterventionResult,
  XapiAgent,
  XapiLanguageMap,
  XapiStatement,
} from './public-types';

const LEARNER_KEY = 'attention-lab:learner';
let pageLearner: string | undefined;

/**
 * The learner when nobody named one: an account on this page's origin whose name is a random id
 * kept in this browser's localStorage ("attention-lab:learner"), the same for every widget and
 * page of the origin until the reader clears the site's data; for this page load only where
 * storage is refused. It says nothing about who the reader is.
 */
export function anonymousActor(): XapiAgent {
  let name: string | null;
  try {
    name = localStorage.getItem(LEARNER_KEY);
    if (!name) {
      name = crypto.randomUUID();
      localStorage.setItem(LEARNER_KEY, name);
    }
  } catch {
    name = pageLearner ??= crypto.randomUUID();
  }
  return { objectType: 'Agent', account: { homePage: location.origin, name } };
}

const ADL = 'http://adlnet.gov/expapi';

/** The element's activity id: its activity-id attribute, else the page's address (no hash) + "#" + its id or tag and place. */
export function activityId(element: Element, given: string | undefined): string {
  if (given) return given;
  const page = location.href.replace(/#.*$/, '');
  if (element.id) return `${page}#${encodeURIComponent(element.id)}`;
  const place = [...document.getElementsByTagName(element.localName)].indexOf(element) + 1;
  return `${page}#${element.localName}-${place}`;
}

/** The language of the element's text (its nearest lang attribute), as xAPI language maps need; "und" when unknown. */
function languageOf(element: Element): string {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? 'und';
  } catch {
    return 'und';
  }
}

interface Common {
  element: Element;
  /** the host's learner; undefined: anonymousActor() */
  actor: XapiAgent | undefined;
  /** the attempt's registration (a UUID), as an LMS gives it; undefined: none */
  registration?: string;
  /** the quiz's or the set's activity id */
  activity: string;
}

const text = (element: Element, value: string): XapiLanguageMap => ({ [languageOf(element)]: value });

/**
 * What every statement shares: the actor (the host's, else anonymousActor()), the ADL verb, the
 * activity (id, ADL activity type, name in the element's language, more of its definition), the
 * result, the registration with `parent` activities when given, and the time.
 */
function statement(
  c: Common & { name: string },
  verb: 'answered' | 'completed' | 'experienced' | 'interacted',
  activity: { id: string; type: string; definition?: Partial<XapiActivityDefinition> },
  result: XapiStatement['result'],
  parent?: string,
): XapiStatement {
  const context = {
    ...(c.registration ? { registration: c.registration } : {}),
    ...(parent ? { contextActivities: { parent: [{ objectType: 'Activity' as const, id: parent }] } } : {}),
  };
  return {
    actor: c.actor ?? anonymousActor(),
    verb: { id: `${ADL}/verbs/${verb}`, display: { 'en-US': verb } },
    object: {
      objectType: 'Activity',
      id: activity.id,
      definition: { type: `${ADL}/activities/${activity.type}`, name: text(c.element, c.name), ...activity.definition },
    },
    result,
    ...(Object.keys(context).length ? { context } : {}),
    timestamp: new Date().toISOString(),
  };
}

/** One question or exercise checked: "answered", with the reader's response. */
export function answeredStatement(
  c: Common & {
    id: string;
    name: string;
    success: boolean;
    response: string;
    choices?: string[];
    correctChoice?: number;
  },
): XapiStatement {
  const definition = c.choices
    ? {
        interactionType: 'choice' as const,
        correctResponsesPattern: [String(c.correctChoice)],
        choices: c.choices.map((choice, i) => ({ id: String(i), description: text(c.element, choice) })),
      }
    : { interactionType: 'other' as const };
  const point = c.success ? 1 : 0;
  return statement(
    c,
    'answered',
    { id: `${c.activity}/${encodeURIComponent(c.id)}`, type: 'cmi.interaction', definition },
    { success: c.success, response: c.response, score: { scaled: point, raw: point, min: 0, max: 1 } },
    c.activity,
  );
}

/**
 * A quiz or exercise set finished: "completed", scored; success when the scaled score (score over
 * total) is at or above `passMark` (0 to 1; 1: every item right).
 */
export function completedStatement(
  c: Common & { name: string; score: number; total: number; passMark: number },
): XapiStatement {
  const scaled = c.total ? c.score / c.total : 0;
  return statement(
    c,
    'completed',
    { id: c.activity, type: 'assessment' },
    { success: scaled >= c.passMark, completion: true, score: { scaled, raw: c.score, min: 0, max: c.total } },
  );
}

/** The IRIs of the trainer's and the probe's result extensions. */
export const XAPI_EXTENSIONS = {
  /** the run's settings: {seed, heads, epochs, blocks} */
  settings: 'urn:attention-lab:xapi:settings',
  /** the trainer: {bestEpoch, route}, the epoch of the best validation accuracy and the core's route label */
  run: 'urn:attention-lab:xapi:run',
  /** the probe: the intervention (ProbeIntervention) */
  intervention: 'urn:attention-lab:xapi:intervention',
  /** the probe: per model {blocks, status, prediction, unchangedPrediction, accuracy, cleanAccuracy} */
  results: 'urn:attention-lab:xapi:results',
} as const;

/** Milliseconds as an xAPI duration (ISO 8601, hundredths of a second): 12345 -> "PT12.35S". */
export function xapiDuration(ms: number): string {
  return `PT${(Math.max(0, ms) / 1000).toFixed(2)}S`;
}

/** Rounds to 4 decimals, as the statements keep accuracies. */
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
/** A measured number, rounded; null where the model has none (NaN: the block does not exist). */
const measured = (x: number) => (Number.isFinite(x) ? round4(x) : null);

/**
 * A model of the trainer finished training: "experienced" the trainer's activity, scored by the
 * best validation accuracy (scaled = raw, in [0, 1]), with the run's duration and settings.
 */
export function trainedStatement(
  c: Common & {
    name: string;
    /** the model's blocks */
    blocks: number;
    best: number;
    bestEpoch: number;
    route: string;
    settings: { seed: number; heads: number; epochs: number };
    durationMs: number;
  },
): XapiStatement {
  const best = round4(Math.min(1, Math.max(0, c.best)));
  return statement(
    c,
    'experienced',
    { id: c.activity, type: 'simulation' },
    {
      completion: true,
      score: { scaled: best, raw: best, min: 0, max: 1 },
      duration: xapiDuration(c.durationMs),
      extensions: {
        [XAPI_EXTENSIONS.settings]: { ...c.settings, blocks: c.blocks },
        [XAPI_EXTENSIONS.run]: { bestEpoch: c.bestEpoch, route: c.route },
      },
    },
  );
}

/**
 * The reader tried an intervention in the probe (or asked without one: action "none"):
 * "interacted" with the probe's activity; the response is the sequence asked (token ids, the
 * query included), the extensions the intervention and each model's answer and accuracy.
 */
export function interactedStatement(
  c: Common & {
    name: string;
    tokens: number[];
    intervention: ProbeIntervention;
    results: ProbeInterventionResult[];
  },
): XapiStatement {
  return statement(
    c,
    'interacted',
    { id: c.activity, type: 'simulation' },
    {
      response: c.tokens.join(','),
      extensions: {
        [XAPI_EXTENSIONS.intervention]: c.intervention,
        [XAPI_EXTENSIONS.results]: c.results.map((r) => ({
          blocks: r.blocks,
          status: r.status,
          prediction: r.prediction,
          unchangedPrediction: r.unchangedPrediction,
          accuracy: measured(r.accuracy),
          cleanAccuracy: measured(r.cleanAccuracy),
        })),
      },
    },
  );
}
