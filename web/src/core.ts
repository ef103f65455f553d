// The web side's one door to the C++ core (compiled to WebAssembly from wasm/bindings.cpp).
//
// Everything here takes and returns plain data: matrices are { rows, cols, data } with
// row-major Float32Array data, masks the same with Uint8Array data (1 = may attend). No
// embind handle ever leaves this file, and whatever it allocates in the WebAssembly heap it
// frees or reuses. It computes nothing itself: it checks what only JS can get wrong (types,
// lengths, whole numbers), copies inputs into the heap, calls the core and copies results out.
// Every other check, and its message, is the core's: its std::invalid_argument arrives here as
// an Error with the same text. One exception: no matrix, mask or result may hold more than
// 2^24 values (MAX_ELEMENTS), refused here before anything is allocated.
//
// Load it once per page or Worker: `const core = await loadCore()`. Under node, where the
// module cannot fetch its .wasm, pass { wasmBinary } read from the file next to it.
import createAttentionCore from './generated/attention_core.mjs';
import type { AttentionCoreModule, RawCueSession, RawMultiHeadAttention } from './generated/attention_core.mjs';

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
  requireElements(`a (${rows}, ${cols}) matrix`, rows * cols);
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
  requireElements(`a (${rows}, ${cols}) mask`, rows * cols);
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
  /** blocks allocated in the heap and not yet freed */
  liveAllocations: number;
  /** embind value handles alive */
  emvalHandles: number;
  /** the shadow-stack pointer (constant between calls unless something leaks stack) */
  stackPointer: number;
}

// ---- the lesson's experiments: plain data, ready to plot ----
// Computed by core/include/attn/experiments/*; the shapes and meanings are documented there.
// Flat matrices are row-major: element (i, j) of an (n, n) matrix is at i * n + j.

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

export interface ScaleSweepOptions {
  /** key dimensions, each 1..4096 (default [4, 16, 64, 256]) */
  dks?: readonly number[];
  /** 1..100000 (default 200) */
  draws?: number;
  /** 2..4096 (default 12) */
  tokens?: number;
  seed?: number;
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

export interface MaskDemoOptions {
  /** 1..1024 (default 10) */
  positions?: number;
  /** 1..positions (default 6) */
  real?: number;
  seed?: number;
  /** 1..1024 (default 8) */
  dK?: number;
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

export interface HeadsDemoOptions {
  /** 1..1024 (default 64) */
  dModel?: number;
  /** 2..dModel, dividing it (default 4) */
  numHeads?: number;
  /** 1..256 (default 8) */
  tokens?: number;
  seed?: number;
}

export interface PitfallCase {
  precision: 'float16' | 'float32';
  constant: '-1e30' | '-1e9' | '-1e4' | 'lowest';
  requested: number;
  /** the constant rounded to the precision: -Infinity when it overflowed */
  stored: number;
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

export interface PitfallOptions {
  /** 2..1024 (default 6) */
  positions?: number;
  /** 1..positions-1 (default 4) */
  real?: number;
  seed?: number;
  /** 1..1024 (default 16) */
  dK?: number;
}

export interface Core {
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
  createCueModel(config?: CueConfig): CueModel;
  /** The seed the core uses when CueConfig.seed is left out. */
  cueDefaultSeed(): number;
  /** Figures for leak checks. */
  memoryStats(): MemoryStats;
  /** The scale sweep: max weight, entropy and softmax Jacobian with and without 1/sqrt(d_k). */
  scaleSweep(options?: ScaleSweepOptions): ScaleSweep;
  /** The lesson's three masks on one seeded score matrix, and the mask-after-softmax mistake. */
  maskDemo(options?: MaskDemoOptions): MaskDemo;
  /** 4 heads of 16 vs 1 head of 64: parameter counts and each head's weights. */
  headsDemo(options?: HeadsDemoOptions): HeadsDemo;
  /** Masked-score constants in float16 and float32 on rows that are fully masked. */
  halfPrecisionPitfall(options?: PitfallOptions): HalfPrecisionPitfall;
}

/**
 * The cue task's training run (the tiny transformer of core/nn/). Every field is optional;
 * the defaults are the lesson's: 2 blocks, 1 head, 30 epochs, batch 32, Adam lr 0.003,
 * dropout 0.1, sequences of 10 tokens, pre-LN, the last block computed for the query row only,
 * and the core's default seed (Core.cueDefaultSeed, whose 2-block run reads the cue).
 */
export interface CueConfig {
  blocks?: number;
  heads?: number;
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  dropout?: number;
  seed?: number;
  length?: number;
  postLayerNorm?: boolean;
  lastQueryOnly?: boolean;
}

export interface CueEpoch {
  /** 1-based */
  epoch: number;
  trainLoss: number;
  trainAccuracy: number;
  validationLoss: number;
  validationAccuracy: number;
}

export interface CueMetrics {
  /** completed epochs */
  epoch: number;
  /** batches done in the current epoch */
  batch: number;
  batchesPerEpoch: number;
  /** configured epochs */
  epochs: number;
  finished: boolean;
  parameterCount: number;
  bestValidationAccuracy: number;
  /** 1-based; 0 before the first epoch */
  bestEpoch: number;
  /** "answer the most frequent body symbol", on the validation set */
  baselineAccuracy: number;
  /** 1 / symbols */
  chanceAccuracy: number;
  /** of the latest batch; NaN before the first */
  lastBatchLoss: number;
  lastBatchAccuracy: number;
  /** one entry per completed epoch */
  history: CueEpoch[];
}

export interface CueAnalysis {
  /** offsets from the answer position: -2, -1 (the earlier cue), 0 (the answer), +1 */
  offsets: number[];
  /** [head][offset]: the last block's attention from the query, validation mean */
  lastBlockByOffset: number[][];
  /** [head]: the first block's weight from the cue position onto the next token */
  firstBlockCueToNext: number[];
  /** "cue": the last block reads the earlier cue; "answer": it reads the answer; or "none" */
  circuit: 'cue' | 'answer' | 'none';
}

/** A model training in the core: call trainEpoch / trainBatches, read metrics, dispose() when done. */
export interface CueModel {
  /** Runs the rest of the current epoch and its validation; throws when all epochs ran. */
  trainEpoch(): CueEpoch;
  /** Runs up to n batches (validating at each epoch end); returns how many ran (0 when finished). */
  trainBatches(n: number): number;
  metrics(): CueMetrics;
  /** The attention analysis of the current weights on the validation set. */
  analysis(): CueAnalysis;
  dispose(): void;
}

export interface LoadOptions {
  /** The .wasm bytes, for environments that cannot fetch it (node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

export async function loadCore(options: LoadOptions = {}): Promise<Core> {
  const module = await createAttentionCore(options.wasmBinary ? { wasmBinary: options.wasmBinary } : {});
  return new CoreImpl(module);
}

// ---- checks of what only JS can get wrong ----

const MAX_SIZE = 2147483647;

// The most values one matrix or mask may hold, given or returned: 2^24 (64 MB of float32), the
// bound the core already puts on one batch of random draws. Bigger requests are refused here,
// before anything is allocated in JS or in the WebAssembly heap (which never shrinks again).
const MAX_ELEMENTS = 1 << 24;

function requireElements(what: string, count: number): void {
  if (count > MAX_ELEMENTS) throw new Error(`${what} would hold ${count} values, more than the ${MAX_ELEMENTS} allowed`);
}

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

function requireMat(name: string, m: unknown): asserts m is Mat {
  if (m == null || typeof m !== 'object') throw new Error(`${name} must be a matrix { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as Mat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(`${name} (${rows}, ${cols})`, rows * cols);
  if (!(data instanceof Float32Array)) throw new Error(`${name}.data must be a Float32Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(`${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`);
}

function requireMask(name: string, m: unknown): asserts m is MaskMat {
  if (m == null || typeof m !== 'object') throw new Error(`${name} must be a mask { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as MaskMat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(`${name} (${rows}, ${cols})`, rows * cols);
  if (!(data instanceof Uint8Array)) throw new Error(`${name}.data must be a Uint8Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(`${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`);
  for (let i = 0; i < data.length; i++)
    if (data[i] > 1) throw new Error(`${name}.data must hold 0 or 1, got ${data[i]} at index ${i}`);
}

// A bias may be a (1, n) matrix or a plain Float32Array of n values.
function biasMat(name: string, bias: unknown): Mat {
  if (bias instanceof Float32Array) return { rows: 1, cols: bias.length, data: bias };
  requireMat(name, bias);
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

function requireSeed(seed: unknown): asserts seed is number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`seed must be a whole number between 0 and 2^53 - 1, got ${describe(seed)}`);
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

class CoreImpl implements Core {
  private readonly registry = new FinalizationRegistry<RawMultiHeadAttention>((handle) => {
    if (!handle.isDeleted()) handle.delete();
  });

  constructor(private readonly m: AttentionCoreModule) {}

  // Writes each input into scratch and returns their offsets (the heap may have grown). An
  // array passed twice (self-attention: query = key = value) is copied once.
  private put(inputs: (Float32Array | Uint8Array | null)[]): number[] {
    const layout = new Layout();
    const at = inputs.map((x, i) => {
      if (!x) return -1;
      const first = inputs.indexOf(x);
      return first < i ? -2 - first : layout.add(x.byteLength);
    });
    const base = this.m.scratch(Math.max(8, layout.size)); // never 0: offset 0 means "no mask"
    const offsets = inputs.map((x, i) => (x && at[i] >= 0 ? base + at[i] : 0));
    inputs.forEach((x, i) => {
      if (!x) return;
      if (at[i] < -1) {
        offsets[i] = offsets[-2 - at[i]];
        return;
      }
      if (x instanceof Float32Array) this.m.HEAPF32.set(x, offsets[i] >> 2);
      else this.m.HEAPU8.set(x, offsets[i]);
    });
    return offsets;
  }

  // Offset of result `i` in the table a compute function returned.
  private result(table: number, i: number): number {
    return this.m.HEAPU32[(table >> 2) + i];
  }

  // Copies results 0..shapes.length-1 of `table` out of the heap. Fresh typed arrays are the
  // dearest part of a small call, so (measured in node) results too large for V8's in-heap
  // typed arrays (64 bytes) share one new buffer, while tiny ones are sliced one by one.
  private readMats(table: number, shapes: [rows: number, cols: number][]): Mat[] {
    const total = shapes.reduce((sum, [r, c]) => sum + r * c, 0);
    const heap = this.m.HEAPF32;
    if (total <= 16) return shapes.map(([rows, cols], i) => this.readMat(this.result(table, i), rows, cols));
    const all = new Float32Array(total);
    let at = 0;
    return shapes.map(([rows, cols], i) => {
      const start = this.result(table, i) >> 2, n = rows * cols;
      const data = all.subarray(at, at + n);
      data.set(heap.subarray(start, start + n));
      at += n;
      return { rows, cols, data };
    });
  }

  private readMat(offset: number, rows: number, cols: number): Mat {
    const start = offset >> 2;
    return { rows, cols, data: this.m.HEAPF32.slice(start, start + rows * cols) };
  }

  private readMask(offset: number, rows: number, cols: number): MaskMat {
    return { rows, cols, data: this.m.HEAPU8.slice(offset, offset + rows * cols) };
  }

  softmax(scores: Mat): Mat {
    requireMat('scores', scores);
    const [s] = this.put([scores.data]);
    const table = this.m.softmax(s, scores.rows, scores.cols);
    return this.readMat(this.result(table, 0), scores.rows, scores.cols);
  }

  attention(query: Mat, key: Mat, value: Mat, options?: AttentionOptions): AttentionResult {
    requireMat('query', query);
    requireMat('key', key);
    requireMat('value', value);
    const { scale, maskedValue } = requireOptions(options);
    const mask = options?.mask;
    if (mask !== undefined) requireMask('mask', mask);
    requireElements(`the weights (${query.rows}, ${key.rows})`, query.rows * key.rows);
    requireElements(`the output (${query.rows}, ${value.cols})`, query.rows * value.cols);
    const [q, k, v, mk] = this.put([query.data, key.data, value.data, mask ? mask.data : null]);
    const table = this.m.attention(q, query.rows, query.cols, k, key.rows, key.cols, v, value.rows, value.cols,
                                   mk, mask ? mask.rows : 0, mask ? mask.cols : 0, scale, maskedValue);
    const [output, weights] = this.readMats(table, [[query.rows, value.cols], [query.rows, key.rows]]);
    return { output, weights };
  }

  causalMask(n: number): MaskMat {
    requireSize('n', n);
    requireElements(`a (${n}, ${n}) mask`, n * n);
    return this.readMask(this.result(this.m.causalMask(n), 0), n, n);
  }

  paddingMask(nQ: number, nK: number, realLen: number): MaskMat {
    requireSize('nQ', nQ);
    requireSize('nK', nK);
    requireSize('realLen', realLen);
    requireElements(`a (${nQ}, ${nK}) mask`, nQ * nK);
    return this.readMask(this.result(this.m.paddingMask(nQ, nK, realLen), 0), nQ, nK);
  }

  combineMasks(a: MaskMat, b: MaskMat): MaskMat {
    requireMask('a', a);
    requireMask('b', b);
    const [pa, pb] = this.put([a.data, b.data]);
    const table = this.m.combineMasks(pa, a.rows, a.cols, pb, b.rows, b.cols);
    return this.readMask(this.result(table, 0), a.rows, a.cols);
  }

  allowedFraction(mask: MaskMat): number {
    requireMask('mask', mask);
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
      requireElements(`a (${spec.dModel}, ${spec.numHeads * keyDim}) projection`, spec.dModel * spec.numHeads * keyDim);
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
      requireMat('inProjWeight', p.inProjWeight);
      requireMat('outProjWeight', p.outProjWeight);
      return [p.inProjWeight, biasMat('inProjBias', p.inProjBias), p.outProjWeight, biasMat('outProjBias', p.outProjBias)];
    }
    const out: Mat[] = [];
    for (const name of ['query', 'key', 'value', 'output'] as const) {
      const projection = weights[name];
      if (projection == null || typeof projection !== 'object')
        throw new Error(`weights.${name} must be { weight, bias }, got ${describe(projection)}`);
      requireMat(`${name} weight`, projection.weight);
      out.push(projection.weight, biasMat(`${name} bias`, projection.bias));
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
        requireMat('query', query);
        requireMat('key', key);
        requireMat('value', value);
        if (mask !== undefined) requireMask('mask', mask);
        requireElements(`the weights (${numHeads} heads, ${query.rows}, ${key.rows})`, numHeads * query.rows * key.rows);
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

  private readonly cueRegistry = new FinalizationRegistry<RawCueSession>((handle) => {
    if (!handle.isDeleted()) handle.delete();
  });

  cueDefaultSeed(): number {
    return this.m.cueDefaultSeed();
  }

  createCueModel(config: CueConfig = {}): CueModel {
    if (config == null || typeof config !== 'object') throw new Error(`config must be an object, got ${describe(config)}`);
    const whole = (name: keyof CueConfig, fallback: number) => {
      const v = config[name] ?? fallback;
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`${name} must be a whole number, got ${describe(v)}`);
      // Beyond 32 bits the binding would wrap the number and the core would name another one.
      if (Math.abs(v) > MAX_SIZE) throw new Error(`${name} must be a whole number of at most 32 bits, got ${describe(v)}`);
      return v;
    };
    const number = (name: keyof CueConfig, fallback: number) => {
      const v = config[name] ?? fallback;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${name} must be a finite number, got ${describe(v)}`);
      return v;
    };
    const flag = (name: keyof CueConfig, fallback: boolean) => {
      const v = config[name] ?? fallback;
      if (typeof v !== 'boolean') throw new Error(`${name} must be a boolean, got ${describe(v)}`);
      return v;
    };
    const seed = config.seed ?? this.m.cueDefaultSeed();
    requireSeed(seed);
    // Ranges are the core's to check (its messages name the field).
    const handle = this.m.createCueSession(
      whole('blocks', 2), whole('heads', 1), whole('epochs', 30), whole('batchSize', 32),
      number('learningRate', 0.003), number('dropout', 0.1), seed, whole('length', 10),
      flag('postLayerNorm', false), flag('lastQueryOnly', true));
    return this.wrapCue(handle);
  }

  private wrapCue(handle: RawCueSession): CueModel {
    const core = this;
    const token = {};
    const live = () => {
      if (handle.isDeleted()) throw new Error('this cue model has been disposed');
      return handle;
    };
    const doubles = (table: number, n: number) => {
      const start = core.result(table, 0) >> 3;
      return core.m.HEAPF64.slice(start, start + n);
    };
    const history = (h: RawCueSession, epochs: number): CueEpoch[] => {
      const v = doubles(h.history(), 5 * epochs);
      const out: CueEpoch[] = [];
      for (let e = 0; e < epochs; e++)
        out.push({ epoch: v[5 * e], trainLoss: v[5 * e + 1], trainAccuracy: v[5 * e + 2],
                   validationLoss: v[5 * e + 3], validationAccuracy: v[5 * e + 4] });
      return out;
    };
    const model: CueModel = {
      trainEpoch() {
        const h = live();
        const epochs = h.trainEpoch();
        return history(h, epochs)[epochs - 1];
      },
      trainBatches(n) {
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SIZE)
          throw new Error(`n must be a whole number between 1 and ${MAX_SIZE}, got ${describe(n)}`);
        return live().trainBatches(n);
      },
      metrics() {
        const h = live();
        const status = h.status();
        return { ...status, history: history(h, status.epoch) };
      },
      analysis() {
        const h = live();
        const heads = h.heads();
        const v = doubles(h.analyse(), 5 * heads);
        const lastBlockByOffset: number[][] = [];
        for (let i = 0; i < heads; i++) lastBlockByOffset.push(Array.from(v.subarray(4 * i, 4 * i + 4)));
        return {
          offsets: [-2, -1, 0, 1],
          lastBlockByOffset,
          firstBlockCueToNext: Array.from(v.subarray(4 * heads, 5 * heads)),
          circuit: h.circuit() as CueAnalysis['circuit'],
        };
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

  memoryStats(): MemoryStats {
    return { ...this.m.memoryStats(), emvalHandles: this.m.count_emval_handles(), stackPointer: this.m.stackSave() };
  }

  // ---- the lesson's experiments: the module returns plain objects already ----

  private get experiments(): ExperimentBindings {
    return this.m as unknown as ExperimentBindings;
  }

  scaleSweep(options: ScaleSweepOptions = {}): ScaleSweep {
    const o = experimentOptions(options);
    const dks = o.dks ?? [4, 16, 64, 256];
    if (!Array.isArray(dks)) throw new Error(`dks must be an array of numbers, got ${describe(dks)}`);
    // The core's bound, checked before the list is copied into the heap.
    if (dks.length > 64) throw new Error(`d_ks must hold between 1 and 64 values, got ${dks.length}`);
    requireNumbers('dks', dks);
    const draws = numberOption('draws', o.draws, 200), tokens = numberOption('tokens', o.tokens, 12);
    const seed = seedOption(o.seed);
    const at = this.m.scratch(Math.max(8, dks.length * 8));
    this.m.HEAPF64.set(dks, at >> 3);
    return this.experiments.scaleSweep(at, dks.length, draws, tokens, seed);
  }

  maskDemo(options: MaskDemoOptions = {}): MaskDemo {
    const o = experimentOptions(options);
    return this.experiments.maskDemo(numberOption('positions', o.positions, 10), numberOption('real', o.real, 6),
                                     seedOption(o.seed), numberOption('dK', o.dK, 8));
  }

  headsDemo(options: HeadsDemoOptions = {}): HeadsDemo {
    const o = experimentOptions(options);
    return this.experiments.headsDemo(numberOption('dModel', o.dModel, 64), numberOption('numHeads', o.numHeads, 4),
                                      numberOption('tokens', o.tokens, 8), seedOption(o.seed));
  }

  halfPrecisionPitfall(options: PitfallOptions = {}): HalfPrecisionPitfall {
    const o = experimentOptions(options);
    return this.experiments.halfPrecisionPitfall(numberOption('positions', o.positions, 6), numberOption('real', o.real, 4),
                                                 seedOption(o.seed), numberOption('dK', o.dK, 16));
  }
}

// The experiment functions of the module (wasm/bindings.cpp). Each returns a fresh plain
// object of typed-array copies, so there is nothing to read out of the heap or to free.
interface ExperimentBindings {
  scaleSweep(dks: number, count: number, draws: number, tokens: number, seed: number): ScaleSweep;
  maskDemo(positions: number, real: number, seed: number, dK: number): MaskDemo;
  headsDemo(dModel: number, numHeads: number, tokens: number, seed: number): HeadsDemo;
  halfPrecisionPitfall(positions: number, real: number, seed: number, dK: number): HalfPrecisionPitfall;
}

function experimentOptions<T extends object>(options: T): T {
  if (options == null || typeof options !== 'object') throw new Error(`options must be an object, got ${describe(options)}`);
  return options;
}

// Only the type is checked here: whole numbers and ranges are the core's to check and name.
function numberOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new Error(`${name} must be a number, got ${describe(value)}`);
  return value;
}

function seedOption(seed: unknown): number {
  if (seed === undefined) return 0;
  requireSeed(seed);
  return seed;
}
