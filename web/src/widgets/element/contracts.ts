// The contract of every widget: one table each (contract.ts says what the fields mean and what
// is made from them). The widget classes take theirs as `static contract`; the embedding guide,
// custom-elements.json and the package's types are generated from these tables.
import type { OwnAttributeSpec, WidgetContract } from './contract';
import { TAGS } from './tags';

const STATE_KEY = {
  name: 'state-key',
  type: 'text',
  pattern: '[a-z][a-z0-9-]{0,31}',
  format: 'a name of up to 32 lowercase letters, digits and hyphens, starting with a letter',
  description:
    "Keeps the reader's settings in the page's URL hash under this name (the hash keys are listed with the attributes), so a copied link reopens the same view. Without it the widget leaves the hash alone.",
} as const satisfies OwnAttributeSpec;

const ACTIVITY_ID = {
  name: 'activity-id',
  type: 'iri',
  description:
    'The xAPI activity id of this widget in the learning records it reports; each question or exercise (quiz, exercises) is this id followed by "/" and its own id. Without it: the page\'s address without its hash, then "#" and the element\'s id (or its tag and its place among those on the page, "attn-quiz-1").',
} as const satisfies OwnAttributeSpec;

const PASS_MARK = {
  name: 'pass-mark',
  type: 'number',
  min: 0,
  max: 1,
  default: 1,
  description:
    'The scaled score (points over maximum, 0 to 1) at or above which the learning records\' "completed" statement says success. 1: every item right; 0.8: four in five.',
} as const satisfies OwnAttributeSpec;

const REGISTRATION = {
  name: 'registration',
  type: 'text',
  pattern: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  format: 'a UUID, such as 0f8fad5b-d9cb-469f-a165-70867728950e',
  description:
    "The attempt's registration, as an LMS gives it (cmi5 does): every learning record carries it as context.registration. Without it: none.",
} as const satisfies OwnAttributeSpec;

/** The progress a graded widget reports: its score so far, for a course package's gradebook. */
const PROGRESS_EVENT = (items: string) =>
  ({
    name: 'attn-progress',
    description: `The score so far: after the widget draws (with the answers it restored) and after every check, retry or reset. A course package's bridge adds up every graded widget's.`,
    detail: [
      { name: 'key', type: 'string', description: 'the widget\'s key: its id, else its tag and place ("attn-quiz-1")' },
      { name: 'points', type: 'number', description: `${items} right` },
      { name: 'max', type: 'number', description: `the most points: ${items} in all` },
      { name: 'answered', type: 'number', description: `${items} answered` },
      { name: 'total', type: 'number', description: `${items} in all` },
    ],
  }) as const;

/** The learner, for the learning records of the quiz, the exercises, the trainer and the probe. */
const ACTOR = {
  name: 'actor',
  type: 'XapiAgent | undefined',
  description:
    'The learner, set by the host page; the learning records carry it as their actor. Unset: an anonymous account, the page\'s origin and a random id this browser keeps (localStorage "attention-lab:learner").',
} as const;

/** The statement every learning-record event carries. */
const STATEMENT = {
  name: 'statement',
  type: 'XapiStatement',
  description: 'the same as an xAPI statement (the guide\'s "Learning records")',
} as const;

/** The soft lookup's keys and values: five points around the origin. */
const LOOKUP_KEYS = [
  [2, 0.4],
  [0.9, 2],
  [-1.8, 1.1],
  [-1.2, -1.9],
  [1.3, -1.7],
];
const LOOKUP_VALUES = [
  [1.6, 1.6],
  [-0.4, 2.4],
  [-2.3, -0.2],
  [0.2, -2.4],
  [2.4, -0.6],
];

export const SOFT_LOOKUP = {
  tag: TAGS.softLookup,
  className: 'SoftLookup',
  leftToRight: 'the drawing: the plane of keys, values, query and output, and the weight bars under it',
  description:
    'Attention as a soft dictionary lookup: the reader drags a query among keys and sees the weights the core computes and the output, the weighted mean of the values.',
  attributes: [
    {
      name: 'keys',
      type: 'points',
      maxCount: 12,
      default: LOOKUP_KEYS,
      description: 'The keys, as points in the plane.',
    },
    { name: 'values', type: 'points', maxCount: 12, default: LOOKUP_VALUES, description: 'The values, one per key.' },
    {
      name: 'query',
      type: 'point',
      hashKey: 'q',
      description:
        'Where the query stands. Without it the query circles the origin until the reader moves it (while the sketch is on screen, motion is not reduced and the reader did something in the last 2 s).',
    },
    {
      name: 'scale',
      type: 'enum',
      values: ['on', 'off'],
      default: 'on',
      hashKey: 'scale',
      description: 'on: the scores are divided by √d_k (here √2); off: they are not.',
    },
    {
      name: 'temperature',
      type: 'enum',
      values: [0.25, 0.5, 1, 2, 4],
      default: 1,
      hashKey: 'temp',
      description: 'The query is divided by it before the lookup: below 1 sharpens the weights, above 1 flattens them.',
    },
    STATE_KEY,
  ],
  events: [
    {
      name: 'attn-change',
      description:
        'The query moved (by the reader, or by itself about every 30 frames while it circles) or a setting changed.',
      detail: [
        { name: 'query', type: 'number[]', description: 'the query [x, y]' },
        { name: 'weights', type: 'number[]', description: 'one weight per key, summing to 1' },
        { name: 'output', type: 'number[]', description: 'the output [x, y]' },
      ],
    },
  ],
} as const satisfies WidgetContract;

export const RANKED_TABLE = {
  tag: TAGS.rankedTable,
  className: 'RankedTable',
  leftToRight: 'nothing: the table mirrors, its first column on the right',
  schema: 'table',
  description:
    'A table the reader ranks by any column. Data: a child <script type="application/json"> or src (schemas/table.schema.json); without either, the core\'s scale sweep with a control for the number of draws.',
  attributes: [
    {
      name: 'src',
      type: 'url',
      description:
        'Address of the table data (JSON, schemas/table.schema.json). A child <script type="application/json"> is read first when there is one.',
    },
    {
      name: 'draws',
      core: { config: 'scaleSweep', key: 'draws' },
      cap: 5000,
      capReason: "the sweep runs on the page's own thread",
      hashKey: 'draws',
      note: 'For the default table, the scale sweep.',
    },
    {
      name: 'sort',
      type: 'text',
      pattern: '.{1,100}',
      format: 'the key of one of the columns',
      hashKey: 'sort',
      description: 'The column the rows are ranked by. Without it: the first column.',
    },
    {
      name: 'order',
      type: 'enum',
      values: ['ascending', 'descending'],
      default: 'ascending',
      hashKey: 'dir',
      description: 'Which end of the ranking comes first.',
    },
    STATE_KEY,
  ],
  events: [
    {
      name: 'attn-change',
      description: 'The reader ranked the rows by a column (a click, or Enter or Space on its header).',
      detail: [
        { name: 'sortKey', type: 'string', description: 'the key of the column' },
        { name: 'descending', type: 'boolean', description: 'true when the highest value comes first' },
      ],
    },
  ],
} as const satisfies WidgetContract;

export const SCALE_FIGURE = {
  tag: TAGS.scaleFigure,
  className: 'ScaleFigure',
  leftToRight: 'both plots with their axes, and the formulas in their legend',
  description:
    "The largest weight and the entropy of random attention against d_k, with and without the 1/√d_k scale, with standard errors and the uniform bound (the core's scale sweep).",
  attributes: [
    { name: 'dk', core: { config: 'scaleSweep', key: 'dks' } },
    {
      name: 'draws',
      core: { config: 'scaleSweep', key: 'draws' },
      cap: 5000,
      capReason: "the sweep runs on the page's own thread",
    },
    { name: 'tokens', core: { config: 'scaleSweep', key: 'tokens' } },
    { name: 'seed', core: { config: 'scaleSweep', key: 'seed' } },
  ],
  events: [],
} as const satisfies WidgetContract;

export const MASK_FIGURE = {
  tag: TAGS.maskFigure,
  className: 'MaskFigure',
  leftToRight: 'the heat maps and their tables of weights',
  description:
    'The causal, padding and combined masks applied to one seeded score matrix by the core, as heat maps of the weights with the share of allowed pairs under each; the reader changes the lengths.',
  attributes: [
    {
      name: 'positions',
      core: { config: 'maskDemo', key: 'positions' },
      cap: 32,
      capReason: 'a heat map of more positions cannot be read',
      hashKey: 'n',
    },
    {
      name: 'real',
      core: { config: 'maskDemo', key: 'real' },
      cap: 32,
      capReason: 'a heat map of more positions cannot be read',
      hashKey: 'real',
    },
    { name: 'seed', core: { config: 'maskDemo', key: 'seed' } },
    STATE_KEY,
  ],
  events: [
    {
      name: 'attn-change',
      description: 'The figure was drawn for new lengths (the reader changed one).',
      detail: [
        { name: 'positions', type: 'number', description: 'sequence length' },
        { name: 'real', type: 'number', description: 'real (non-padding) tokens' },
        {
          name: 'fractions',
          type: 'Record<string, number>',
          description: 'share of allowed pairs per mask: causal, padding, both',
        },
      ],
    },
  ],
} as const satisfies WidgetContract;

export const HEADS_FIGURE = {
  tag: TAGS.headsFigure,
  className: 'HeadsFigure',
  leftToRight: 'the heat maps and their tables of weights',
  description:
    "One seeded input through a multi-head layer and through one head of the full width: equal parameter counts, and each head's weights as a heat map.",
  attributes: [
    { name: 'd-model', core: { config: 'headsDemo', key: 'dModel' } },
    { name: 'heads', core: { config: 'headsDemo', key: 'numHeads' } },
    { name: 'tokens', core: { config: 'headsDemo', key: 'tokens' } },
    { name: 'seed', core: { config: 'headsDemo', key: 'seed' } },
  ],
  events: [],
} as const satisfies WidgetContract;

export const PITFALL_DEMO = {
  tag: TAGS.pitfallDemo,
  className: 'PitfallDemo',
  leftToRight: 'the precisions, constants and stored values (code and numbers); the tables themselves mirror',
  description:
    'Two pitfalls computed by the core: masking after the softmax, and a fully masked row in half precision.',
  attributes: [],
  events: [],
} as const satisfies WidgetContract;

/** The route labels of core/include/attn/cue/intervene.hpp (ROUTE_LABELS below says what names each). */
export const ROUTE_NAMES = ['cue-position', 'answer-position', 'cue-broadcast', 'other', 'none'] as const;

export const FLOWCHART = {
  tag: TAGS.flowchart,
  className: 'Flowchart',
  leftToRight: 'the diagram (an image, drawn left to right)',
  description: 'How two blocks answer the cue task, as a diagram drawn at build time, with a text alternative.',
  attributes: [
    {
      name: 'route',
      type: 'enum',
      values: ROUTE_NAMES,
      description:
        "The route drawn, as the core's interventions name it (the guide's table of routes); the lesson sets it to the route of the run its trainer shows. Without it: the route of the trainer's recorded run.",
    },
  ],
  events: [],
} as const satisfies WidgetContract;

export const QUIZ = {
  tag: TAGS.quiz,
  className: 'Quiz',
  leftToRight: 'formulas and code in the questions',
  schema: 'quiz',
  description:
    'Multiple-choice questions with feedback on every option, Retry, Show solution and a score. Data: a child <script type="application/json"> or src (schemas/quiz.schema.json); without either, the widget says it has no questions (the framed form, embed.html?widget=attn-quiz without src, shows the lesson\'s).',
  attributes: [
    {
      name: 'src',
      type: 'url',
      description:
        'Address of the quiz data (JSON, schemas/quiz.schema.json). A child <script type="application/json"> is read first when there is one.',
    },
    ACTIVITY_ID,
    PASS_MARK,
    {
      name: 'attempts',
      type: 'number',
      integer: true,
      min: 0,
      max: 99,
      default: 0,
      description:
        'How many times the reader may check each question; then the question locks and says so (Show solution locks it too). 0: as often as they like.',
    },
    {
      name: 'solution',
      type: 'enum',
      values: ['on', 'off'],
      default: 'on',
      description: 'on: each question has a "Show solution" button; off: it has none.',
    },
    {
      name: 'order',
      type: 'enum',
      values: ['shuffled', 'authored'],
      default: 'shuffled',
      description:
        "The order of each question's options. shuffled: an order of their own per question, the same on every reload: seeded by the learner (the actor property), else by a seed kept with the saved progress, else by the quiz's content. authored: as the data lists them. Events and learning records name options by their place in the data either way.",
    },
    REGISTRATION,
  ],
  properties: [
    ACTOR,
    {
      name: 'numbers',
      type: 'Record<string, number> | undefined',
      description:
        'Values for placeholders in the texts: {name} (a name with a dot, such as {run.seed}) shows numbers[name], {name:3} with 3 decimals, {name:e} in scientific notation; set before the quiz draws. Unset, or a name it lacks: the placeholder shows "…".',
    },
  ],
  events: [
    {
      name: 'attn-quiz-answered',
      description: 'The reader checked an answer (one xAPI "answered" statement).',
      detail: [
        { name: 'id', type: 'string', description: "the question's id" },
        { name: 'correct', type: 'boolean', description: 'whether the chosen option is the right one' },
        { name: 'score', type: 'number', description: 'questions answered correctly so far' },
        { name: 'answered', type: 'number', description: 'questions answered or revealed so far' },
        { name: 'total', type: 'number', description: 'questions in the quiz' },
        STATEMENT,
      ],
    },
    {
      name: 'attn-quiz-completed',
      description:
        'Every question has been answered or revealed (one xAPI "completed" statement); again after Retry when all are answered anew.',
      detail: [
        { name: 'score', type: 'number', description: 'questions answered correctly' },
        { name: 'total', type: 'number', description: 'questions in the quiz' },
        STATEMENT,
      ],
    },
    PROGRESS_EVENT('questions'),
  ],
} as const satisfies WidgetContract;

export const EXERCISES = {
  tag: TAGS.exercises,
  className: 'Exercises',
  leftToRight: 'the mask-building grid (queries down, keys across), formulas and code',
  schema: 'exercises',
  description:
    'Tasks the reader solves on the page, each checked by the core: a wrong answer gets a hint, not the answer, until the reader presses Show the answer (the task then counts as not right, and is saved as shown). Data: a child <script type="application/json"> or src (schemas/exercises.schema.json); without either, the widget says it has no tasks (the framed form, embed.html?widget=attn-exercises without src, shows the lesson\'s).',
  attributes: [
    {
      name: 'src',
      type: 'url',
      description:
        'Address of the exercise data (JSON, schemas/exercises.schema.json). A child <script type="application/json"> is read first when there is one.',
    },
    ACTIVITY_ID,
    PASS_MARK,
    REGISTRATION,
  ],
  properties: [ACTOR],
  events: [
    {
      name: 'attn-exercise-checked',
      description: 'The core checked the reader\'s answer to an exercise (one xAPI "answered" statement).',
      detail: [
        { name: 'id', type: 'string', description: "the exercise's id" },
        { name: 'correct', type: 'boolean', description: 'whether the answer is right' },
        STATEMENT,
      ],
    },
    {
      name: 'attn-exercises-completed',
      description:
        'Every exercise has been checked at least once (one xAPI "completed" statement, scored by each exercise\'s latest check); again whenever a check changes the score after that.',
      detail: [
        { name: 'score', type: 'number', description: 'exercises whose latest check was right' },
        { name: 'total', type: 'number', description: 'exercises in the set' },
        STATEMENT,
      ],
    },
    PROGRESS_EVENT('exercises'),
  ],
} as const satisfies WidgetContract;

/** The route a trained model takes, in the trainer's events. */
const ROUTE_FIELD = {
  name: 'route',
  type: 'CueRouteLabel',
  description:
    'how the model solves the task, from knock-outs and ideal attention patterns: "cue-position", "answer-position", "cue-broadcast", "other" or "none" (ROUTE_LABELS: the guide\'s table of routes)',
} as const;

/** What the core found in a trained model, in the trainer's events. */
const RUN_FIELDS = [
  { name: 'seed', type: 'number', description: "the run's seed" },
  {
    name: 'analysis',
    type: 'CueAnalysis',
    description: "where the trained model looks: the core's analysis of its attention (CueAnalysis)",
  },
  {
    name: 'interventions',
    type: 'CueRoute',
    description:
      "the core's interventions behind the route: each test's accuracy, the heads tested and knocked out, the rule's thresholds (CueRoute)",
  },
] as const;

export const CUE_TRAINER = {
  tag: TAGS.cueTrainer,
  className: 'CueTrainer',
  leftToRight: 'the accuracy charts with their axes, the heat maps and the token sequences',
  description:
    "The cue task's 1-block and 2-block transformers, trained live by the core in a Worker (or shown as the run recorded at build time), with their validation curves and where the trained model looks.",
  attributes: [
    { name: 'seed', core: { config: 'cueTrain', key: 'seed' }, hashKey: 'seed' },
    {
      name: 'heads',
      core: { config: 'cueTrain', key: 'heads' },
      note: 'The reader picks one of them in the widget.',
      hashKey: 'heads',
    },
    { name: 'epochs', core: { config: 'cueTrain', key: 'epochs' }, hashKey: 'epochs' },
    STATE_KEY,
    ACTIVITY_ID,
  ],
  properties: [ACTOR],
  events: [
    {
      name: 'attn-train-progress',
      description: 'A batch of training finished.',
      detail: [
        { name: 'model', type: 'number', description: "the model's blocks, 1 or 2" },
        { name: 'epoch', type: 'number', description: 'epochs completed' },
        { name: 'batch', type: 'number', description: 'batches done in the current epoch' },
        { name: 'heapBytes', type: 'number', description: "the Worker's WebAssembly memory" },
      ],
    },
    {
      name: 'attn-train-epoch',
      description: 'An epoch finished and the model was measured on the validation set.',
      detail: [
        { name: 'model', type: 'number', description: "the model's blocks, 1 or 2" },
        { name: 'epoch', type: 'number', description: 'the epoch, from 1' },
        { name: 'trainLoss', type: 'number', description: 'mean training loss of the epoch' },
        { name: 'trainAccuracy', type: 'number', description: 'training accuracy of the epoch' },
        { name: 'validationLoss', type: 'number', description: 'validation loss after the epoch' },
        { name: 'validationAccuracy', type: 'number', description: 'validation accuracy after the epoch' },
        { name: 'best', type: 'number', description: 'best validation accuracy so far' },
      ],
    },
    {
      name: 'attn-train-finished',
      description:
        'A model finished training (one xAPI "experienced" statement: the best validation accuracy as its score, the run\'s duration and settings).',
      detail: [
        { name: 'model', type: 'number', description: "the model's blocks, 1 or 2" },
        { name: 'best', type: 'number', description: 'best validation accuracy' },
        { name: 'bestEpoch', type: 'number', description: 'the epoch that reached it, from 1' },
        ROUTE_FIELD,
        ...RUN_FIELDS,
        STATEMENT,
      ],
    },
    {
      name: 'attn-run-shown',
      description:
        "The trainer shows a run's 2-block model: the recorded run (when the trainer starts, and on Show recorded run), or a run trained here once its 2-block model has finished (before that model's attn-train-finished). A page whose words describe the shown run updates them from it.",
      detail: [
        { name: 'source', type: 'string', description: '"recorded" (built with the site) or "live" (trained here)' },
        ROUTE_FIELD,
        ...RUN_FIELDS,
      ],
    },
  ],
} as const satisfies WidgetContract;

/**
 * The route labels of core/include/attn/cue/intervene.hpp, each with the test that names it (on the
 * validation set; "keeps" means at least 0.95 of the clean accuracy, and "breaks" that accuracy
 * falls at least halfway from clean to the frequency baseline).
 */
export const ROUTE_LABELS = [
  {
    label: 'cue-position',
    test: "Block 1's head with an ideal next-token pattern keeps the accuracy, and knocking out the block-1 head with the most weight from the CUE onto the answer breaks it: block 1 copies the answer into the CUE position, where the question reads it.",
  },
  {
    label: 'answer-position',
    test: 'The same with an ideal previous-token pattern and the head with the most weight from the answer onto the CUE: a previous-token head in block 1 and an induction head after it.',
  },
  {
    label: 'cue-broadcast',
    test: 'An ideal pattern in which every position looks at the first CUE keeps the accuracy, and neither test above passes: block 1 spreads the CUE to every position.',
  },
  { label: 'other', test: 'Solved (clean accuracy at least 0.9), and none of the tests above passes.' },
  { label: 'none', test: 'Not solved: clean validation accuracy below 0.9.' },
] as const;

export const ATTENTION_STEPS = {
  tag: TAGS.attentionSteps,
  className: 'AttentionSteps',
  leftToRight: 'the matrices, in the order of the computation, and each sum written out',
  description:
    'One attention call laid out as matrices, every one computed by the core: Q, K and V (a seeded draw the reader can edit cell by cell), Q Kᵀ, the scaled scores, the causal mask if chosen, the softmax weights and the output. Focusing or pointing at a cell marks the cells it came from and writes out its sum.',
  attributes: [
    { name: 'tokens', core: { config: 'attentionSteps', key: 'tokens' }, hashKey: 'n' },
    { name: 'dk', core: { config: 'attentionSteps', key: 'dK' }, hashKey: 'dk' },
    { name: 'dv', core: { config: 'attentionSteps', key: 'dV' }, hashKey: 'dv' },
    {
      name: 'causal',
      core: { config: 'attentionSteps', key: 'causal' },
      note: 'Written without a value (causal) it is on, as an HTML boolean attribute is.',
      hashKey: 'causal',
    },
    {
      name: 'scale',
      core: { config: 'attentionSteps', key: 'scale' },
      note: 'Written without a value (scale) it is on; absent, it keeps the default; scale="false" turns it off, and setting the property to false writes that.',
      hashKey: 'scale',
    },
    {
      name: 'seed',
      core: { config: 'attentionSteps', key: 'seed' },
      note: 'Cells the reader edits replace the drawn ones until a setting changes.',
      hashKey: 'seed',
    },
    STATE_KEY,
  ],
  events: [
    {
      name: 'attn-change',
      description:
        'The reader edited a cell of Q, K or V, or changed a setting, and the core computed the steps again.',
      detail: [
        { name: 'causal', type: 'boolean', description: 'whether the causal mask is on' },
        { name: 'scale', type: 'boolean', description: 'whether the scores are multiplied by 1/√d_k' },
        { name: 'weights', type: 'number[]', description: 'the attention weights (tokens × tokens), row by row' },
        { name: 'output', type: 'number[]', description: 'the output (tokens × d_v), row by row' },
      ],
    },
  ],
} as const satisfies WidgetContract;

export const CUE_PROBE = {
  tag: TAGS.cueProbe,
  className: 'CueProbe',
  leftToRight: 'the sequence editor and its position boxes, the heat maps and the token sequences',
  description:
    "Ask the trained cue-task models about a sequence of your own: the reader picks the symbols and moves the cue, and the 1-block and the 2-block model answer side by side with their prediction, every class's probability and the attention of every block and head as heat maps over the tokens. An intervention (knock out a head, replace its attention pattern, patch a head's or a block's output from a second sequence) is applied to both models, and a table shows each one's answer and validation accuracy with and without it. The forward passes and interventions run in the core in the training Worker (the trainer's, when the page has one).",
  attributes: [
    {
      name: 'sequence',
      type: 'text',
      hashKey: 'seq',
      pattern: '\\s*(CUE|\\d{1,2})\\s*(,\\s*(CUE|\\d{1,2})\\s*){1,62}',
      format: 'the body of the sequence: symbols (whole numbers) and one CUE, separated by commas',
      description:
        "The sequence before the query: one token per position, each a symbol of the task or CUE, with exactly one CUE and at least one symbol after it; the query (CUE again) is added at the end. It must have the trained task's length less one (9 tokens of symbols 0 to 6 for the lesson's task). Without it: the CUE at position 2 (earlier in a shorter task) and the symbols (3p + 1) mod the number of symbols at the other positions p, so that two symbols come twice.",
    },
    {
      name: 'source',
      type: 'enum',
      values: ['recorded', 'live'],
      default: 'recorded',
      hashKey: 'src',
      description:
        'recorded: the models the native core trained at build time (their weights load when the probe starts); live: the latest run the trainer on the same page finished.',
    },
    {
      name: 'intervention',
      type: 'enum',
      values: ['none', 'knock-out', 'pattern', 'patch'],
      default: 'none',
      hashKey: 'iv',
      description:
        "What the probe changes in both models, where the block exists (the 1-block model has block 1 only): none; knock-out, a head's output set to zero or its mean (ablation); pattern, a head's attention pattern replaced by an ideal one (pattern); patch, a head's or the block's output (head 0) at the patch-positions copied from the run of the sequence into the run of patch-into. Shown for each model: the answer to the sequence with and without it, and the validation accuracy with and without it (a patch: the restored fraction too).",
    },
    {
      name: 'ablation',
      core: { config: 'intervention', key: 'ablation' },
      hashKey: 'abl',
      note: 'Used when intervention is knock-out.',
    },
    {
      name: 'pattern',
      core: { config: 'intervention', key: 'pattern' },
      hashKey: 'pat',
      note: 'Used when intervention is pattern. The probe offers no way to give a pattern: "given" is named as an error in place.',
    },
    {
      name: 'block',
      core: { config: 'intervention', key: 'block' },
      hashKey: 'blk',
      cap: 2,
      capReason: "the probe's models have 1 and 2 blocks; block 2 applies to the 2-block model only",
    },
    {
      name: 'head',
      core: { config: 'intervention', key: 'head' },
      hashKey: 'head',
      note: 'A head the models do not have is named as an error in place.',
    },
    {
      name: 'patch-positions',
      type: 'text',
      hashKey: 'pos',
      default: '',
      pattern: '\\s*(\\d{1,2}\\s*(,\\s*\\d{1,2}\\s*){0,63})?',
      format: 'positions from 0 (the query is the last), separated by commas; empty for every position',
      description:
        "A patch's positions: where the output is copied from the sequence's run into patch-into's. Empty or absent: every position.",
    },
    {
      name: 'patch-into',
      type: 'text',
      hashKey: 'into',
      default: '',
      pattern: '(\\s*(CUE|\\d{1,2})\\s*(,\\s*(CUE|\\d{1,2})\\s*){1,62})?',
      format: 'empty, or a sequence body as for sequence: symbols and CUE, separated by commas',
      description:
        "A patch's second sequence, the one patched into (the query's CUE is added): the output at patch-positions comes from the run of sequence, and the restored fraction says how much of the clean answer's logit lead that brings back. Empty or absent: the core's default corruption, the sequence with its answer symbol (the one after the first CUE) moved by one.",
    },
    STATE_KEY,
    ACTIVITY_ID,
  ],
  properties: [ACTOR],
  events: [
    {
      name: 'attn-change',
      description:
        'Both models answered the sequence after the reader changed it (a symbol picked, the cue moved), chose the other run or changed the intervention (one xAPI "interacted" statement: the sequence, the intervention tried and each model\'s answer and accuracy).',
      detail: [
        {
          name: 'tokens',
          type: 'number[]',
          description: "the sequence asked, the query included (the cue's id is the number of symbols)",
        },
        {
          name: 'predictions',
          type: 'number[]',
          description: 'the prediction of the 1-block and of the 2-block model',
        },
        { name: 'latencyMs', type: 'number', description: 'milliseconds from the change to both answers shown' },
        {
          name: 'intervention',
          type: 'ProbeIntervention',
          description: 'the intervention applied (action "none": no change)',
        },
        {
          name: 'results',
          type: 'ProbeInterventionResult[]',
          description:
            "each model's result under the intervention, the 1-block model's first (empty when the action is none): the core's numbers in full precision",
        },
        STATEMENT,
      ],
    },
  ],
} as const satisfies WidgetContract;

/** Every widget, in the order the guide lists them. */
export const CONTRACTS: readonly WidgetContract[] = [
  SOFT_LOOKUP,
  ATTENTION_STEPS,
  RANKED_TABLE,
  SCALE_FIGURE,
  MASK_FIGURE,
  HEADS_FIGURE,
  PITFALL_DEMO,
  FLOWCHART,
  QUIZ,
  EXERCISES,
  CUE_TRAINER,
  CUE_PROBE,
];

export const contractOf = (tag: string): WidgetContract | undefined => CONTRACTS.find((c) => c.tag === tag);
