// The web side's one door to the C++ core (compiled to WebAssembly from wasm/bind_*.cpp).
//
// Everything here takes and returns plain data: matrices are { rows, cols, data } with
// row-major Float32Array data, masks the same with Uint8Array data (1 = may attend). No
// embind handle ever leaves this file, and whatever it allocates in the WebAssembly heap it
// frees or reuses. It computes nothing itself: it checks what only JS can get wrong (types,
// lengths, whole numbers that fit the binding), copies inputs into the heap, calls the core
// and copies results out. Every range, every default and every message about them is the
// core's: `core.configs` holds each experiment's defaults and fields as the core declares them,
// and the core's errors arrive as Errors naming the arguments as JS writes them.
//
// Load it once per page or Worker: `const core = await loadCore()`. A page whose widgets need only
// attention (the soft lookup) may load the smaller attention core instead, `await
// loadAttentionCore()`, without the experiments and the trainer (two modules:
// wasm/CMakeLists.txt). Each module is imported only when loaded, so a bundle holds the glue of
// the ones it loads. Under node, where a module cannot fetch its .wasm, pass { wasmBinary } read
// from the file next to it.
import type {
  AttentionModule, CommonPart, LabModule, ModuleOptions, RawAttentionSteps, RawCueTrainer, RawMultiHeadAttention,
} from '../generated/attention_core.mjs';

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

type Values = ArrayLike<number> | readonly (readonly number[])[];

function isNested(values: Values): values is readonly (readonly number[])[] {
  return values.length > 0 && Array.isArray((values as ArrayLike<unknown>)[0]);
}

function flatten(name: string, rows: number, cols: number, values: Values): number[] | ArrayLike<number> {
  if (!isNested(values)) {
    if (values.length !== rows * cols)
      throw new Error(`${name} must have rows * cols = ${rows * cols} values, got ${values.length}`);
    return values;
  }
  if (values.length !== rows)
    throw new Error(`${name} must have ${rows} rows, got ${values.length}`);
  const flat: number[] = [];
  values.forEach((line, i) => {
    if (!Array.isArray(line) || line.length !== cols)
      throw new Error(`${name}[${i}] must be an array of ${cols} numbers, got ${describe(line)}`);
    flat.push(...line);
  });
  return flat;
}

function requireNumbers(name: string, values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++)
    if (typeof values[i] !== 'number')
      throw new Error(`${name} must hold numbers, got ${describe(values[i])} at index ${i}`);
}

/**
 * A matrix from flat row-major values, nested rows, or one number for every element
 * (0 when left out). Values are copied (and rounded to float32).
 */
export function mat(rows: number, cols: number, values: Values | number = 0): Mat {
  requireSize('rows', rows);
  requireSize('cols', cols);
  requireElements(`a (${rows}, ${cols}) matrix`, rows * cols, loadedLimit);
  if (typeof values === 'number') return { rows, cols, data: new Float32Array(rows * cols).fill(values) };
  if (values == null || typeof values !== 'object' || typeof values.length !== 'number')
    throw new Error(`values must be an array, a typed array or a number, got ${describe(values)}`);
  const flat = flatten('values', rows, cols, values);
  if (!(flat instanceof Float32Array || flat instanceof Float64Array)) requireNumbers('values', flat);
  return { rows, cols, data: Float32Array.from(flat) };
}

/** A mask from flat row-major values or nested rows; true / nonzero = may attend. */
export function maskMat(rows: number, cols: number, values: ArrayLike<number | boolean> | readonly (readonly (number | boolean)[])[]): MaskMat {
  requireSize('rows', rows);
  requireSize('cols', cols);
  requireElements(`a (${rows}, ${cols}) mask`, rows * cols, loadedLimit);
  const flat = flatten('values', rows, cols, values as Values);
  const data = new Uint8Array(rows * cols);
  for (let i = 0; i < data.length; i++) {
    const v = flat[i] as unknown;
    if (typeof v !== 'number' && typeof v !== 'boolean')
      throw new Error(`values must hold numbers or booleans, got ${describe(v)} at index ${i}`);
    data[i] = v ? 1 : 0;
  }
  return { rows, cols, data };
}

/** Row i of a matrix (a copy). */
export function row(m: Mat, i: number): Float32Array;
export function row(m: MaskMat, i: number): Uint8Array;
export function row(m: Mat | MaskMat, i: number): Float32Array | Uint8Array {
  if (!Number.isInteger(i) || i < 0 || i >= m.rows)
    throw new Error(`i must be a whole number between 0 and ${m.rows - 1}, got ${describe(i)}`);
  return m.data.slice(i * m.cols, (i + 1) * m.cols);
}

// ---- the API ----

export interface AttentionOptions {
  /** Divide the scores by sqrt(d_k) (default true). Off only to show why it is there. */
  scale?: boolean;
  /** Score given to blocked pairs before the softmax (default -1e9; -Infinity allowed). */
  maskedValue?: number;
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

/** One field of a config, as the core declares it (core/include/attn/config.hpp). */
export interface FieldSpec {
  /** the option's name here */
  key: string;
  /** "integer" (32-bit), "seed" (0..2^53 - 1), "number", "boolean" or "integers" (a list) */
  kind: 'integer' | 'seed' | 'number' | 'boolean' | 'integers';
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
}

export interface ConfigSpec<C> {
  defaults: C;
  fields: FieldSpec[];
}

export interface Configs {
  scaleSweep: ConfigSpec<ScaleSweepConfig>;
  maskDemo: ConfigSpec<MaskDemoConfig>;
  headsDemo: ConfigSpec<HeadsDemoConfig>;
  pitfall: ConfigSpec<PitfallConfig>;
  cueTrain: ConfigSpec<CueConfig>;
  attentionSteps: ConfigSpec<AttentionStepsConfig>;
}

export interface Limits {
  /** the most values one matrix, mask, layer or batch of draws may hold */
  maxElements: number;
  /** the largest seed, 2^53 - 1 */
  maxSeed: number;
}

// ---- the lesson's experiments: plain data, ready to plot ----
// Computed by core/include/attn/experiments/*; the shapes and meanings are documented there.
// Flat matrices are row-major: element (i, j) of an (n, n) matrix is at i * n + j.

export interface ScaleSweepConfig {
  /** key dimensions to sweep */
  dks: number[];
  draws: number;
  tokens: number;
  seed: number;
}

/** One measure at one d_k: mean over every query row of every draw. */
export interface SweepStat {
  mean: number;
  /** standard error of the mean over draws; NaN for a single draw */
  standardError: number;
  /** (draws): the mean over the rows of each draw */
  perDraw: Float64Array;
}

export interface SweepMeasures {
  maxWeight: SweepStat;
  /** in nats */
  entropy: SweepStat;
  /** ||diag(p) - p p^T||_F, the softmax's Jacobian with respect to its scores */
  jacobianNorm: SweepStat;
}

export interface ScaleSweepRow {
  dk: number;
  unscaled: SweepMeasures;
  scaled: SweepMeasures;
}

export interface ScaleSweep {
  draws: number;
  tokens: number;
  seed: number;
  /** the same measures of uniform weights over `tokens` keys: 1/tokens, log(tokens), ... */
  uniform: { maxWeight: number; entropy: number; jacobianNorm: number };
  rows: ScaleSweepRow[];
}

export interface MaskDemoConfig {
  positions: number;
  /** keys real..positions-1 are padding */
  real: number;
  dK: number;
  seed: number;
}

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

export interface HeadsDemoConfig {
  dModel: number;
  /** dividing dModel */
  numHeads: number;
  tokens: number;
  seed: number;
}

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

export interface PitfallConfig {
  positions: number;
  /** below positions: rows real..positions-1 are fully masked */
  real: number;
  dK: number;
  seed: number;
}

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

/** Scaled dot-product attention on a small example (core/include/attn/experiments/attention_steps.hpp). */
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
  multiHeadAttention(layer: MultiHeadSpec, query: Mat, key: Mat, value: Mat, mask?: MaskMat,
                     options?: Omit<AttentionOptions, 'mask'>): MultiHeadResult;
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
export type AttentionCore = Pick<Core, 'configs' | 'limits' | 'memoryStats' | 'softmax' | 'attention' | 'causalMask' |
  'paddingMask' | 'combineMasks' | 'allowedFraction' | 'multiHeadAttention' | 'createMultiHead' | 'random'>;

/**
 * The cue task's training run (the tiny transformer of core/nn/). Options left out take the
 * core's defaults (core.configs.cueTrain.defaults; their ranges are its fields).
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

export interface CueEpoch {
  /** 1-based */
  epoch: number;
  trainLoss: number;
  trainAccuracy: number;
  validationLoss: number;
  validationAccuracy: number;
}

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
  lastBatch: { epoch: number; batch: number; loss: number; accuracy: number };
  bestValidationAccuracy: number;
  /** 1-based; 0 before the first epoch */
  bestEpoch: number;
}

/**
 * Where the model looks (core/include/attn/nn/cue_trainer.hpp explains both circuits). Lists are
 * typed arrays from the core, plain arrays in a recorded run read from JSON.
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
  /** "cue": the last block reads the earlier cue; "answer": it reads the answer; or "none" */
  circuit: 'cue' | 'answer' | 'none';
  /** the head that carries the circuit (0-based; -1 for none) and its weight there */
  circuitHead: number;
  circuitShare: number;
}

/** A run as every front door reports it (the CLI's `cue --json` writes the same keys). */
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
}

/** One sequence through a cue model (core/include/attn/nn/cue_probe.hpp). */
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
  /** Everything at once, the analysis included. */
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

/** The whole core: attention, masks, the generator, multi-head layers, the experiments, the trainer. */
export async function loadCore(options: LoadOptions = {}): Promise<Core> {
  const { default: create } = await import('../generated/attention_lab.mjs');
  return withKnownLimit(new CoreImpl(await create(moduleOptions(options))));
}

/** The attention core, a smaller module: the whole core but the experiments and the trainer. */
export async function loadAttentionCore(options: LoadOptions = {}): Promise<AttentionCore> {
  const { default: create } = await import('../generated/attention_core.mjs');
  return withKnownLimit(new AttentionCoreImpl(await create(moduleOptions(options))));
}

function moduleOptions({ wasmBinary, wasmUrl }: LoadOptions): ModuleOptions {
  return { ...(wasmBinary ? { wasmBinary } : {}), ...(wasmUrl ? { locateFile: () => wasmUrl } : {}) };
}

// mat() and maskMat() check against the element limit once a core has loaded.
function withKnownLimit<C extends CommonCore>(core: C): C {
  loadedLimit = core.limits.maxElements;
  return core;
}

// ---- checks of what only JS can get wrong ----

const MAX_SIZE = 2147483647;

// The core's element limit, for mat() and maskMat(), which need no core: known once a core
// has loaded (every build of the core has the same), and no check before that.
let loadedLimit = Infinity;

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

// `field` is appended to the name in the message ("query" + ".rows"); the message is only
// built on failure, since these checks run on every call.
function requireSize(name: string, value: unknown, field = ''): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SIZE)
    throw new Error(`${name}${field} must be a whole number between 0 and ${MAX_SIZE}, got ${describe(value)}`);
}

// The most values one matrix or mask may hold, given or returned (the core's limit): bigger
// requests are refused here, before anything is allocated in the WebAssembly heap (which
// never shrinks again). `what` names the matrix; a function, so that calls many times a second
// build no string unless they fail.
function requireElements(what: string | (() => string), count: number, limit: number): void {
  if (count > limit)
    throw new Error(`${typeof what === 'string' ? what : what()} would hold ${count} values, more than the ${limit} allowed`);
}

function requireMat(name: string, m: unknown, limit: number): asserts m is Mat {
  if (m == null || typeof m !== 'object') throw new Error(`${name} must be a matrix { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as Mat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(() => `${name} (${rows}, ${cols})`, rows * cols, limit);
  if (!(data instanceof Float32Array)) throw new Error(`${name}.data must be a Float32Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(`${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`);
}

function requireMask(name: string, m: unknown, limit: number): asserts m is MaskMat {
  if (m == null || typeof m !== 'object') throw new Error(`${name} must be a mask { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as MaskMat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(() => `${name} (${rows}, ${cols})`, rows * cols, limit);
  if (!(data instanceof Uint8Array)) throw new Error(`${name}.data must be a Uint8Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(`${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`);
  for (let i = 0; i < data.length; i++)
    if (data[i] > 1) throw new Error(`${name}.data must hold 0 or 1, got ${data[i]} at index ${i}`);
}

// A bias may be a (1, n) matrix or a plain Float32Array of n values.
function biasMat(name: string, bias: unknown, limit: number): Mat {
  if (bias instanceof Float32Array) return { rows: 1, cols: bias.length, data: bias };
  requireMat(name, bias, limit);
  return bias;
}

function requireOptions(options: unknown): { scale: boolean; maskedValue: number } {
  if (options == null) return { scale: true, maskedValue: -1e9 };
  if (typeof options !== 'object') throw new Error(`options must be an object, got ${describe(options)}`);
  const { scale = true, maskedValue = -1e9 } = options as AttentionOptions;
  if (typeof scale !== 'boolean') throw new Error(`options.scale must be a boolean, got ${describe(scale)}`);
  if (typeof maskedValue !== 'number') throw new Error(`options.maskedValue must be a number, got ${describe(maskedValue)}`);
  if (Number.isNaN(maskedValue)) throw new Error('options.maskedValue must not be NaN');
  return { scale, maskedValue };
}

// A seed is a JS safe integer (0..2^53 - 1, Number.MAX_SAFE_INTEGER): what crosses exactly.
function requireSeed(seed: unknown, name = 'seed'): asserts seed is number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`${name} must be a whole number between 0 and 2^53 - 1, got ${describe(seed)}`);
}

// ---- moving data through the heap ----

// Inputs of one call laid out in the core's scratch area, 8-byte aligned.
class Layout {
  private bytes = 0;
  add(byteLength: number): number {
    const at = this.bytes;
    this.bytes += (byteLength + 7) & ~7;
    return at;
  }
  get size(): number {
    return this.bytes;
  }
}

/** What both modules have: configs, limits, the heap and its figures. */
class CommonCore {
  readonly configs: Configs;
  readonly limits: Limits;
  /** limits.maxElements, read on every call */
  protected readonly max: number;

  constructor(protected readonly m: CommonPart) {
    this.configs = {
      scaleSweep: m.scaleSweepConfig(),
      maskDemo: m.maskDemoConfig(),
      headsDemo: m.headsDemoConfig(),
      pitfall: m.pitfallConfig(),
      cueTrain: m.cueTrainConfig(),
      attentionSteps: m.attentionStepsConfig(),
    };
    // Lists arrive as typed arrays; a default list is easier to use as a plain array.
    this.configs.scaleSweep.defaults.dks = Array.from(this.configs.scaleSweep.defaults.dks);
    for (const spec of Object.values(this.configs)) Object.freeze(spec.defaults);
    this.limits = m.limits();
    this.max = this.limits.maxElements;
  }

  // Writes each input into scratch and returns their offsets (the heap may have grown). An
  // array passed twice (self-attention: query = key = value) is copied once.
  protected put(inputs: (Float32Array | Int32Array | Uint8Array | null)[]): number[] {
    const layout = new Layout();
    const at = inputs.map((x, i) => {
      if (!x) return -1;
      const first = inputs.indexOf(x);
      return first < i ? -2 - first : layout.add(x.byteLength);
    });
    const base = this.m._attn_scratch(Math.max(8, layout.size)); // never 0: offset 0 means "no mask"
    const offsets = inputs.map((x, i) => (x && at[i] >= 0 ? base + at[i] : 0));
    inputs.forEach((x, i) => {
      if (!x) return;
      if (at[i] < -1) {
        offsets[i] = offsets[-2 - at[i]];
        return;
      }
      if (x instanceof Float32Array) this.m.HEAPF32.set(x, offsets[i] >> 2);
      else if (x instanceof Int32Array) this.m.HEAP32.set(x, offsets[i] >> 2);
      else this.m.HEAPU8.set(x, offsets[i]);
    });
    return offsets;
  }

  // Offset of result `i` in the table a compute function returned.
  protected result(table: number, i: number): number {
    return this.m.HEAPU32[(table >> 2) + i];
  }

  // Copies results 0..shapes.length-1 of `table` out of the heap. Fresh typed arrays are the
  // dearest part of a small call, so (measured in node) results too large for V8's in-heap
  // typed arrays (64 bytes) share one new buffer, while tiny ones are sliced one by one.
  protected readMats(table: number, shapes: [rows: number, cols: number][]): Mat[] {
    const total = shapes.reduce((sum, [r, c]) => sum + r * c, 0);
    const heap = this.m.HEAPF32;
    if (total <= 16) return shapes.map(([rows, cols], i) => this.readMat(this.result(table, i), rows, cols));
    const all = this.carve(total);
    let at = 0;
    return shapes.map(([rows, cols], i) => {
      const start = this.result(table, i) >> 2, n = rows * cols;
      const data = all.subarray(at, at + n);
      data.set(heap.subarray(start, start + n));
      at += n;
      return { rows, cols, data };
    });
  }

  // n floats for results, cut from a shared 64 KiB slab (a new slab when the current one is
  // used up; results handed out earlier keep theirs): one allocation per many small calls.
  private slab = new Float32Array(0);
  private slabAt = 0;
  private carve(n: number): Float32Array {
    if (n > 4096) return new Float32Array(n);
    if (this.slabAt + n > this.slab.length) {
      this.slab = new Float32Array(16384);
      this.slabAt = 0;
    }
    const v = this.slab.subarray(this.slabAt, this.slabAt + n);
    this.slabAt += n;
    return v;
  }

  protected readMat(offset: number, rows: number, cols: number): Mat {
    const start = offset >> 2;
    return { rows, cols, data: this.m.HEAPF32.slice(start, start + rows * cols) };
  }

  protected readMask(offset: number, rows: number, cols: number): MaskMat {
    return { rows, cols, data: this.m.HEAPU8.slice(offset, offset + rows * cols) };
  }

  memoryStats(): MemoryStats {
    return {
      ...this.m.memoryStats(),
      liveAllocations: this.m.liveAllocations?.() ?? NaN,
      emvalHandles: this.m.count_emval_handles(),
      stackPointer: this.m.stackSave(),
    };
  }

  protected checked<T>(result: T): T {
    const error = this.m.takeError();
    if (error) throw new Error(error);
    return result;
  }
}

/** The attention core (loadAttentionCore): attention, softmax, masks, the generator, multi-head layers. */
class AttentionCoreImpl extends CommonCore implements AttentionCore {
  protected declare readonly m: AttentionModule;

  private readonly registry = new FinalizationRegistry<RawMultiHeadAttention>((handle) => {
    if (!handle.isDeleted()) handle.delete();
  });

  constructor(m: AttentionModule) {
    super(m);
  }

  softmax(scores: Mat): Mat {
    requireMat('scores', scores, this.max);
    const [s] = this.put([scores.data]);
    const table = this.m._attn_softmax(s, scores.rows, scores.cols);
    return this.readMat(this.result(table, 0), scores.rows, scores.cols);
  }

  attention(query: Mat, key: Mat, value: Mat, options?: AttentionOptions): AttentionResult {
    requireMat('query', query, this.max);
    requireMat('key', key, this.max);
    requireMat('value', value, this.max);
    const { scale, maskedValue } = requireOptions(options);
    const mask = options?.mask;
    if (mask !== undefined) requireMask('mask', mask, this.max);
    requireElements(() => `the weights (${query.rows}, ${key.rows})`, query.rows * key.rows, this.max);
    requireElements(() => `the output (${query.rows}, ${value.cols})`, query.rows * value.cols, this.max);
    const [q, k, v, mk] = this.put([query.data, key.data, value.data, mask ? mask.data : null]);
    const table = this.m._attn_attention(q, query.rows, query.cols, k, key.rows, key.cols, v, value.rows, value.cols,
                                         mk, mask ? mask.rows : 0, mask ? mask.cols : 0, scale ? 1 : 0, maskedValue);
    const [output, weights] = this.readMats(table, [[query.rows, value.cols], [query.rows, key.rows]]);
    return { output, weights };
  }

  causalMask(n: number): MaskMat {
    requireSize('n', n);
    requireElements(`a (${n}, ${n}) mask`, n * n, this.max);
    return this.readMask(this.result(this.m.causalMask(n), 0), n, n);
  }

  paddingMask(nQ: number, nK: number, realLen: number): MaskMat {
    requireSize('nQ', nQ);
    requireSize('nK', nK);
    requireSize('realLen', realLen);
    requireElements(`a (${nQ}, ${nK}) mask`, nQ * nK, this.max);
    return this.readMask(this.result(this.m.paddingMask(nQ, nK, realLen), 0), nQ, nK);
  }

  combineMasks(a: MaskMat, b: MaskMat): MaskMat {
    requireMask('a', a, this.max);
    requireMask('b', b, this.max);
    const [pa, pb] = this.put([a.data, b.data]);
    const table = this.m.combineMasks(pa, a.rows, a.cols, pb, b.rows, b.cols);
    return this.readMask(this.result(table, 0), a.rows, a.cols);
  }

  allowedFraction(mask: MaskMat): number {
    requireMask('mask', mask, this.max);
    const [p] = this.put([mask.data]);
    return this.m.allowedFraction(p, mask.rows, mask.cols);
  }

  multiHeadAttention(layer: MultiHeadSpec, query: Mat, key: Mat, value: Mat, mask?: MaskMat,
                     options?: Omit<AttentionOptions, 'mask'>): MultiHeadResult {
    const built = this.createMultiHead(layer);
    try {
      return built.forward(query, key, value, mask, options);
    } finally {
      built.dispose();
    }
  }

  createMultiHead(spec: MultiHeadSpec): MultiHeadLayer {
    if (spec == null || typeof spec !== 'object') throw new Error(`layer must be an object { dModel, numHeads, keyDim?, weights }, got ${describe(spec)}`);
    requireSize('dModel', spec.dModel);
    requireSize('numHeads', spec.numHeads);
    if (spec.keyDim !== undefined) requireSize('keyDim', spec.keyDim);
    if (spec.numHeads > 0) {
      const keyDim = spec.keyDim || Math.floor(spec.dModel / spec.numHeads);
      requireElements(`a (${spec.dModel}, ${spec.numHeads * keyDim}) projection`, spec.dModel * spec.numHeads * keyDim, this.max);
    }
    const weights = spec.weights as Partial<{ pytorch: PytorchWeights; seed: number; query: ProjectionWeights }>;
    if (weights == null || typeof weights !== 'object' || !('pytorch' in weights || 'seed' in weights || 'query' in weights))
      throw new Error(`weights must be { pytorch }, { query, key, value, output } or { seed }, got ${describe(weights)}`);
    // Check everything JS-side before the core allocates anything.
    const inputs = this.weightInputs(spec.weights);
    const handle = this.m.createMultiHeadAttention(spec.dModel, spec.numHeads, spec.keyDim ?? 0);
    try {
      this.setWeights(handle, spec.weights, inputs);
    } catch (error) {
      handle.delete();
      throw error;
    }
    return this.wrapLayer(handle);
  }

  private weightInputs(weights: MultiHeadWeights): Mat[] {
    if ('seed' in weights) {
      requireSeed(weights.seed);
      return [];
    }
    if ('pytorch' in weights) {
      const p = weights.pytorch;
      if (p == null || typeof p !== 'object') throw new Error(`weights.pytorch must be an object, got ${describe(p)}`);
      requireMat('inProjWeight', p.inProjWeight, this.max);
      requireMat('outProjWeight', p.outProjWeight, this.max);
      return [p.inProjWeight, biasMat('inProjBias', p.inProjBias, this.max), p.outProjWeight, biasMat('outProjBias', p.outProjBias, this.max)];
    }
    const out: Mat[] = [];
    for (const name of ['query', 'key', 'value', 'output'] as const) {
      const projection = weights[name];
      if (projection == null || typeof projection !== 'object')
        throw new Error(`weights.${name} must be { weight, bias }, got ${describe(projection)}`);
      requireMat(`${name} weight`, projection.weight, this.max);
      out.push(projection.weight, biasMat(`${name} bias`, projection.bias, this.max));
    }
    return out;
  }

  private setWeights(handle: RawMultiHeadAttention, weights: MultiHeadWeights, inputs: Mat[]): void {
    if ('seed' in weights) {
      handle.initSeeded(weights.seed);
      return;
    }
    const at = this.put(inputs.map((x) => x.data));
    if ('pytorch' in weights) {
      const [w, b, ow, ob] = inputs;
      handle.setFromPytorch(at[0], w.rows, w.cols, at[1], b.cols, at[2], ow.rows, ow.cols, at[3], ob.cols);
      return;
    }
    for (let p = 0; p < 4; p++) {
      const [w, b] = [inputs[2 * p], inputs[2 * p + 1]];
      if (b.rows !== 1) throw new Error(`${['query', 'key', 'value', 'output'][p]} bias must have 1 row, got shape (${b.rows}, ${b.cols})`);
      handle.setProjection(p, at[2 * p], w.rows, w.cols, at[2 * p + 1], b.cols);
    }
  }

  private wrapLayer(handle: RawMultiHeadAttention): MultiHeadLayer {
    const core = this;
    const token = {};
    const dModel = handle.dModel(), numHeads = handle.numHeads(), keyDim = handle.keyDim();
    const parameterCount = handle.parameterCount();
    const live = () => {
      if (handle.isDeleted()) throw new Error('this multi-head layer has been disposed');
      return handle;
    };
    const layer: MultiHeadLayer = {
      dModel, numHeads, keyDim, parameterCount,
      forward(query, key, value, mask, options) {
        const h = live();
        requireMat('query', query, core.max);
        requireMat('key', key, core.max);
        requireMat('value', value, core.max);
        if (mask !== undefined) requireMask('mask', mask, core.max);
        requireElements(() => `the weights (${numHeads} heads, ${query.rows}, ${key.rows})`, numHeads * query.rows * key.rows, core.max);
        const { scale, maskedValue } = requireOptions(options);
        const [q, k, v, mk] = core.put([query.data, key.data, value.data, mask ? mask.data : null]);
        const table = h.forward(q, query.rows, query.cols, k, key.rows, key.cols, v, value.rows, value.cols,
                                mk, mask ? mask.rows : 0, mask ? mask.cols : 0, scale, maskedValue);
        const shapes: [number, number][] = [[query.rows, dModel]];
        for (let i = 0; i < numHeads; i++) shapes.push([query.rows, key.rows]);
        const [output, ...weights] = core.readMats(table, shapes);
        return { output, weights, parameterCount };
      },
      parameters() {
        const table = live().parameters();
        const hk = numHeads * keyDim;
        const read = (i: number, rows: number, cols: number) => core.readMat(core.result(table, i), rows, cols);
        return {
          query: { weight: read(0, dModel, hk), bias: read(1, 1, hk) },
          key: { weight: read(2, dModel, hk), bias: read(3, 1, hk) },
          value: { weight: read(4, dModel, hk), bias: read(5, 1, hk) },
          output: { weight: read(6, hk, dModel), bias: read(7, 1, dModel) },
        };
      },
      dispose() {
        if (handle.isDeleted()) return;
        core.registry.unregister(token);
        handle.delete();
      },
    };
    // A safety net for a forgotten dispose(); not a substitute for it.
    this.registry.register(layer, handle, token);
    return layer;
  }

  random(seed: number): Random {
    requireSeed(seed);
    const bytes = this.m.randomStateBytes();
    const state = new Uint8Array(bytes);
    const [at] = this.put([state]);
    this.m.randomSeed(at, seed);
    state.set(this.m.HEAPU8.subarray(at, at + bytes));
    return this.wrapRandom(state);
  }

  private wrapRandom(state: Uint8Array): Random {
    const core = this;
    // Lends the state to the core for one batch of draws and takes the advanced state back.
    const draw = <T>(run: (at: number) => number, read: (table: number) => T): T => {
      const [at] = core.put([state]);
      const table = run(at);
      const result = read(table);
      state.set(core.m.HEAPU8.subarray(at, at + state.length));
      return result;
    };
    const doubles = (table: number, n: number) => {
      const start = core.result(table, 0) >> 3;
      return core.m.HEAPF64.slice(start, start + n);
    };
    return {
      uniform(n) {
        requireSize('n', n);
        return draw((at) => core.m.randomUniform(at, n), (t) => doubles(t, n));
      },
      normal(n) {
        requireSize('n', n);
        return draw((at) => core.m.randomNormal(at, n), (t) => doubles(t, n));
      },
      normalMatrix(rows, cols) {
        requireSize('rows', rows);
        requireSize('cols', cols);
        return draw((at) => core.m.randomNormalMatrix(at, rows, cols), (t) => core.readMat(core.result(t, 0), rows, cols));
      },
      uniformMatrix(rows, cols, lo, hi) {
        requireSize('rows', rows);
        requireSize('cols', cols);
        if (typeof lo !== 'number') throw new Error(`lo must be a number, got ${describe(lo)}`);
        if (typeof hi !== 'number') throw new Error(`hi must be a number, got ${describe(hi)}`);
        return draw((at) => core.m.randomUniformMatrix(at, rows, cols, lo, hi), (t) => core.readMat(core.result(t, 0), rows, cols));
      },
      clone() {
        return core.wrapRandom(state.slice());
      },
    };
  }
}

/** The whole core (loadCore): the attention core, the lesson's experiments and the cue trainer. */
class CoreImpl extends AttentionCoreImpl implements Core {
  protected declare readonly m: LabModule;

  constructor(m: LabModule) {
    super(m);
  }

  private readonly cueRegistry = new FinalizationRegistry<RawCueTrainer>((handle) => {
    if (!handle.isDeleted()) handle.delete();
  });

  cueConfigError(options: Partial<CueConfig> = {}): { key: string; message: string } | undefined {
    const check = this.m.cueTrainConfigError(configFrom(this.configs.cueTrain, 'config', options));
    return check.message ? check : undefined;
  }

  createCueModel(options: Partial<CueConfig> = {}): CueModel {
    const handle = this.m.createCueTrainer(configFrom(this.configs.cueTrain, 'config', options));
    if (!handle) throw new Error(this.m.takeError());
    return this.wrapCue(handle);
  }

  private wrapCue(handle: RawCueTrainer): CueModel {
    const core = this;
    const token = {};
    const live = () => {
      if (handle.isDeleted()) throw new Error('this cue model has been disposed');
      return handle;
    };
    const model: CueModel = {
      parameterCount: handle.parameterCount(),
      baselineAccuracy: handle.baselineAccuracy(),
      chanceAccuracy: handle.chanceAccuracy(),
      trainEpoch: () => live().trainEpoch(),
      trainBatches(n) {
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SIZE)
          throw new Error(`n must be a whole number between 1 and ${MAX_SIZE}, got ${describe(n)}`);
        return live().trainBatches(n);
      },
      progress: () => live().progress(),
      history: () => live().history(),
      analysis: () => live().analyse(),
      report: () => live().report(),
      probe(tokens) {
        const h = live();
        if (tokens == null || typeof tokens !== 'object' || typeof tokens.length !== 'number')
          throw new Error(`tokens must be an array of token ids, got ${describe(tokens)}`);
        requireElements('tokens', tokens.length, core.max);
        const ids = new Int32Array(tokens.length);
        for (let i = 0; i < ids.length; i++) {
          requireWhole32(`tokens[${i}]`, tokens[i]);
          ids[i] = tokens[i];
        }
        const [at] = core.put([ids]);
        return h.probe(at, ids.length);
      },
      weights: () => live().weights(),
      loadWeights(weights) {
        const h = live();
        if (!(weights instanceof Float32Array)) throw new Error(`weights must be a Float32Array, got ${describe(weights)}`);
        requireElements('weights', weights.length, core.max);
        const [at] = core.put([weights]);
        h.loadWeights(at, weights.length);
      },
      dispose() {
        if (handle.isDeleted()) return;
        core.cueRegistry.unregister(token);
        handle.delete();
      },
    };
    // A safety net for a forgotten dispose(); not a substitute for it.
    this.cueRegistry.register(model, handle, token);
    return model;
  }

  // ---- the lesson's experiments: objects in, objects out ----
  // These calls never throw inside the module (an object argument is freed only when the call
  // returns): a failure returns an empty result and leaves its message for takeError().

  scaleSweep(options: Partial<ScaleSweepConfig> = {}): ScaleSweep {
    return this.checked(this.m.scaleSweep(configFrom(this.configs.scaleSweep, 'options', options)));
  }

  maskDemo(options: Partial<MaskDemoConfig> = {}): MaskDemo {
    return this.checked(this.m.maskDemo(configFrom(this.configs.maskDemo, 'options', options)));
  }

  headsDemo(options: Partial<HeadsDemoConfig> = {}): HeadsDemo {
    return this.checked(this.m.headsDemo(configFrom(this.configs.headsDemo, 'options', options)));
  }

  halfPrecisionPitfall(options: Partial<PitfallConfig> = {}): HalfPrecisionPitfall {
    return this.checked(this.m.halfPrecisionPitfall(configFrom(this.configs.pitfall, 'options', options)));
  }

  attentionSteps(options: Partial<AttentionStepsConfig> = {}, given?: { query: Mat; key: Mat; value: Mat }): AttentionSteps {
    if (given === undefined) return stepsOf(this.checked(this.m.attentionSteps(configFrom(this.configs.attentionSteps, 'options', options))));
    if (given === null || typeof given !== 'object') throw new Error(`given must be { query, key, value }, got ${describe(given)}`);
    const { query, key, value } = given;
    requireMat('query', query, this.max);
    requireMat('key', key, this.max);
    requireMat('value', value, this.max);
    // The cells' shapes are the example's sizes; options may repeat them but not contradict them.
    const config = configFrom(this.configs.attentionSteps, 'options', { ...options, tokens: query.rows, dK: query.cols, dV: value.cols });
    for (const [name, expected] of [['tokens', query.rows], ['dK', query.cols], ['dV', value.cols]] as const) {
      const asked = options[name];
      if (asked !== undefined && asked !== expected) throw new Error(`options.${name} is ${asked}, but the given cells make it ${expected}`);
    }
    if (key.rows !== query.rows || key.cols !== query.cols)
      throw new Error(`key must have the shape of query (${query.rows}, ${query.cols}), got (${key.rows}, ${key.cols})`);
    if (value.rows !== query.rows) throw new Error(`value must have ${query.rows} rows (tokens), got ${value.rows}`);
    const [q, k, v] = this.put([query.data, key.data, value.data]);
    return stepsOf(this.checked(this.m.attentionStepsGiven(config, q, k, v)));
  }
}

/** The module's flat step matrices as shaped ones. */
function stepsOf(raw: RawAttentionSteps): AttentionSteps {
  const { tokens: n, dK, dV } = raw.config;
  const square = (data: Float32Array): Mat => ({ rows: n, cols: n, data });
  return {
    config: raw.config, scaleFactor: raw.scaleFactor, maskedValue: raw.maskedValue,
    allowed: { rows: n, cols: n, data: raw.allowed },
    query: { rows: n, cols: dK, data: raw.query }, key: { rows: n, cols: dK, data: raw.key },
    value: { rows: n, cols: dV, data: raw.value },
    scores: square(raw.scores), scaled: square(raw.scaled), masked: square(raw.masked), weights: square(raw.weights),
    output: { rows: n, cols: dV, data: raw.output },
  };
}

/**
 * The complete config the module takes: the core's defaults, overridden by `options`. Checks
 * only what the binding cannot carry faithfully: unknown keys, JS types, whole numbers that fit
 * 32 bits (or a seed's 53), and a list's length before it is copied. Ranges are the core's.
 */
function configFrom<C extends object>(spec: ConfigSpec<C>, name: string, options: Partial<C>): C {
  if (options == null || typeof options !== 'object' || Array.isArray(options))
    throw new Error(`${name} must be an object, got ${describe(options)}`);
  const byKey = new Map(spec.fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(options)) {
    const field = byKey.get(key);
    if (!field) throw new Error(`unknown option "${key.slice(0, 40)}"; known: ${[...byKey.keys()].join(', ')}`);
    if (value !== undefined) requireKind(field, value);
  }
  return withDefaults(spec.defaults, options);
}

/** `defaults` with every option that is not undefined put in its place. */
export function withDefaults<C extends object>(defaults: C, options: Partial<C>): C {
  const config = { ...defaults };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  return config;
}

function requireKind(field: FieldSpec, value: unknown): void {
  const { key } = field;
  switch (field.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') throw new Error(`${key} must be true or false, got ${describe(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number') throw new Error(`${key} must be a number, got ${describe(value)}`);
      return;
    case 'seed':
      requireSeed(value, key);
      return;
    case 'integer':
      requireWhole32(key, value);
      return;
    case 'integers':
      if (!Array.isArray(value)) throw new Error(`${key} must be an array of whole numbers, got ${describe(value)}`);
      if (value.length > field.maxCount) throw new Error(`${key} must hold 1 to ${field.maxCount} values, got ${value.length}`);
      value.forEach((v, i) => requireWhole32(`${key}[${i}]`, v));
  }
}

// Beyond 32 bits the binding would wrap the number and the core would name another one.
function requireWhole32(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new Error(`${name} must be a whole number, got ${describe(value)}`);
  if (Math.abs(value) > MAX_SIZE) throw new Error(`${name} must be a whole number of at most 32 bits, got ${describe(value)}`);
}
