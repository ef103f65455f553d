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
  success: boolean;
  completion?: boolean;
  response?: string;
  /** scaled in [0, 1], raw in [min, max] */
  score: { scaled: number; raw: number; min: number; max: number };
}

/**
 * An xAPI 1.0.3 statement as the quiz and the exercises report it. `actor` is the element's
 * `actor` property when the host page set one; without it the statement has no actor and the
 * LMS or LRS that receives it adds the learner. No `id`: the LRS assigns one.
 */
export interface XapiStatement {
  actor?: XapiAgent;
  verb: {
    id: 'http://adlnet.gov/expapi/verbs/answered' | 'http://adlnet.gov/expapi/verbs/completed';
    display: XapiLanguageMap;
  };
  object: XapiActivity;
  result: XapiResult;
  context?: { contextActivities: { parent: { objectType: 'Activity'; id: string }[] } };
  /** ISO 8601, UTC */
  timestamp: string;
}
