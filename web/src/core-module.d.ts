// Types of the Emscripten module that scripts/build generates into web/src/generated/ from
// wasm/bindings.cpp. Only web/src/core.ts uses it; everything else goes through core.ts.
// Offsets are byte offsets into the WebAssembly heap; "table" offsets point at uint32 offsets
// of the results, in the order the comment of each function in bindings.cpp gives.

declare module '*/generated/attention_core.mjs' {
  export interface RawMultiHeadAttention {
    initSeeded(seed: number): void;
    setProjection(which: number, weight: number, rows: number, cols: number, bias: number, biasCols: number): void;
    setFromPytorch(
      inW: number, inWRows: number, inWCols: number, inB: number, inBCols: number,
      outW: number, outWRows: number, outWCols: number, outB: number, outBCols: number,
    ): void;
    parameters(): number;
    forward(
      query: number, qRows: number, qCols: number, key: number, kRows: number, kCols: number,
      value: number, vRows: number, vCols: number, mask: number, mRows: number, mCols: number,
      scale: boolean, maskedValue: number,
    ): number;
    dModel(): number;
    numHeads(): number;
    keyDim(): number;
    parameterCount(): number;
    delete(): void;
    isDeleted(): boolean;
  }

  /** The cue task's trainer (core/nn/), from wasm/bindings.cpp. */
  export interface RawCueSession {
    trainEpoch(): number;
    trainBatches(n: number): number;
    status(): {
      epoch: number; batch: number; batchesPerEpoch: number; epochs: number; finished: boolean;
      parameterCount: number; bestValidationAccuracy: number; bestEpoch: number;
      baselineAccuracy: number; chanceAccuracy: number; lastBatchLoss: number; lastBatchAccuracy: number;
    };
    /** table: [epochs x (epoch, train loss, train acc, val loss, val acc)] as float64 */
    history(): number;
    /** table: [heads x 4 offsets, heads] as float64 */
    analyse(): number;
    circuit(): string;
    heads(): number;
    delete(): void;
    isDeleted(): boolean;
  }

  export interface AttentionCoreModule {
    HEAPU8: Uint8Array;
    HEAPU32: Uint32Array;
    HEAPF32: Float32Array;
    HEAPF64: Float64Array;
    stackSave(): number;
    count_emval_handles(): number;

    scratch(bytes: number): number;
    softmax(scores: number, rows: number, cols: number): number;
    attention(
      query: number, qRows: number, qCols: number, key: number, kRows: number, kCols: number,
      value: number, vRows: number, vCols: number, mask: number, mRows: number, mCols: number,
      scale: boolean, maskedValue: number,
    ): number;
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
    createCueSession(
      blocks: number, heads: number, epochs: number, batchSize: number, learningRate: number,
      dropout: number, seed: number, length: number, postLayerNorm: boolean, lastQueryOnly: boolean,
    ): RawCueSession;
    cueDefaultSeed(): number;

    memoryStats(): { heapBytes: number; usedBytes: number; liveAllocations: number };
  }

  export default function createAttentionCore(options?: {
    wasmBinary?: ArrayBuffer | Uint8Array;
  }): Promise<AttentionCoreModule>;
}
