// The facade's plain data: what its calls take and return, the configs and limits as the core
// declares them, and the interfaces of the two cores (Core, AttentionCore) and of the objects
// that live in them (multi-head layers, generators, cue models). Types only.
//
// An interface tagged `@core Name` is the core's struct Name as it crosses into JS (its keys,
// listed once in the struct's fields(), and their types): tests/wasm/types.test.mjs compares
// the two and fails on any difference.

// ---- plain data ----

/** A float32 matrix, row-major: element (i, j) is data[i * cols + j]. */
export interface Mat {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** A mask, row-major bytes: 1 = the query (row) may attend the key (column), 0 = blocked. */
export interface MaskMat {
  rows: number;
  cols: number;
  data: Uint8Array;
}

// ---- the API ----

/**
 * The options of attention() and of a multi-head layer's forward(); defaults: configs.attention.defaults.
 *
 * @core AttentionOptions
 */
export interface AttentionConfig {
  /** Divide the scores by sqrt(d_k) (default true). Off only to show why it is there. */
  scale: boolean;
  /** Score given to blocked pairs before the softmax (default -1e9; -Infinity allowed). */
  maskedValue: number;
}

export interface AttentionOptions extends Partial<AttentionConfig> {
  /** (n_q, n_k) */
  mask?: MaskMat;
}

/** The matrices one call returns share one ArrayBuffer; copy (data.slice()) before transferring one. */
export interface AttentionResult {
  /** (n_q, d_v) */
  output: Mat;
  /** (n_q, n_k), rows sum to 1 */
  weights: Mat;
}

/** y = x W + b: weight (in, out), bias (1, out) or a Float32Array of out values. */
export interface ProjectionWeights {
  weight: Mat;
  bias: Mat | Float32Array;
}

/** PyTorch nn.MultiheadAttention's parameters, as torch stores them. */
export interface PytorchWeights {
  /** (3 d, d) */
  inProjWeight: Mat;
  /** (1, 3 d) */
  inProjBias: Mat | Float32Array;
  /** (d, d) */
  outProjWeight: Mat;
  /** (1, d) */
  outProjBias: Mat | Float32Array;
}

export type MultiHeadWeights =
  | { pytorch: PytorchWeights }
  /** query/key/value: weight (d, h k), bias (1, h k); output: weight (h k, d), bias (1, d) */
  | { query: ProjectionWeights; key: ProjectionWeights; value: ProjectionWeights; output: ProjectionWeights }
  /** Glorot-uniform kernels drawn from the seeded generator, zero biases (as Keras does). */
  | { seed: number };

export interface MultiHeadSpec {
  dModel: number;
  numHeads: number;
  /** Width of each head; default dModel / numHeads. */
  keyDim?: number;
  weights: MultiHeadWeights;
}

export interface MultiHeadResult {
  /** (n_q, d) */
  output: Mat;
  /** one (n_q, n_k) matrix per head */
  weights: Mat[];
  parameterCount: number;
}

export interface MultiHeadParameters {
  query: { weight: Mat; bias: Mat };
  key: { weight: Mat; bias: Mat };
  value: { weight: Mat; bias: Mat };
  output: { weight: Mat; bias: Mat };
}

/** A multi-head layer living in the core: keep it for repeated forwards, dispose() when done. */
export interface MultiHeadLayer {
  readonly dModel: number;
  readonly numHeads: number;
  readonly keyDim: number;
  readonly parameterCount: number;
  /** query (n_q, d), key (n_k, d), value (n_k, d), mask (n_q, n_k). */
  forward(query: Mat, key: Mat, value: Mat, mask?: MaskMat, options?: Omit<AttentionOptions, 'mask'>): MultiHeadResult;
  /** Copies of every weight and bias, in the (in, out) layout. */
  parameters(): MultiHeadParameters;
  dispose(): void;
}

/**
 * The seeded generator: the same stream as attn::Random natively, for the same seed. Its
 * state is plain bytes on the JS side, so there is nothing to free.
 */
export interface Random {
  /** n draws in [0, 1), 53 random bits each. */
  uniform(n: number): Float64Array;
  /** n standard-normal draws. */
  normal(n: number): Float64Array;
  /** (rows, cols) standard-normal draws rounded to float32. */
  normalMatrix(rows: number, cols: number): Mat;
  /** (rows, cols) draws in [lo, hi) rounded to float32. */
  uniformMatrix(rows: number, cols: number, lo: number, hi: number): Mat;
  /** An independent generator continuing from the same state. */
  clone(): Random;
}

export interface MemoryStats {
  /** size of the WebAssembly memory */
  heapBytes: number;
  /** bytes in allocated blocks */
  usedBytes: number;
  /** blocks allocated in the heap and not yet freed (the test build of the module only, else NaN) */
  liveAllocations: number;
  /** embind value handles alive */
  emvalHandles: number;
  /** the shadow-stack pointer (constant between calls unless something leaks stack) */
  stackPointer: number;
}

// ---- configs: defaults and ranges, as the core declares them ----

/**
 * One field of a config, as the core declares it (core/include/attn/config.hpp).
 *
 * @core FieldSpec
 */
export interface FieldSpec {
  /** the option's name here */
  key: string;
  /** "integer" (32-bit), "seed" (0..2^53 - 1), "number", "boolean", "integers" (a list) or "choice" (one of `choices`) */
  kind: 'integer' | 'seed' | 'number' | 'boolean' | 'integers' | 'choice';
  /** the same field's flag on the command line, without "--" */
  flag: string;
  help: string;
  /** the allowed range (each element's, for a list); openMin / openMax exclude the ends */
  min: number;
  max: number;
  openMin: boolean;
  openMax: boolean;
  /** lists: at most this many elements */
  maxCount: number;
  /** choices: the allowed values */
  choices: string[];
  /** integers: the key of the same config's field this one must divide ("dModel" for cueTrain.heads), else "" */
  divides: string;
}

export interface ConfigSpec<C> {
  defaults: C;
  fields: FieldSpec[];
}

export interface Configs {
  attention: ConfigSpec<AttentionConfig>;
  scaleSweep: ConfigSpec<ScaleSweepConfig>;
  maskDemo: ConfigSpec<MaskDemoConfig>;
  headsDemo: ConfigSpec<HeadsDemoConfig>;
  pitfall: ConfigSpec<PitfallConfig>;
  cueTrain: ConfigSpec<CueConfig>;
  intervention: ConfigSpec<InterventionConfig>;
  attentionSteps: ConfigSpec<AttentionStepsConfig>;
}

/** @core Limits */
export interface Limits {
  /** the most values one matrix, mask, layer or batch of draws may hold */
  maxElements: number;
  /** the largest seed, 2^53 - 1 */
  maxSeed: number;
}

// ---- the lesson's experiments: plain data, ready to plot ----
// Computed by core/include/attn/experiments/*; the shapes and meanings are documented there.
// Flat matrices are row-major: element (i, j) of an (n, n) matrix is at i * n + j.

/** @core ScaleSweepConfig */
export interface ScaleSweepConfig {
  /** key dimensions to sweep */
  dks: number[];
  draws: number;
  tokens: number;
  seed: number;
}

/**
 * The three measures of one row of weights.
 *
 * @core RowMeasures
 */
export interface RowMeasures {
  maxWeight: number;
  /** in nats */
  entropy: number;
  /** ||diag(p) - p p^T||_F */
  jacobianNorm: number;
}

/**
 * One measure at one d_k: mean over every query row of every draw.
 *
 * @core SweepStat
 */
export interface SweepStat {
  mean: number;
  /** standard error of the mean over draws; NaN for a single draw */
  standardError: number;
  /** (draws): the mean over the rows of each draw */
  perDraw: Float64Array;
}

/** @core SweepMeasures */
export interface SweepMeasures {
  maxWeight: SweepStat;
  /** in nats */
  entropy: SweepStat;
  /** ||diag(p) - p p^T||_F, the softmax's Jacobian with respect to its scores */
  jacobianNorm: SweepStat;
}

/** @core ScaleSweepRow */
export interface ScaleSweepRow {
  dk: number;
  unscaled: SweepMeasures;
  scaled: SweepMeasures;
}

/** @core ScaleSweepResult */
export interface ScaleSweep {
  draws: number;
  tokens: number;
  seed: number;
  /** the same measures of uniform weights over `tokens` keys: 1/tokens, log(tokens), ... */
  uniform: RowMeasures;
  rows: ScaleSweepRow[];
}

/** @core MaskDemoConfig */
export interface MaskDemoConfig {
  positions: number;
  /** keys real..positions-1 are padding */
  real: number;
  dK: number;
  seed: number;
}

/** @core MaskDemoCase */
export interface MaskDemoCase {
  name: 'causal' | 'padding' | 'both';
  /** (n, n), 1 = may attend */
  allowed: Uint8Array;
  allowedFraction: number;
  /** (n, n): mask on the scores, then softmax */
  weights: Float64Array;
  /** (n) */
  rowSums: Float64Array;
  /** exactly 0 when masking works */
  maxBlockedWeight: number;
  blockedExactlyZero: boolean;
  /** (n, n): softmax first, blocked weights zeroed afterwards (the mistake) */
  mistakeWeights: Float64Array;
  /** (n), below 1 in every row that blocks a key */
  mistakeRowSums: Float64Array;
}

/** @core MaskDemo */
export interface MaskDemo {
  positions: number;
  real: number;
  dK: number;
  seed: number;
  maskedValue: number;
  /** (n, n): Q K^T / sqrt(d_k) before any mask */
  scores: Float64Array;
  cases: MaskDemoCase[];
}

/** @core HeadsDemoConfig */
export interface HeadsDemoConfig {
  dModel: number;
  /** dividing dModel */
  numHeads: number;
  tokens: number;
  seed: number;
}

/** @core HeadsDemoLayer */
export interface HeadsDemoLayer {
  numHeads: number;
  keyDim: number;
  parameterCount: number;
  /** one (tokens, tokens) matrix per head */
  weights: Float64Array[];
  /** per head, (tokens): the key each query weights most */
  argmax: Int32Array[];
  /** (heads) */
  meanMaxWeight: Float64Array;
  /** (heads), nats */
  meanEntropy: Float64Array;
}

/** @core HeadsDemo */
export interface HeadsDemo {
  dModel: number;
  tokens: number;
  seed: number;
  multi: HeadsDemoLayer;
  single: HeadsDemoLayer;
  /** (heads, heads): mean total-variation distance between two heads' weight rows */
  headDistance: Float64Array;
  queriesWithDifferingArgmax: number;
}

/** @core PitfallConfig */
export interface PitfallConfig {
  positions: number;
  /** below positions: rows real..positions-1 are fully masked */
  real: number;
  dK: number;
  seed: number;
}

/** @core PitfallCase */
export interface PitfallCase {
  precision: 'float16' | 'float32';
  constant: '-1e30' | '-1e9' | '-1e4' | 'lowest';
  requested: number;
  /** the constant rounded to the precision: -Infinity when it overflowed */
  stored: number;
  overflowed: boolean;
  /** (n, n), NaN where the arithmetic produced NaN */
  weights: Float64Array;
  /** (n) */
  rowSums: Float64Array;
  fullyMaskedRowsNan: boolean;
  allFinite: boolean;
  blockedExactlyZero: boolean;
}

/** @core HalfPrecisionPitfall */
export interface HalfPrecisionPitfall {
  positions: number;
  real: number;
  dK: number;
  seed: number;
  /** (n, n), 1 = may attend */
  allowed: Uint8Array;
  fullyMaskedRows: Int32Array;
  cases: PitfallCase[];
}

/**
 * Scaled dot-product attention on a small example (core/include/attn/experiments/attention_steps.hpp).
 *
 * @core AttentionStepsConfig
 */
export interface AttentionStepsConfig {
  /** rows of Q, K and V */
  tokens: number;
  dK: number;
  dV: number;
  /** mask the scores causally before the softmax */
  causal: boolean;
  /** multiply the scores by 1/sqrt(dK) */
  scale: boolean;
  /** of the drawn Q, K and V (standard normal, rounded to one decimal) */
  seed: number;
}

/** Every intermediate of one attention call; the weights and output are core.attention()'s, bit for bit. */
export interface AttentionSteps {
  /** the config the steps ran with (for given cells, tokens, dK and dV are their shapes) */
  config: AttentionStepsConfig;
  /** what the scores were multiplied by: 1/sqrt(dK) as a float32, or 1 */
  scaleFactor: number;
  /** the score a blocked pair gets */
  maskedValue: number;
  /** (n, n), 1 = the query (row) may attend the key (column) */
  allowed: MaskMat;
  /** (n, dK) */
  query: Mat;
  /** (n, dK) */
  key: Mat;
  /** (n, dV) */
  value: Mat;
  /** (n, n): Q K^T */
  scores: Mat;
  /** (n, n): scores * scaleFactor */
  scaled: Mat;
  /** (n, n): scaled, blocked pairs set to maskedValue (equal to scaled without a mask) */
  masked: Mat;
  /** (n, n): the softmax of each row of masked */
  weights: Mat;
  /** (n, dV): weights V */
  output: Mat;
}

export interface Core {
  /** Every experiment's and the trainer's defaults and fields, as the core declares them. */
  readonly configs: Configs;
  readonly limits: Limits;
  /** scores (rows, cols) -> weights (rows, cols), each row summing to 1. */
  softmax(scores: Mat): Mat;
  /** query (n_q, d_k), key (n_k, d_k), value (n_k, d_v) -> output (n_q, d_v), weights (n_q, n_k). */
  attention(query: Mat, key: Mat, value: Mat, options?: AttentionOptions): AttentionResult;
  /** (n, n): query i may attend keys 0..i. */
  causalMask(n: number): MaskMat;
  /** (nQ, nK): every query may attend keys 0..realLen-1. */
  paddingMask(nQ: number, nK: number, realLen: number): MaskMat;
  /** allowed only where both allow; a and b of the same shape. */
  combineMasks(a: MaskMat, b: MaskMat): MaskMat;
  /** fraction of pairs the mask allows. */
  allowedFraction(mask: MaskMat): number;
  /** One forward of a layer built for this call (and freed after it). */
  multiHeadAttention(
    layer: MultiHeadSpec,
    query: Mat,
    key: Mat,
    value: Mat,
    mask?: MaskMat,
    options?: Omit<AttentionOptions, 'mask'>,
  ): MultiHeadResult;
  /** A layer kept in the core for repeated forwards; call dispose() when done with it. */
  createMultiHead(layer: MultiHeadSpec): MultiHeadLayer;
  /** The seeded generator; seed is a whole number in [0, 2^53 - 1]. */
  random(seed: number): Random;
  /** A tiny transformer training on the cue task; call dispose() when done with it. */
  createCueModel(config?: Partial<CueConfig>): CueModel;
  /** What the core says is wrong with a training config (naming the field), or undefined. */
  cueConfigError(config?: Partial<CueConfig>): { key: string; message: string } | undefined;
  /** Figures for leak checks. */
  memoryStats(): MemoryStats;
  /** The scale sweep: max weight, entropy and softmax Jacobian with and without 1/sqrt(d_k). */
  scaleSweep(options?: Partial<ScaleSweepConfig>): ScaleSweep;
  /** The lesson's three masks on one seeded score matrix, and the mask-after-softmax mistake. */
  maskDemo(options?: Partial<MaskDemoConfig>): MaskDemo;
  /** 4 heads of 16 vs 1 head of 64: parameter counts and each head's weights. */
  headsDemo(options?: Partial<HeadsDemoConfig>): HeadsDemo;
  /** Masked-score constants in float16 and float32 on rows that are fully masked. */
  halfPrecisionPitfall(options?: Partial<PitfallConfig>): HalfPrecisionPitfall;
  /**
   * Attention step by step on a small example: a seeded draw, or the given cells (query and key
   * (n, dK), value (n, dV); n, dK and dV are then their shapes, within the config's ranges).
   */
  attentionSteps(options?: Partial<AttentionStepsConfig>, given?: { query: Mat; key: Mat; value: Mat }): AttentionSteps;
}

/** The attention core (loadAttentionCore): the whole core but the experiments and the trainer. */
export type AttentionCore = Pick<
  Core,
  | 'configs'
  | 'limits'
  | 'memoryStats'
  | 'softmax'
  | 'attention'
  | 'causalMask'
  | 'paddingMask'
  | 'combineMasks'
  | 'allowedFraction'
  | 'multiHeadAttention'
  | 'createMultiHead'
  | 'random'
>;

/**
 * The cue task's training run (the tiny transformer of core/nn/). Options left out take the
 * core's defaults (core.configs.cueTrain.defaults; their ranges are its fields).
 *
 * @core CueTrainConfig
 */
export interface CueConfig {
  blocks: number;
  heads: number;
  dModel: number;
  dFF: number;
  dropout: number;
  postLayerNorm: boolean;
  lastQueryOnly: boolean;
  batchSize: number;
  epochs: number;
  seed: number;
  length: number;
  symbols: number;
  trainSize: number;
  validationSize: number;
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/** @core EpochMetrics */
export interface CueEpoch {
  /** 1-based */
  epoch: number;
  trainLoss: number;
  trainAccuracy: number;
  validationLoss: number;
  validationAccuracy: number;
}

/**
 * One training batch.
 *
 * @core BatchReport
 */
export interface BatchReport {
  epoch: number;
  batch: number;
  loss: number;
  accuracy: number;
}

/** @core CueProgress */
export interface CueProgress {
  /** completed epochs */
  epoch: number;
  /** batches done in the current epoch */
  batch: number;
  batchesPerEpoch: number;
  /** configured epochs */
  epochs: number;
  finished: boolean;
  /** the latest batch; epoch 0 and NaN loss before the first */
  lastBatch: BatchReport;
  bestValidationAccuracy: number;
  /** 1-based; 0 before the first epoch */
  bestEpoch: number;
}

/**
 * Where the model looks, from its attention patterns alone (core/include/attn/cue/trainer.hpp).
 * Lists are typed arrays from the core, plain arrays in a recorded run read from JSON.
 *
 * @core CueAnalysis
 */
export interface CueAnalysis {
  /** offsets from the answer position: -2, -1 (the earlier cue), 0 (the answer), +1 */
  offsets: ArrayLike<number>;
  /** [head][offset]: the last block's attention from the query, validation mean */
  lastBlockByOffset: ArrayLike<number>[];
  /** [offset]: the same, averaged over heads */
  lastBlockMeanByOffset: ArrayLike<number>;
  /** [head]: the first block's weight from the cue onto the answer after it */
  firstBlockCueToAnswer: ArrayLike<number>;
  /** [head]: the first block's weight from the answer onto the cue before it */
  firstBlockAnswerToCue: ArrayLike<number>;
  /** [block][head]: mean weight of every position on its previous token */
  previousToken: ArrayLike<number>[];
  /** [block][head]: mean weight of every position on its next token */
  nextToken: ArrayLike<number>[];
  /** [block][head]: mean weight of every position on the body's CUE */
  firstCue: ArrayLike<number>[];
}

/** How a trained model solves the task, named from interventions (core/include/attn/cue/intervene.hpp). */
export type CueRouteLabel = 'cue-position' | 'answer-position' | 'cue-broadcast' | 'other' | 'none';

/**
 * One intervention behind a route and the validation accuracy it leaves.
 *
 * @core RouteTest
 */
export interface RouteTest {
  /** "none" (the clean model), "knock-out" (zero) or "pattern" */
  action: 'none' | 'knock-out' | 'pattern';
  /** the ideal pattern ("next", "previous", "first-cue"), else "" */
  pattern: '' | 'next' | 'previous' | 'first-cue';
  /** 1-based; 0 on the clean row */
  block: number;
  head: number;
  accuracy: number;
  loss: number;
}

/** @core CueRoute */
export interface CueRoute {
  label: CueRouteLabel;
  /** block 1's head whose knock-out lowers accuracy most (1-based) */
  testedHead: number;
  /**
   * block 1's head whose knock-out the label's test reads (1-based): the one with the most
   * CUE->answer weight (cue-position), the most answer->CUE weight (answer-position), else testedHead
   */
  knockedHead: number;
  cleanAccuracy: number;
  baselineAccuracy: number;
  /** block 1's tested head with the ideal next-token, previous-token and first-CUE patterns */
  nextAccuracy: number;
  previousAccuracy: number;
  firstCueAccuracy: number;
  /** with knockedHead knocked out */
  knockedAccuracy: number;
  /** the rule's thresholds: a run is solved from this clean accuracy on */
  solvedAt: number;
  /** an ideal pattern "keeps" the accuracy when it leaves at least this share of the clean one */
  keepsShare: number;
  /** a knock-out "breaks" it when it removes at least this share of (clean - baseline) */
  breaksShare: number;
  /** the clean row, a knock-out of every head of every block, block 1's tested head with each ideal pattern */
  tests: RouteTest[];
}

/**
 * One intervention on a trained cue model (core/include/attn/cue/intervene.hpp). Options left
 * out take the core's defaults (core.configs.intervention).
 *
 * @core InterventionConfig
 */
export interface InterventionConfig {
  action: 'none' | 'knock-out' | 'pattern' | 'patch';
  /** knock-out: the head's output becomes zero or its validation mean at each position */
  ablation: 'zero' | 'mean';
  /** pattern: the attention pattern that replaces the head's */
  pattern: 'previous' | 'next' | 'self' | 'uniform' | 'first-cue' | 'given';
  /** 1-based */
  block: number;
  /** 1-based; 0 = the whole block's output (patch only) */
  head: number;
  /** patch: the validation set's corruption moves the answer symbol by this much */
  corruptShift: number;
}

/** What an intervention takes besides its config; every list may be left out. */
export interface InterventionInputs {
  /** (T) a sequence to answer */
  tokens?: ArrayLike<number>;
  /** (T) patch: the sequence patched into (default: tokens with the answer symbol moved) */
  corrupted?: ArrayLike<number>;
  /** patch: the positions copied, 0-based (default: every position) */
  positions?: ArrayLike<number>;
  /** pattern "given": (T * T) row-major, rows summing to 1 */
  given?: ArrayLike<number>;
}

/** @core CueIntervention */
export interface CueIntervention {
  /** the validation set with the intervention (labels: the clean answers) and without it */
  accuracy: number;
  loss: number;
  cleanAccuracy: number;
  cleanLoss: number;
  /** patch: mean logit(clean answer) - logit(corrupted answer), and the restored fraction */
  cleanDifference: number;
  corruptedDifference: number;
  patchedDifference: number;
  restoredFraction: number;
  /** the given sequence (-1 and empty without one): with the intervention and without it; a patch's is the corrupted one */
  prediction: number;
  unchangedPrediction: number;
  probabilities: Float64Array;
  unchangedProbabilities: Float64Array;
  /** patch, for the given sequence */
  sequenceRestoredFraction: number;
}

/**
 * A run as every front door reports it (the CLI's `cue --json` writes the same keys).
 *
 * @core CueReport
 */
export interface CueReport {
  config: CueConfig;
  parameterCount: number;
  /** 1 / symbols */
  chanceAccuracy: number;
  /** "answer the most frequent body symbol", on the validation set */
  baselineAccuracy: number;
  bestValidationAccuracy: number;
  bestEpoch: number;
  /** one entry per completed epoch */
  history: CueEpoch[];
  analysis: CueAnalysis;
  /** how the trained model solves the task, from interventions */
  route: CueRoute;
}

/**
 * One sequence through a cue model (core/include/attn/cue/probe.hpp).
 *
 * @core CueProbe
 */
export interface CueProbe {
  /** the sequence as given: symbols 0..symbols-1, the cue = symbols */
  tokens: Int32Array;
  /** the body's cue and the right answer when the sequence is a task sequence, else -1 */
  cuePosition: number;
  expected: number;
  /** the most probable class */
  prediction: number;
  /** (classes) */
  probabilities: Float64Array;
  /** [block][head]: (T, T) row-major, row i = where position i attends; row T - 1 is the query */
  attention: Float64Array[][];
}

/** A model training in the core: call trainEpoch / trainBatches, read progress, dispose() when done. */
export interface CueModel {
  readonly parameterCount: number;
  /** "answer the most frequent body symbol", on the validation set */
  readonly baselineAccuracy: number;
  /** 1 / symbols */
  readonly chanceAccuracy: number;
  /** Runs the rest of the current epoch and its validation; throws when all epochs ran. */
  trainEpoch(): CueEpoch;
  /** Runs up to n batches (validating at each epoch end); returns how many ran (0 when finished). */
  trainBatches(n: number): number;
  progress(): CueProgress;
  /** one entry per completed epoch */
  history(): CueEpoch[];
  /** The attention analysis of the current weights on the validation set. */
  analysis(): CueAnalysis;
  /** The route of the current weights, from knock-outs and ideal patterns (about 4 + blocks * heads validation passes). */
  route(): CueRoute;
  /** One intervention, on the validation set and, given one, a sequence. */
  intervene(config?: Partial<InterventionConfig>, inputs?: InterventionInputs): CueIntervention;
  /** Everything at once, the analysis and the route included. */
  report(): CueReport;
  /** The model's answer for one sequence of token ids and the attention of every block and head. */
  probe(tokens: ArrayLike<number>): CueProbe;
  /** Every parameter in the model's order (what `attention-lab cue --save-weights` writes). */
  weights(): Float32Array;
  /** Sets every parameter from such a list (a recorded run's weights file, read as float32). */
  loadWeights(weights: Float32Array): void;
  dispose(): void;
}

export interface LoadOptions {
  /** The .wasm bytes, for environments that cannot fetch it (node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * The .wasm's address, where the module's own address does not lead to it: a Worker that a
   * course's bundler moved away from the .wasm gets it from the page.
   */
  wasmUrl?: string;
}
