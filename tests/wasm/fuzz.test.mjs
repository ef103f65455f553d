// Seeded fuzzing of the facade (web/src/core/ over the WebAssembly core): 10,000 calls
// spread over every function, about half of them malformed on purpose (wrong types, wrong
// lengths, NaN and infinities, negative, fractional and enormous sizes, options of the wrong
// kind, disposed handles), the rest valid and checked against references computed here in
// float64. Every malformed call must throw an Error with a message and change nothing; every
// valid call must stay right; and the heap size, live heap blocks, embind handles and stack
// pointer must end where they began. A failure prints the seed and the call's index, and
// ATTN_FUZZ_SEED reruns that stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { attentionF64, facade, loadCore } from './helpers.mjs';

const core = await loadCore();
const { mat, maskMat, row } = facade;
const SEED = Number(process.env.ATTN_FUZZ_SEED ?? 20261129);
const CALLS = 10000;

// ---- a small seeded generator (mulberry32), independent of the core's ----
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, int, pick, normal, chance: (p) => next() < p };
}
const g = generator(SEED);

// ---- inputs ----
const randomMat = (rows, cols, scale = 1) => ({
  rows,
  cols,
  data: Float32Array.from({ length: rows * cols }, () => scale * g.normal()),
});
const randomMask = (rows, cols) => ({
  rows,
  cols,
  data: Uint8Array.from({ length: rows * cols }, () => (g.chance(0.7) ? 1 : 0)),
});

// Values that are never a valid size, seed or count.
const BAD_SIZES = [
  -1,
  -1e9,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  '3',
  null,
  {},
  [],
  true,
  5n,
  Symbol('n'),
  2 ** 31,
  1e9,
  2 ** 53,
];
// Values that are never a seed (2^31 and 1e9 are fine seeds).
const BAD_SEEDS = BAD_SIZES.filter((v) => v !== 1e9 && v !== 2 ** 31);
// Values that are never a matrix.
const NOT_MATRICES = [undefined, null, 7, 'matrix', [], [[1, 2]], true, Symbol('m')];

/** A matrix of the given shape broken in one of many ways (each one surely invalid). */
function brokenMat(rows, cols) {
  const good = randomMat(rows, cols);
  const bad = [
    () => g.pick(NOT_MATRICES),
    () => ({ ...good, rows: g.pick(BAD_SIZES) }),
    () => ({ ...good, cols: g.pick(BAD_SIZES) }),
    () => ({ ...good, data: Array.from(good.data) }),
    () => ({ ...good, data: Float64Array.from(good.data) }),
    () => ({ ...good, data: new Uint8Array(rows * cols) }),
    () => ({ ...good, data: good.data.subarray(1) }),
    () => ({ ...good, data: new Float32Array(rows * cols + g.int(1, 5)) }),
    () => ({ rows: 1e9, cols: 1, data: new Float32Array(1) }), // 1e9 values, refused before any copy
    () => ({ rows: 40000, cols: 40000, data: good.data }),
    () => {
      const m = { ...good, data: good.data.slice() };
      m.data[g.int(0, m.data.length - 1)] = g.pick([NaN, Infinity, -Infinity]);
      return m;
    },
  ];
  return g.pick(bad)();
}

function brokenMask(rows, cols, { shapeMatters = true } = {}) {
  const good = randomMask(rows, cols);
  const bad = [
    () => g.pick(NOT_MATRICES),
    () => ({ ...good, rows: g.pick(BAD_SIZES) }),
    () => ({ ...good, data: Float32Array.from(good.data) }),
    () => ({ ...good, data: Array.from(good.data) }),
    () => ({ ...good, data: good.data.subarray(1) }),
    () => ({ rows: 1e9, cols: 1, data: new Uint8Array(1) }),
    () => {
      const m = { ...good, data: good.data.slice() };
      m.data[g.int(0, m.data.length - 1)] = g.int(2, 255);
      return m;
    },
    ...(shapeMatters ? [() => randomMask(rows + 1, cols)] : []), // wrong shape for where it is used
  ];
  return g.pick(bad)();
}

const BAD_OPTION_OBJECTS = [5, 'scale', true, Symbol('o')];
function brokenOptions() {
  return g.pick([
    () => g.pick(BAD_OPTION_OBJECTS),
    () => ({ scale: g.pick(['yes', 1, 0, null, {}]) }),
    () => ({ maskedValue: g.pick([NaN, 'big', null, {}, 5n]) }),
  ])();
}

// ---- float64 references, written independently of the core ----
function softmaxF64(m) {
  const out = new Float64Array(m.data.length);
  for (let i = 0; i < m.rows; i++) {
    const r = Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
    const top = Math.max(...r);
    const e = r.map((v) => Math.exp(v - top));
    const sum = e.reduce((a, b) => a + b, 0);
    e.forEach((v, j) => (out[i * m.cols + j] = v / sum));
  }
  return out;
}

function closeTo(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++)
    if (!(Math.abs(actual[i] - expected[i]) <= tolerance))
      assert.fail(`${what}[${i}] = ${actual[i]}, expected ${expected[i]} within ${tolerance}`);
}

function rowsSumToOne(m, what, tolerance = 1e-5) {
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let j = 0; j < m.cols; j++) s += m.data[i * m.cols + j];
    if (!(Math.abs(s - 1) <= tolerance)) assert.fail(`${what}: row ${i} sums to ${s}`);
  }
}

const sliceCols = (m, from, to) => {
  const out = new Float32Array(m.rows * (to - from));
  for (let i = 0; i < m.rows; i++)
    for (let j = from; j < to; j++) out[i * (to - from) + j - from] = m.data[i * m.cols + j];
  return { rows: m.rows, cols: to - from, data: out };
};
function affine(x, w, b) {
  const out = new Float64Array(x.rows * w.cols);
  for (let i = 0; i < x.rows; i++)
    for (let j = 0; j < w.cols; j++) {
      let s = b.data[j];
      for (let c = 0; c < x.cols; c++) s += x.data[i * x.cols + c] * w.data[c * w.cols + j];
      out[i * w.cols + j] = s;
    }
  return { rows: x.rows, cols: w.cols, data: out };
}
/** Multi-head attention from the layer's own parameters, in float64. */
function multiHeadF64(p, heads, keyDim, q, k, v, mask) {
  const [Q, K, V] = [
    affine(q, p.query.weight, p.query.bias),
    affine(k, p.key.weight, p.key.bias),
    affine(v, p.value.weight, p.value.bias),
  ];
  const concat = { rows: q.rows, cols: heads * keyDim, data: new Float64Array(q.rows * heads * keyDim) };
  const weights = [];
  for (let h = 0; h < heads; h++) {
    const r = attentionF64(
      sliceCols(Q, h * keyDim, (h + 1) * keyDim),
      sliceCols(K, h * keyDim, (h + 1) * keyDim),
      sliceCols(V, h * keyDim, (h + 1) * keyDim),
      { mask },
    );
    weights.push(r.weights);
    for (let i = 0; i < q.rows; i++)
      for (let c = 0; c < keyDim; c++) concat.data[i * concat.cols + h * keyDim + c] = r.output.data[i * keyDim + c];
  }
  return { output: affine(concat, p.output.weight, p.output.bias), weights };
}

// ---- the valid calls, each checking its result ----
const valid = {
  softmax() {
    const m = randomMat(g.int(1, 6), g.int(1, 6), g.pick([1, 10, 100]));
    const r = core.softmax(m);
    closeTo(r.data, softmaxF64(m), 1e-6, 'softmax');
    rowsSumToOne(r, 'softmax');
  },
  attention() {
    const [nq, nk, dk, dv] = [g.int(1, 5), g.int(1, 5), g.int(1, 6), g.int(1, 4)];
    const q = randomMat(nq, dk),
      k = randomMat(nk, dk),
      v = randomMat(nk, dv);
    const mask = g.chance(0.5) ? randomMask(nq, nk) : undefined;
    const scale = g.chance(0.8);
    const r = core.attention(q, k, v, mask ? { mask, scale } : { scale });
    const ref = attentionF64(q, k, v, { mask, scale });
    closeTo(r.weights.data, ref.weights.data, 1e-5, 'attention weights');
    closeTo(r.output.data, ref.output.data, 1e-4, 'attention output');
    rowsSumToOne(r.weights, 'attention weights');
  },
  selfAttention() {
    const x = randomMat(g.int(1, 6), g.int(1, 6));
    const r = core.attention(x, x, x);
    closeTo(r.weights.data, attentionF64(x, x, x).weights.data, 1e-5, 'self-attention weights');
  },
  masks() {
    const n = g.int(1, 8),
      nk = g.int(1, 8),
      real = g.int(1, nk);
    const causal = core.causalMask(n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) assert.equal(causal.data[i * n + j], j <= i ? 1 : 0, 'causal mask');
    const padding = core.paddingMask(n, nk, real);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < nk; j++) assert.equal(padding.data[i * nk + j], j < real ? 1 : 0, 'padding mask');
    const a = randomMask(n, nk),
      b = randomMask(n, nk);
    const both = core.combineMasks(a, b);
    assert.deepEqual(
      Array.from(both.data),
      Array.from(a.data, (x, i) => x & b.data[i]),
      'combineMasks',
    );
    const ones = a.data.reduce((s, x) => s + x, 0);
    assert.equal(core.allowedFraction(a), ones / a.data.length, 'allowedFraction');
  },
  multiHead() {
    const heads = g.int(1, 3),
      keyDim = g.int(1, 3),
      d = heads * keyDim * g.int(1, 2);
    const spec = { dModel: d, numHeads: heads, keyDim, weights: { seed: g.int(0, 1000) } };
    const nq = g.int(1, 4),
      nk = g.int(1, 4);
    const q = randomMat(nq, d),
      k = randomMat(nk, d),
      v = randomMat(nk, d);
    const mask = g.chance(0.4) ? randomMask(nq, nk) : undefined;
    const layer = core.createMultiHead(spec);
    try {
      const r = layer.forward(q, k, v, mask);
      const ref = multiHeadF64(layer.parameters(), heads, keyDim, q, k, v, mask);
      closeTo(r.output.data, ref.output.data, 1e-4, 'multi-head output');
      assert.equal(r.weights.length, heads);
      r.weights.forEach((w, h) => {
        closeTo(w.data, ref.weights[h].data, 1e-5, `head ${h} weights`);
        rowsSumToOne(w, `head ${h} weights`);
      });
      assert.equal(layer.parameterCount, 3 * (d * heads * keyDim + heads * keyDim) + heads * keyDim * d + d);
      // The one-call form builds the same layer from the same seed.
      const once = core.multiHeadAttention(spec, q, k, v, mask);
      assert.deepEqual(once.output.data, r.output.data, 'multiHeadAttention = createMultiHead + forward');
    } finally {
      layer.dispose();
    }
  },
  random() {
    const seed = g.int(0, 2 ** 31);
    const a = core.random(seed),
      b = core.random(seed);
    const n = g.int(1, 20);
    const u = a.uniform(n);
    assert.deepEqual(u, b.uniform(n), 'same seed, same draws');
    for (const x of u) assert.ok(x >= 0 && x < 1, `uniform draw ${x}`);
    const c = a.clone();
    assert.deepEqual(a.normal(5), c.normal(5), 'a clone continues the same stream');
    const m = a.uniformMatrix(g.int(1, 4), g.int(1, 4), -2, 3);
    for (const x of m.data) assert.ok(x >= -2 && x <= 3, `uniformMatrix draw ${x}`);
    assert.equal(a.normalMatrix(2, 3).data.length, 6);
  },
  scaleSweep() {
    const tokens = g.int(2, 5);
    const r = core.scaleSweep({ dks: [g.int(1, 8)], draws: g.int(1, 3), tokens, seed: g.int(0, 99) });
    assert.ok(Math.abs(r.uniform.maxWeight - 1 / tokens) < 1e-6, 'uniform max weight');
    assert.ok(Math.abs(r.uniform.entropy - Math.log(tokens)) < 1e-6, 'uniform entropy');
    for (const side of ['scaled', 'unscaled']) {
      const m = r.rows[0][side];
      assert.ok(
        m.maxWeight.mean >= 1 / tokens - 1e-6 && m.maxWeight.mean <= 1,
        `${side} max weight ${m.maxWeight.mean}`,
      );
      assert.ok(
        m.entropy.mean >= -1e-6 && m.entropy.mean <= Math.log(tokens) + 1e-6,
        `${side} entropy ${m.entropy.mean}`,
      );
    }
  },
  maskDemo() {
    const positions = g.int(1, 6),
      real = g.int(1, positions);
    const r = core.maskDemo({ positions, real, dK: g.int(1, 4), seed: g.int(0, 99) });
    assert.equal(r.cases.length, 3);
    for (const c of r.cases) {
      assert.equal(c.blockedExactlyZero, true, `${c.name}: blocked weights are 0`);
      for (const s of c.rowSums) assert.ok(Math.abs(s - 1) < 1e-6, `${c.name}: row sum ${s}`);
    }
  },
  headsDemo() {
    const heads = g.int(2, 4),
      d = heads * g.int(1, 3),
      tokens = g.int(1, 4);
    const r = core.headsDemo({ dModel: d, numHeads: heads, tokens, seed: g.int(0, 99) });
    assert.equal(r.multi.weights.length, heads);
    for (const w of r.multi.weights) rowsSumToOne({ rows: tokens, cols: tokens, data: w }, 'headsDemo weights', 1e-6);
  },
  halfPrecisionPitfall() {
    const positions = g.int(2, 5),
      real = g.int(1, positions - 1);
    const r = core.halfPrecisionPitfall({ positions, real, dK: g.int(1, 4), seed: g.int(0, 99) });
    const f32 = r.cases.find((c) => c.precision === 'float32' && c.constant === '-1e9');
    assert.ok(f32 && f32.allFinite, 'float32 with -1e9 stays finite');
    for (const s of f32.rowSums) assert.ok(Math.abs(s - 1) < 1e-5, `float32 row sum ${s}`);
  },
  cueModel() {
    const model = core.createCueModel({ blocks: 1, heads: 1, epochs: 1, batchSize: 4, length: 4, seed: g.int(0, 99) });
    try {
      assert.equal(model.trainBatches(1), 1);
      const p = model.progress();
      assert.equal(p.batch, 1);
      assert.ok(Number.isFinite(p.lastBatch.loss) && p.lastBatch.loss > 0, `loss ${p.lastBatch.loss}`);
      assert.throws(
        () => model.trainBatches(g.pick([0, -1, 1.5, NaN, 'x', 1e10])),
        (e) => e instanceof Error && e.message.length > 0,
      );
      assert.equal(model.progress().batch, 1, 'a refused call trains nothing');
    } finally {
      model.dispose();
    }
  },
  helpers() {
    const rows = g.int(1, 4),
      cols = g.int(1, 4);
    const flat = Array.from({ length: rows * cols }, () => g.int(-9, 9));
    const m = mat(rows, cols, flat);
    const nested = mat(
      rows,
      cols,
      Array.from({ length: rows }, (_, i) => flat.slice(i * cols, (i + 1) * cols)),
    );
    assert.deepEqual(m, nested);
    const i = g.int(0, rows - 1);
    assert.deepEqual(Array.from(row(m, i)), flat.slice(i * cols, (i + 1) * cols));
    assert.deepEqual(
      Array.from(maskMat(rows, cols, flat).data),
      flat.map((x) => (x ? 1 : 0)),
    );
  },
};

// ---- the malformed calls: each returns a thunk that must throw ----
const layer4 = { dModel: 4, numHeads: 2, weights: { seed: 1 } };
const bad = {
  softmax: () => () => core.softmax(g.chance(0.2) ? mat(g.int(0, 1), 0) : brokenMat(g.int(1, 4), g.int(1, 4))),
  attention: () => {
    const q = randomMat(2, 3),
      k = randomMat(4, 3),
      v = randomMat(4, 2);
    return g.pick([
      () => () => core.attention(brokenMat(2, 3), k, v),
      () => () => core.attention(q, brokenMat(4, 3), v),
      () => () => core.attention(q, k, brokenMat(4, 2)),
      () => () => core.attention(q, randomMat(4, 2), v), // d_k differs
      () => () => core.attention(q, k, randomMat(3, 2)), // n_k differs
      () => () => core.attention(q, k, v, brokenOptions()),
      () => () => core.attention(q, k, v, { mask: brokenMask(2, 4) }),
      () => () => core.attention(q, k, v, { mask: randomMask(4, 2) }),
      () => () => core.attention(randomMat(5000, 1), randomMat(5000, 1), randomMat(5000, 1)), // 25e6 weights
    ])();
  },
  causalMask: () => () => core.causalMask(g.pick([...BAD_SIZES, 0, 4097, 16385])),
  paddingMask: () => () =>
    g.pick([
      () => core.paddingMask(g.pick(BAD_SIZES), 3, 2),
      () => core.paddingMask(3, g.pick(BAD_SIZES), 2),
      () => core.paddingMask(3, 4, g.pick([...BAD_SIZES, 0, 5])),
      () => core.paddingMask(0, 4, 2),
      () => core.paddingMask(1e9, 1e9, 1),
    ])(),
  combineMasks: () => () =>
    g.pick([
      () => core.combineMasks(brokenMask(3, 3), randomMask(3, 3)),
      () => core.combineMasks(randomMask(3, 3), brokenMask(3, 3)),
      () => core.combineMasks(randomMask(3, 3), randomMask(3, 4)),
    ])(),
  allowedFraction: () => () =>
    core.allowedFraction(
      g.chance(0.2) ? { rows: 0, cols: 2, data: new Uint8Array(0) } : brokenMask(2, 3, { shapeMatters: false }),
    ),
  multiHeadAttention: () => {
    const x = randomMat(3, 4);
    return g.pick([
      () => () => core.multiHeadAttention(g.pick([null, 5, 'layer', []]), x, x, x),
      () => () => core.multiHeadAttention({ ...layer4, dModel: g.pick([...BAD_SIZES, 0]) }, x, x, x),
      () => () => core.multiHeadAttention({ ...layer4, numHeads: g.pick([...BAD_SIZES, 0, 3, 5]) }, x, x, x),
      () => () => core.multiHeadAttention({ ...layer4, keyDim: g.pick([-1, 1.5, NaN, '2', 1e9]) }, x, x, x),
      () => () =>
        core.multiHeadAttention(
          { ...layer4, weights: g.pick([null, undefined, {}, 7, { seed: g.pick(BAD_SEEDS) }]) },
          x,
          x,
          x,
        ),
      () => () =>
        core.multiHeadAttention(
          {
            ...layer4,
            weights: {
              pytorch: {
                inProjWeight: randomMat(12, 5),
                inProjBias: new Float32Array(12),
                outProjWeight: randomMat(4, 4),
                outProjBias: new Float32Array(4),
              },
            },
          },
          x,
          x,
          x,
        ),
      () => () =>
        core.multiHeadAttention(
          { ...layer4, weights: { pytorch: g.pick([null, 3, { inProjWeight: brokenMat(12, 4) }]) } },
          x,
          x,
          x,
        ),
      () => () =>
        core.multiHeadAttention(
          {
            ...layer4,
            weights: {
              query: { weight: randomMat(4, 4), bias: new Float32Array(3) },
              key: { weight: randomMat(4, 4), bias: new Float32Array(4) },
              value: { weight: randomMat(4, 4), bias: new Float32Array(4) },
              output: g.pick([null, { weight: brokenMat(4, 4), bias: new Float32Array(4) }]),
            },
          },
          x,
          x,
          x,
        ),
      () => () => core.multiHeadAttention(layer4, brokenMat(3, 4), x, x),
      () => () => core.multiHeadAttention(layer4, randomMat(3, 5), x, x), // d differs
      () => () => core.multiHeadAttention(layer4, x, x, x, brokenMask(3, 3)),
      () => () => core.multiHeadAttention(layer4, x, x, x, undefined, brokenOptions()),
      () => () => core.multiHeadAttention({ dModel: 1e5, numHeads: 1, weights: { seed: 1 } }, x, x, x),
      () => () => core.multiHeadAttention({ dModel: 16000, numHeads: 1, weights: { seed: 1 } }, x, x, x),
    ])();
  },
  layerAfterDispose: () => {
    const layer = core.createMultiHead(layer4);
    layer.dispose();
    const x = randomMat(2, 4);
    return g.pick([() => layer.forward(x, x, x), () => layer.parameters()]);
  },
  random: () => {
    const r = core.random(g.int(0, 100));
    return g.pick([
      () => core.random(g.pick(BAD_SEEDS)),
      () => r.uniform(g.pick([...BAD_SIZES, 2 ** 24 + 1])),
      () => r.normal(g.pick([...BAD_SIZES, 2 ** 24 + 1])),
      () => r.normalMatrix(g.pick([...BAD_SIZES, 0]), 3),
      () => r.normalMatrix(1e5, 1e4),
      () => r.uniformMatrix(2, 2, g.pick([NaN, Infinity, '0', null, 5]), g.pick([NaN, -Infinity, '1', undefined, 4])),
    ]);
  },
  scaleSweep: () => () =>
    core.scaleSweep(
      g.pick([
        () => g.pick([null, 5, 'sweep', true]),
        () => ({
          dks: g.pick([[], [0], [4097], [1.5], [NaN], ['4'], 'abc', 7, new Array(65).fill(4), new Array(1e6).fill(4)]),
        }),
        () => ({ dks: [4], draws: g.pick([0, -1, 1.5, NaN, '2', 1e9]) }),
        () => ({ dks: [4], tokens: g.pick([0, 1, 4097, NaN, '3', 1e12]) }),
        () => ({ dks: [4], seed: g.pick([-1, 1.5, NaN, '1', 2 ** 53]) }),
        () => ({ dks: [4096], draws: 100000, tokens: 4096 }), // beyond the core's work bound
      ])(),
    ),
  maskDemo: () => () =>
    core.maskDemo(
      g.pick([
        () => g.pick([null, 5, 'x']),
        () => ({ positions: g.pick([0, -1, 1.5, NaN, '4', 1025, 1e9]) }),
        () => ({ positions: 4, real: g.pick([0, 5, -1, NaN, '2']) }),
        () => ({ dK: g.pick([0, 1025, 1.5, 1e9]) }),
        () => ({ seed: g.pick([-1, 0.5, NaN, null]) }),
      ])(),
    ),
  headsDemo: () => () =>
    core.headsDemo(
      g.pick([
        () => g.pick([null, 5, 'x']),
        () => ({ dModel: g.pick([0, -1, 1.5, NaN, '64', 1025, 1e9]) }),
        () => ({ dModel: 10, numHeads: g.pick([1, 3, 11, 0, NaN]) }),
        () => ({ tokens: g.pick([0, 257, -1, 1e9]) }),
        () => ({ seed: g.pick([-1, 0.5, NaN]) }),
      ])(),
    ),
  halfPrecisionPitfall: () => () =>
    core.halfPrecisionPitfall(
      g.pick([
        () => g.pick([null, 5, 'x']),
        () => ({ positions: g.pick([0, 1, 1025, NaN, '6', 1e9]) }),
        () => ({ positions: 4, real: g.pick([0, 4, 5, NaN]) }),
        () => ({ dK: g.pick([0, 1025, -3, 1e9]) }),
        () => ({ seed: g.pick([-1, 0.5, NaN]) }),
      ])(),
    ),
  createCueModel: () => () =>
    core.createCueModel(
      g.pick([
        () => g.pick([null, 5, 'cue', true]),
        () => ({ blocks: g.pick([0, 9, -1, 1.5, NaN, '2', 1e10, 2 ** 32 + 1]) }),
        () => ({ heads: g.pick([0, 33, 1.5, 1e10]) }),
        () => ({ epochs: g.pick([0, 1001, -5, 1e9]) }),
        () => ({ batchSize: g.pick([0, 4097, 1e9, 0.5]) }),
        () => ({ learningRate: g.pick([0, -1, NaN, Infinity, 'x', 11]) }),
        () => ({ dropout: g.pick([1, -0.1, NaN, 'x']) }),
        () => ({ length: g.pick([0, 2, 65, 1e9]) }),
        () => ({ seed: g.pick([-1, 1.5, NaN, 2 ** 53]) }),
        () => ({ postLayerNorm: g.pick(['yes', 1, {}]) }),
        () => ({ lastQueryOnly: g.pick(['no', 0]) }),
      ])(),
    ),
  cueAfterDispose: () => {
    const model = core.createCueModel({ blocks: 1, heads: 1, epochs: 1, batchSize: 4, length: 4 });
    model.dispose();
    return g.pick([
      () => model.trainBatches(1),
      () => model.trainEpoch(),
      () => model.progress(),
      () => model.analysis(),
      () => model.report(),
    ]);
  },
  helpers: () => () =>
    g.pick([
      () => mat(1e5, 1e4), // 1e9 values: refused before a 4 GB array is made
      () => mat(1e5, 1e4, 0),
      () => maskMat(1e9, 1, []),
      () => mat(g.pick(BAD_SIZES), 2),
      () => mat(2, 2, g.pick([[1, 2, 3], [[1, 2], [3]], [1, 'a', 3, 4], 'abcd', null, {}])),
      () =>
        maskMat(
          2,
          2,
          g.pick([
            [1, 0, 1],
            [1, 'a', 0, 1],
            [[1, 0], [1]],
          ]),
        ),
      () => row(mat(2, 2), g.pick([-1, 2, 1.5, NaN, '0'])),
    ])(),
};

// The same calls, in the same order, before and after the fuzzing: the core keeps the latest
// result of each kind in a slot, so this puts every slot back to the same size.
function settle() {
  const x = mat(4, 4, 0.25);
  core.softmax(x);
  core.attention(x, x, x, { mask: core.causalMask(4) });
  core.paddingMask(4, 4, 2);
  core.multiHeadAttention(layer4, x, x, x);
  const r = core.random(1);
  r.uniform(8);
  r.normalMatrix(2, 2);
  core.scaleSweep({ dks: [4], draws: 2, tokens: 3 });
  core.maskDemo({ positions: 4, real: 2, dK: 2 });
  core.headsDemo({ dModel: 4, numHeads: 2, tokens: 2 });
  core.halfPrecisionPitfall({ positions: 3, real: 2, dK: 2 });
  core.createCueModel({ blocks: 1, heads: 1, epochs: 1, batchSize: 4, length: 4 }).dispose();
}

function snapshot() {
  const { heapBytes, liveAllocations, emvalHandles, stackPointer } = core.memoryStats();
  return { heapBytes, liveAllocations, emvalHandles, stackPointer };
}

test(`${CALLS} seeded calls (seed ${SEED}): malformed ones throw an Error, valid ones stay right, nothing leaks`, (t) => {
  // Warm up: every slot, the scratch area and the error string reach their working sizes.
  for (const make of Object.values(bad)) assert.throws(make());
  for (const check of Object.values(valid)) check();
  settle();
  const before = snapshot();
  const usedBefore = core.memoryStats().usedBytes;
  const started = performance.now();

  const validNames = Object.keys(valid),
    badNames = Object.keys(bad);
  const counts = { valid: 0, thrown: 0 };
  const perFunction = {};
  for (let i = 0; i < CALLS; i++) {
    const isBad = g.chance(0.5);
    const name = isBad ? g.pick(badNames) : g.pick(validNames);
    perFunction[name] = (perFunction[name] ?? 0) + 1;
    if (!isBad) {
      try {
        valid[name]();
      } catch (error) {
        assert.fail(`call ${i} (valid ${name}, seed ${SEED}): ${error.stack ?? error}`);
      }
      counts.valid++;
      continue;
    }
    let call;
    try {
      call = bad[name]();
    } catch (error) {
      assert.fail(`call ${i}: building the malformed ${name} call failed: ${error.stack ?? error}`);
    }
    let thrown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    if (thrown === undefined) assert.fail(`call ${i} (malformed ${name}, seed ${SEED}) did not throw: ${call}`);
    if (!(thrown instanceof Error) || typeof thrown.message !== 'string' || thrown.message.length === 0)
      assert.fail(`call ${i} (malformed ${name}, seed ${SEED}) threw ${String(thrown)}, not an Error with a message`);
    counts.thrown++;
  }
  settle();
  const after = snapshot();
  const seconds = (performance.now() - started) / 1000;
  t.diagnostic(
    `calls ${CALLS}: valid ${counts.valid}, malformed (all threw an Error) ${counts.thrown}, ${seconds.toFixed(1)} s`,
  );
  t.diagnostic(`per function ${JSON.stringify(perFunction)}`);
  t.diagnostic(`before ${JSON.stringify({ ...before, usedBytes: usedBefore })}`);
  t.diagnostic(`after  ${JSON.stringify({ ...after, usedBytes: core.memoryStats().usedBytes })}`);
  assert.equal(counts.valid + counts.thrown, CALLS);
  assert.ok(counts.thrown > CALLS * 0.4 && counts.valid > CALLS * 0.4, 'both kinds of call were made');
  assert.deepEqual(after, before);
  // And the module still answers a plain call exactly.
  const x = mat(2, 2, [1, 0, 0, 1]);
  closeTo(core.softmax(x).data, softmaxF64(x), 1e-7, 'softmax after fuzzing');
});

test('requests for about 1e9 values are refused with an Error before anything is allocated', (t) => {
  settle();
  const x = mat(3, 4, 0.5);
  const huge = [
    ['mat(1e5, 1e4)', () => mat(1e5, 1e4)],
    ['maskMat(1e9, 1)', () => maskMat(1e9, 1, [])],
    ['softmax of a (1e9, 1) matrix', () => core.softmax({ rows: 1e9, cols: 1, data: new Float32Array(1) })],
    ['attention with (31623, 31623) weights', () => core.attention(mat(31623, 1), mat(31623, 1), mat(31623, 1))],
    ['causalMask(31623)', () => core.causalMask(31623)],
    ['paddingMask(1e5, 1e4, 1)', () => core.paddingMask(1e5, 1e4, 1)],
    [
      'a layer of (31623, 31623) projections',
      () => core.createMultiHead({ dModel: 31623, numHeads: 1, weights: { seed: 1 } }),
    ],
    [
      'a layer with keyDim 1e9',
      () =>
        core.multiHeadAttention(
          { dModel: 1, numHeads: 1, keyDim: 1e9, weights: { seed: 1 } },
          mat(1, 1),
          mat(1, 1),
          mat(1, 1),
        ),
    ],
    ['1e9 uniform draws', () => core.random(1).uniform(1e9)],
    ['a (1e5, 1e4) normal matrix', () => core.random(1).normalMatrix(1e5, 1e4)],
    ['a scale sweep over 1e6 key widths', () => core.scaleSweep({ dks: new Array(1e6).fill(4) })],
    ['a cue model of 1e9 blocks', () => core.createCueModel({ blocks: 1e9 })],
  ];
  for (const [what, call] of huge) {
    const before = core.memoryStats();
    const started = performance.now();
    assert.throws(call, (e) => e instanceof Error && e.message.length > 0, what);
    const ms = performance.now() - started;
    const after = core.memoryStats();
    t.diagnostic(`${what}: refused in ${ms.toFixed(1)} ms`);
    // Bytes in use too: nothing was allocated (no Eigen block, whose size could vary with its address).
    for (const field of ['heapBytes', 'usedBytes', 'liveAllocations', 'emvalHandles', 'stackPointer'])
      assert.equal(after[field], before[field], `${what}: ${field}`);
    assert.deepEqual(core.attention(x, x, x).weights.data, mat(3, 3, 1 / 3).data, `${what}: the module still works`);
  }
});
