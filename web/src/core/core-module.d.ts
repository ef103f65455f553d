// Types of the two Emscripten modules that scripts/build generates into web/src/generated/ from
// wasm/bind_*.cpp: attention_core.mjs (the common part and the attention part) and
// attention_lab.mjs (those, the experiments and the trainer; the tests' build of it also has the
// leak counters). Only web/src/core/ uses them; everything else goes through the facade (core/index.ts). Offsets are byte offsets into the WebAssembly heap; "table" offsets point at
// uint32 offsets of the results, in the order the comment of each function in bind_*.cpp gives.

declare module '*/generated/attention_core.mjs' {
  export interface RawMultiHeadAttention {
    initSeeded(seed: number): void;
    setProjection(which: number, weight: number, rows: number, cols: number, bias: number, biasCols: number): void;
    setFromPytorch(
      inW: number,
      inWRows: number,
      inWCols: number,
      inB: number,
      inBCols: number,
      outW: number,
      outWRows: number,
      outWCols: number,
      outB: number,
      outBCols: number,
    ): void;
    parameters(): number;
    /** call: an AttentionCall (bind_attention.cpp) in the heap. */
    forward(call: number): number;
    dModel(): number;
    numHeads(): number;
    keyDim(): number;
    parameterCount(): number;
    delete(): void;
    isDeleted(): boolean;
  }

  /** The cue task's trainer (core/nn/), a class handle from wasm/bind_trainer.cpp. */
  export interface RawCueTrainer {
    trainEpoch(): import('./types').CueEpoch;
    trainBatches(n: number): number;
    progress(): import('./types').CueProgress;
    history(): import('./types').CueEpoch[];
    parameterCount(): number;
    baselineAccuracy(): number;
    chanceAccuracy(): number;
    analyse(): import('./types').CueAnalysis;
    report(): import('./types').CueReport;
    route(): import('./types').CueRoute;
    /** An empty result with the error left for raiseError() when it fails. */
    intervene(
      config: import('./types').InterventionConfig,
      tokens: ArrayLike<number>,
      corrupted: ArrayLike<number>,
      positions: ArrayLike<number>,
      given: ArrayLike<number>,
    ): import('./types').CueIntervention;
    /** tokens: n int32 at this offset. */
    probe(tokens: number, n: number): import('./types').CueProbe;
    weights(): Float32Array;
    /** weights: n float32 at this offset. */
    loadWeights(weights: number, n: number): void;
    delete(): void;
    isDeleted(): boolean;
  }

  /** experiments/attention_steps.hpp's AttentionSteps: every matrix flat, row-major. */
  export interface RawAttentionSteps {
    config: import('./types').AttentionStepsConfig;
    scaleFactor: number;
    maskedValue: number;
    allowed: Uint8Array;
    query: Float32Array;
    key: Float32Array;
    value: Float32Array;
    scores: Float32Array;
    scaled: Float32Array;
    masked: Float32Array;
    weights: Float32Array;
    output: Float32Array;
  }

  /** bind_common.cpp: in both modules. */
  export interface CommonPart {
    HEAPU8: Uint8Array;
    HEAPU32: Uint32Array;
    HEAP32: Int32Array;
    HEAPF32: Float32Array;
    HEAPF64: Float64Array;
    stackSave(): number;
    count_emval_handles(): number;

    // A plain WebAssembly export (extern "C").
    _attn_scratch(bytes: number): number;
    /** Throws the error the latest object-taking call left, once; returns when there is none. */
    raiseError(): void;
    /** Set by the facade: makes the Error the module throws for a failed call (wasm/errors.cpp). */
    createError?: (message: string, fields?: import('./errors').ArgumentErrorFields) => Error;
    limits(): import('./types').Limits;
    attentionOptions(): import('./types').ConfigSpec<import('./types').AttentionConfig>;
    scaleSweepConfig(): import('./types').ConfigSpec<import('./types').ScaleSweepConfig>;
    maskDemoConfig(): import('./types').ConfigSpec<import('./types').MaskDemoConfig>;
    headsDemoConfig(): import('./types').ConfigSpec<import('./types').HeadsDemoConfig>;
    pitfallConfig(): import('./types').ConfigSpec<import('./types').PitfallConfig>;
    cueTrainConfig(): import('./types').ConfigSpec<import('./types').CueConfig>;
    interventionConfig(): import('./types').ConfigSpec<import('./types').InterventionConfig>;
    attentionStepsConfig(): import('./types').ConfigSpec<import('./types').AttentionStepsConfig>;
    /** key: the field at fault ("" if none), message: the core's message ("" when valid). */
    cueTrainConfigError(config: import('./types').CueConfig): { key: string; message: string };
    memoryStats(): { heapBytes: number; usedBytes: number };
    /** The test build of the module only (wasm/leak_counters.cpp). */
    liveAllocations?(): number;
  }

  /** bind_attention.cpp: in both modules. */
  export interface AttentionPart {
    // Plain WebAssembly exports (extern "C").
    _attn_softmax(scores: number, rows: number, cols: number): number;
    /** call: an AttentionCall (bind_attention.cpp) in the heap. */
    _attn_attention(call: number): number;
    causalMask(n: number): number;
    paddingMask(nQ: number, nK: number, realLen: number): number;
    combineMasks(a: number, rowsA: number, colsA: number, b: number, rowsB: number, colsB: number): number;
    allowedFraction(mask: number, rows: number, cols: number): number;

    randomStateBytes(): number;
    randomSeed(state: number, seed: number): void;
    randomUniform(state: number, n: number): number;
    randomNormal(state: number, n: number): number;
    randomNormalMatrix(state: number, rows: number, cols: number): number;
    randomUniformMatrix(state: number, rows: number, cols: number, lo: number, hi: number): number;

    createMultiHeadAttention(dModel: number, numHeads: number, keyDim: number): RawMultiHeadAttention;
  }

  /** bind_experiments.cpp and bind_trainer.cpp: attention_lab only. */
  export interface LabPart {
    // Each returns an empty result on failure and leaves the error for raiseError().
    scaleSweep(config: import('./types').ScaleSweepConfig): import('./types').ScaleSweep;
    maskDemo(config: import('./types').MaskDemoConfig): import('./types').MaskDemo;
    headsDemo(config: import('./types').HeadsDemoConfig): import('./types').HeadsDemo;
    halfPrecisionPitfall(config: import('./types').PitfallConfig): import('./types').HalfPrecisionPitfall;
    attentionSteps(config: import('./types').AttentionStepsConfig): RawAttentionSteps;
    /** query, key, value: float32 at these offsets, of the shapes the config names. */
    attentionStepsGiven(
      config: import('./types').AttentionStepsConfig,
      query: number,
      key: number,
      value: number,
    ): RawAttentionSteps;
    /** null on failure (the error left for raiseError()). */
    createCueTrainer(config: import('./types').CueConfig): RawCueTrainer | null;
  }

  export type AttentionModule = CommonPart & AttentionPart;
  export type LabModule = CommonPart & AttentionPart & LabPart;

  /** Emscripten's options of a module's factory. */
  export interface ModuleOptions {
    wasmBinary?: ArrayBuffer | Uint8Array;
    /** Emscripten's hook: the address of a file the module loads (its .wasm). */
    locateFile?: (path: string) => string;
  }

  export default function createAttentionCore(options?: ModuleOptions): Promise<AttentionModule>;
}

declare module '*/generated/attention_lab.mjs' {
  export default function createAttentionLab(
    options?: import('../generated/attention_core.mjs').ModuleOptions,
  ): Promise<import('../generated/attention_core.mjs').LabModule>;
}
