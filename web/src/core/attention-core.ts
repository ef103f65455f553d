// The attention core (loadAttentionCore): softmax, attention, masks, multi-head layers and the
// seeded generator, each call checked, then run in the core through the heap.
import type { AttentionModule, RawMultiHeadAttention } from '../generated/attention_core.mjs';
import {
  biasMat,
  requireElements,
  requireMask,
  requireMat,
  requireOptions,
  requireSeed,
  requireSize,
  wrongType,
} from './checks.js';
import { ArgumentError } from './errors.js';
import { CommonCore } from './heap.js';
import type {
  AttentionCore,
  AttentionOptions,
  AttentionResult,
  Mat,
  MaskMat,
  MultiHeadLayer,
  MultiHeadResult,
  MultiHeadSpec,
  MultiHeadWeights,
  ProjectionWeights,
  PytorchWeights,
  Random,
} from './types.js';

/** The attention core (loadAttentionCore): attention, softmax, masks, the generator, multi-head layers. */
export class AttentionCoreImpl extends CommonCore implements AttentionCore {
  declare protected readonly m: AttentionModule;

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
    const { scale, maskedValue } = requireOptions(options, this.configs.attention.defaults);
    const mask = options?.mask;
    if (mask !== undefined) requireMask('mask', mask, this.max);
    requireElements('query', query.rows * key.rows, this.max, () => `the weights (${query.rows}, ${key.rows})`);
    requireElements('query', query.rows * value.cols, this.max, () => `the output (${query.rows}, ${value.cols})`);
    const table = this.m._attn_attention(this.putCall(query, key, value, mask, scale, maskedValue));
    const [output, weights] = this.readMats(table, [
      [query.rows, value.cols],
      [query.rows, key.rows],
    ]);
    return { output, weights };
  }

  // The 14 four-byte slots of one call's inputs (wasm/bind_attention.cpp's AttentionCall).
  private readonly callSlots = new Int32Array(14);

  /**
   * Writes an attention call's inputs into scratch: the matrices, then the AttentionCall
   * (wasm/bind_attention.cpp) that points at them, whose offset it returns.
   */
  private putCall(query: Mat, key: Mat, value: Mat, mask: MaskMat | undefined, scale: boolean, maskedValue: number) {
    const [q, k, v, mk, call] = this.put([query.data, key.data, value.data, mask ? mask.data : null, this.callSlots]);
    const slots = this.m.HEAP32,
      i = call >> 2;
    slots[i] = q;
    slots[i + 1] = query.rows;
    slots[i + 2] = query.cols;
    slots[i + 3] = k;
    slots[i + 4] = key.rows;
    slots[i + 5] = key.cols;
    slots[i + 6] = v;
    slots[i + 7] = value.rows;
    slots[i + 8] = value.cols;
    slots[i + 9] = mk;
    slots[i + 10] = mask ? mask.rows : 0;
    slots[i + 11] = mask ? mask.cols : 0;
    slots[i + 12] = scale ? 1 : 0;
    this.m.HEAPF32[i + 13] = maskedValue;
    return call;
  }

  causalMask(n: number): MaskMat {
    requireSize('n', n);
    requireElements('n', n * n, this.max, () => `a (${n}, ${n}) mask`);
    return this.readMask(this.result(this.m.causalMask(n), 0), n, n);
  }

  paddingMask(nQ: number, nK: number, realLen: number): MaskMat {
    requireSize('nQ', nQ);
    requireSize('nK', nK);
    requireSize('realLen', realLen);
    requireElements('nQ', nQ * nK, this.max, () => `a (${nQ}, ${nK}) mask`);
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

  multiHeadAttention(
    layer: MultiHeadSpec,
    query: Mat,
    key: Mat,
    value: Mat,
    mask?: MaskMat,
    options?: Omit<AttentionOptions, 'mask'>,
  ): MultiHeadResult {
    const built = this.createMultiHead(layer);
    try {
      return built.forward(query, key, value, mask, options);
    } finally {
      built.dispose();
    }
  }

  createMultiHead(spec: MultiHeadSpec): MultiHeadLayer {
    if (spec == null || typeof spec !== 'object')
      throw wrongType('layer', 'an object { dModel, numHeads, keyDim?, weights }', spec);
    requireSize('dModel', spec.dModel);
    requireSize('numHeads', spec.numHeads);
    if (spec.keyDim !== undefined) requireSize('keyDim', spec.keyDim);
    if (spec.numHeads > 0) {
      const keyDim = spec.keyDim || Math.floor(spec.dModel / spec.numHeads);
      requireElements(
        'dModel',
        spec.dModel * spec.numHeads * keyDim,
        this.max,
        () => `a (${spec.dModel}, ${spec.numHeads * keyDim}) projection`,
      );
    }
    const weights = spec.weights as Partial<{ pytorch: PytorchWeights; seed: number; query: ProjectionWeights }>;
    if (
      weights == null ||
      typeof weights !== 'object' ||
      !('pytorch' in weights || 'seed' in weights || 'query' in weights)
    )
      throw wrongType('weights', '{ pytorch }, { query, key, value, output } or { seed }', weights);
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
      if (p == null || typeof p !== 'object') throw wrongType('weights.pytorch', 'an object', p);
      requireMat('inProjWeight', p.inProjWeight, this.max);
      requireMat('outProjWeight', p.outProjWeight, this.max);
      return [
        p.inProjWeight,
        biasMat('inProjBias', p.inProjBias, this.max),
        p.outProjWeight,
        biasMat('outProjBias', p.outProjBias, this.max),
      ];
    }
    const out: Mat[] = [];
    for (const name of ['query', 'key', 'value', 'output'] as const) {
      const projection = weights[name];
      if (projection == null || typeof projection !== 'object')
        throw wrongType(`weights.${name}`, '{ weight, bias }', projection);
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
      if (b.rows !== 1)
        throw new ArgumentError(
          `${['query', 'key', 'value', 'output'][p]} bias`,
          'bad-shape',
          `must have 1 row, got shape (${b.rows}, ${b.cols})`,
          { rows: 1, gotRows: b.rows, gotCols: b.cols },
        );
      handle.setProjection(p, at[2 * p], w.rows, w.cols, at[2 * p + 1], b.cols);
    }
  }

  private wrapLayer(handle: RawMultiHeadAttention): MultiHeadLayer {
    const core = this;
    const token = {};
    const dModel = handle.dModel(),
      numHeads = handle.numHeads(),
      keyDim = handle.keyDim();
    const parameterCount = handle.parameterCount();
    const live = () => {
      if (handle.isDeleted()) throw new Error('this multi-head layer has been disposed');
      return handle;
    };
    const layer: MultiHeadLayer = {
      dModel,
      numHeads,
      keyDim,
      parameterCount,
      forward(query, key, value, mask, options) {
        const h = live();
        requireMat('query', query, core.max);
        requireMat('key', key, core.max);
        requireMat('value', value, core.max);
        if (mask !== undefined) requireMask('mask', mask, core.max);
        requireElements(
          'query',
          numHeads * query.rows * key.rows,
          core.max,
          () => `the weights (${numHeads} heads, ${query.rows}, ${key.rows})`,
        );
        const { scale, maskedValue } = requireOptions(options, core.configs.attention.defaults);
        const table = h.forward(core.putCall(query, key, value, mask, scale, maskedValue));
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
        return draw(
          (at) => core.m.randomUniform(at, n),
          (t) => doubles(t, n),
        );
      },
      normal(n) {
        requireSize('n', n);
        return draw(
          (at) => core.m.randomNormal(at, n),
          (t) => doubles(t, n),
        );
      },
      normalMatrix(rows, cols) {
        requireSize('rows', rows);
        requireSize('cols', cols);
        return draw(
          (at) => core.m.randomNormalMatrix(at, rows, cols),
          (t) => core.readMat(core.result(t, 0), rows, cols),
        );
      },
      uniformMatrix(rows, cols, lo, hi) {
        requireSize('rows', rows);
        requireSize('cols', cols);
        if (typeof lo !== 'number') throw wrongType('lo', 'a number', lo);
        if (typeof hi !== 'number') throw wrongType('hi', 'a number', hi);
        return draw(
          (at) => core.m.randomUniformMatrix(at, rows, cols, lo, hi),
          (t) => core.readMat(core.result(t, 0), rows, cols),
        );
      },
      clone() {
        return core.wrapRandom(state.slice());
      },
    };
  }
}
