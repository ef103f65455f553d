// What the facade promises beyond matching the references: the lesson's mask figures, the
// options of attention, the layer API, and the plain-data helpers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { attentionF64, facade, loadCore, maxAbsDiff, softLookup } from './helpers.mjs';

const core = await loadCore();
const { mat, maskMat, row } = facade;

test("the lesson's mask table: causal 0.5500, padding 0.6000, both 0.4500 (exact fractions)", () => {
  const causal = core.causalMask(10);
  const padding = core.paddingMask(10, 10, 6);
  const both = core.combineMasks(causal, padding);
  assert.equal(core.allowedFraction(causal), 55 / 100);
  assert.equal(core.allowedFraction(padding), 60 / 100);
  assert.equal(core.allowedFraction(both), 45 / 100);
  assert.deepEqual(Array.from(row(causal, 2)), [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(row(padding, 9)), [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(row(both, 8)), [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
});

test('blocked pairs get exactly 0 weight and rows still sum to 1', () => {
  const r = core.attention(
    core.random(1).normalMatrix(10, 16),
    core.random(2).normalMatrix(10, 16),
    core.random(3).normalMatrix(10, 4),
    { mask: core.causalMask(10) },
  );
  for (let i = 0; i < 10; i++) {
    const w = row(r.weights, i);
    for (let j = i + 1; j < 10; j++) assert.equal(w[j], 0);
    assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  }
});

test('soft lookup (1 query, 5 keys, d = 2), with and without the scale, matches float64 within 1e-6', () => {
  const { query, keys, values } = softLookup;
  for (const scale of [true, false]) {
    const r = core.attention(query, keys, values, { scale });
    const e = attentionF64(query, keys, values, { scale });
    assert.ok(maxAbsDiff(r.weights, e.weights) <= 1e-6, `scale ${scale}`);
    assert.ok(maxAbsDiff(r.output, e.output) <= 1e-6, `scale ${scale}`);
  }
  // Without the scale the scores are larger, so the top weight is too.
  const top = (s) => Math.max(...core.attention(query, keys, values, { scale: s }).weights.data);
  assert.ok(top(false) > top(true));
});

test('a fully masked row: uniform with a finite masked value, NaN with -Infinity', () => {
  const q = mat(1, 2, [1, 2]),
    k = mat(4, 2, [1, 0, 0, 1, 1, 1, -1, 0]),
    v = mat(4, 1, [1, 2, 3, 4]);
  const none = maskMat(1, 4, [0, 0, 0, 0]);
  const finite = core.attention(q, k, v, { mask: none });
  assert.deepEqual(Array.from(finite.weights.data), [0.25, 0.25, 0.25, 0.25]);
  assert.equal(finite.output.data[0], 2.5);
  const inf = core.attention(q, k, v, { mask: none, maskedValue: -Infinity });
  assert.ok(inf.weights.data.every(Number.isNaN));
});

test('softmax: rows sum to 1, large scores do not overflow', () => {
  const s = core.softmax(
    mat(2, 3, [
      [1, 2, 3],
      [1000, 1000, 1000],
    ]),
  );
  assert.ok(Math.abs(row(s, 0).reduce((a, b) => a + b) - 1) < 1e-6);
  assert.deepEqual(Array.from(row(s, 1)), [1 / 3, 1 / 3, 1 / 3].map(Math.fround));
});

test('multi-head: seeded layers are reproducible, 4 heads of 16 cost what 1 head of 64 costs', () => {
  const x = core.random(4).normalMatrix(10, 64);
  const a = core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 9 } }, x, x, x);
  const b = core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 9 } }, x, x, x);
  const one = core.multiHeadAttention({ dModel: 64, numHeads: 1, weights: { seed: 9 } }, x, x, x);
  assert.deepEqual(a.output.data, b.output.data);
  assert.equal(a.weights.length, 4);
  assert.equal(a.parameterCount, 16640);
  assert.equal(one.parameterCount, a.parameterCount);
  assert.equal(a.weights[0].rows, 10);
  assert.equal(a.weights[0].cols, 10);
});

test('multi-head: seeded weights are Glorot uniform within their limit, biases zero', () => {
  const layer = core.createMultiHead({ dModel: 64, numHeads: 4, weights: { seed: 1 } });
  try {
    const p = layer.parameters();
    assert.equal(layer.keyDim, 16);
    // query kernel (d, h, k): fan_in d h = 256, fan_out d k = 1024
    const limit = Math.sqrt(6 / (256 + 1024));
    assert.equal(p.query.weight.rows, 64);
    assert.equal(p.query.weight.cols, 64);
    assert.ok(p.query.weight.data.every((w) => Math.abs(w) <= limit));
    assert.ok(Math.max(...p.query.weight.data.map(Math.abs)) > 0.9 * limit);
    assert.ok(p.output.bias.data.every((b) => b === 0));
  } finally {
    layer.dispose();
  }
});

test('mat(), maskMat() and row() take flat or nested data and copy it', () => {
  const nested = mat(2, 3, [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const flat = mat(2, 3, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(nested, flat);
  assert.deepEqual(mat(1, 2, 0.5).data, Float32Array.of(0.5, 0.5));
  assert.deepEqual(Array.from(row(nested, 1)), [4, 5, 6]);
  const source = Float32Array.of(1, 2);
  const copy = mat(1, 2, source);
  source[0] = 9;
  assert.equal(copy.data[0], 1);
  assert.deepEqual(maskMat(1, 3, [true, false, 1]).data, Uint8Array.of(1, 0, 1));
  assert.throws(() => row(nested, 2), /^Error: i must be a whole number between 0 and 1, got 2$/);
  assert.throws(() => mat(2, 2, [1, 2, 3]), /^Error: values must have rows \* cols = 4 values, got 3$/);
});
