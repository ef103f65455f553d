// Types that the widgets' events carry, shipped to course authors as they are: the package's
// types/public-types.d.ts is this file (types only, no imports, so it is valid as a .d.ts).

/**
 * How a trained cue-task model solves the task, named from what breaks when a head is knocked out
 * or given an ideal attention pattern (core/include/attn/cue/intervene.hpp defines each).
 */
export type CueRouteLabel = 'cue-position' | 'answer-position' | 'cue-broadcast' | 'other' | 'none';

/** An xAPI language map: RFC 5646 language tag -> text. */
export type XapiLanguageMap = Record<string, string>;

/** An xAPI Agent identified by one of mbox, mbox_sha1sum, openid or account. */
export interface XapiAgent {
  objectType?: 'Agent';
  name?: string;
  mbox?: string;
  mbox_sha1sum?: string;
  openid?: string;
  account?: { homePage: string; name: string };
}

export interface XapiActivityDefinition {
  type: string;
  name: XapiLanguageMap;
  description?: XapiLanguageMap;
  interactionType?: 'choice' | 'other';
  correctResponsesPattern?: string[];
  choices?: { id: string; description: XapiLanguageMap }[];
}

export interface XapiActivity {
  objectType: 'Activity';
  /** an IRI */
  id: string;
  definition: XapiActivityDefinition;
}

export interface XapiResult {
  /** answered and completed: whether the answer, or every answer, was right (the trainer's and the probe's statements have none) */
  success?: boolean;
  completion?: boolean;
  response?: string;
  /** scaled in [0, 1], raw in [min, max] (the probe's statement has none) */
  score?: { scaled: number; raw: number; min: number; max: number };
  /** ISO 8601 duration, to the hundredth of a second: "PT12.34S" */
  duration?: string;
  /** keyed by IRIs ("urn:attention-lab:xapi:settings"): the widget's numbers (xapi.ts says which) */
  extensions?: Record<string, unknown>;
}

/**
 * An xAPI 1.0.3 statement as the widgets report it. `actor` is the element's `actor` property
 * when the host page set one, else an anonymous account (the page's origin and a random id kept
 * in the browser). No `id`: the LRS assigns one.
 */
export interface XapiStatement {
  actor: XapiAgent;
  verb: {
    id:
      | 'http://adlnet.gov/expapi/verbs/answered'
      | 'http://adlnet.gov/expapi/verbs/completed'
      | 'http://adlnet.gov/expapi/verbs/experienced'
      | 'http://adlnet.gov/expapi/verbs/interacted';
    display: XapiLanguageMap;
  };
  object: XapiActivity;
  result: XapiResult;
  context?: { registration?: string; contextActivities?: { parent: { objectType: 'Activity'; id: string }[] } };
  /** ISO 8601, UTC */
  timestamp: string;
}

/** The intervention the probe applies (<attn-cue-probe>; core/include/attn/cue/intervene.hpp). */
export interface ProbeIntervention {
  action: 'none' | 'knock-out' | 'pattern' | 'patch';
  /** knock-out: the head's output becomes zero or its mean over the validation set */
  ablation: string;
  /** pattern: the ideal attention pattern that replaces the head's */
  pattern: string;
  /** from 1 */
  block: number;
  /** from 1; 0 = the block's output (patch) */
  head: number;
  /** patch: the positions copied (from 0); empty = every position */
  positions: number[];
  /** patch: the sequence patched into, the query included; empty = the reader's with the answer symbol moved */
  patchInto: number[];
}

/** One model's result under the probe's intervention (full precision: the core's numbers). */
export interface ProbeInterventionResult {
  /** the model's blocks: 1 or 2 */
  blocks: number;
  /** "changed": the numbers below; "not-applicable": the model has no such block; "error": `message` says why */
  status: 'changed' | 'not-applicable' | 'error';
  message: string;
  /** validation accuracy and loss with the intervention and without it */
  accuracy: number;
  loss: number;
  cleanAccuracy: number;
  cleanLoss: number;
  /** patch: the restored fraction of the logit difference, on the validation set and for the sequence */
  restoredFraction: number;
  sequenceRestoredFraction: number;
  /** the answer to the sequence with the intervention and without it (a patch's: the sequence patched into) */
  prediction: number;
  unchangedPrediction: number;
  probabilities: number[];
  unchangedProbabilities: number[];
  /** milliseconds the intervention took in the Worker */
  ms: number;
}
