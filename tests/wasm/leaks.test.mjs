// Nothing accumulates: 10,000 attention calls and 1,000 failing calls (plus multi-head layers
// built and disposed, and generator draws) leave the WebAssembly heap size, the bytes in use,
// the number of live heap blocks, the embind handle count and the stack pointer where they were.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { facade, loadCore, softLookup } from './helpers.mjs';

const core = await loadCore();
const { mat } = facade;
const { query, keys, values } = softLookup;
const mask = { rows: 1, cols: 5, data: Uint8Array.of(1, 1, 1, 0, 0) };
const rng = core.random(11);
const x = rng.normalMatrix(12, 64);
const layerSpec = { dModel: 64, numHeads: 4, weights: { seed: 2 } };

// One round of everything the facade offers, each with the sizes the loop below uses.
function valid(i) {
  core.attention(query, keys, values, i % 2 ? { mask } : undefined);
  if (i % 10 === 0) core.attention(x, x, x, { mask: core.causalMask(12) });
}

const failing = [
  () => core.attention(query, mat(5, 3), values), // core: mismatched d_k
  () => core.attention(query, keys, values, { mask: core.causalMask(5) }), // core: mask shape
  () => core.softmax(mat(1, 2, [NaN, 0])), // core: not finite
  () => core.causalMask(0), // core: out of range
  () => core.createMultiHead({ dModel: 10, numHeads: 3, weights: { seed: 1 } }), // core: constructor
  () => core.multiHeadAttention(layerSpec, mat(2, 5), x, x), // core, after a layer was built
  () => rng.uniformMatrix(2, 2, 1, 0), // core: bad range
  () => core.attention({ rows: 1, cols: 2, data: new Float32Array(3) }, keys, values), // facade
];

// Exact figures: heap size, live blocks, embind handles, the stack pointer. Bytes in use are
// compared within USED_BYTES_SLACK: Eigen allocates its matrices aligned (memalign), and the
// size of such a block's chunk depends on the address it lands at, so the same live blocks can
// add up to a few bytes more or less.
const USED_BYTES_SLACK = 64;

function snapshot() {
  const { heapBytes, liveAllocations, emvalHandles, stackPointer } = core.memoryStats();
  return { heapBytes, liveAllocations, emvalHandles, stackPointer };
}

function assertUsedBytesClose(after, before) {
  assert.ok(Math.abs(after - before) <= USED_BYTES_SLACK, `bytes in use ${before} -> ${after}`);
}

test('10,000 attention calls and 1,000 failing calls leave the heap as it was', (t) => {
  // Warm up: the result slots, scratch and error string reach their working sizes.
  for (let i = 0; i < 20; i++) valid(i);
  for (const f of failing) assert.throws(f);
  void core.multiHeadAttention(layerSpec, x, x, x, core.causalMask(12)).output;
  rng.normal(100);
  const before = snapshot();
  const usedBefore = core.memoryStats().usedBytes;

  for (let i = 0; i < 10000; i++) valid(i);
  for (let i = 0; i < 1000; i++) assert.throws(failing[i % failing.length], Error);
  for (let i = 0; i < 200; i++) core.multiHeadAttention(layerSpec, x, x, x, core.causalMask(12));
  for (let i = 0; i < 200; i++) rng.normal(100);

  const after = snapshot();
  t.diagnostic(`before ${JSON.stringify(before)}`);
  t.diagnostic(`after  ${JSON.stringify(after)}`);
  assert.deepEqual(after, before);
  assertUsedBytesClose(core.memoryStats().usedBytes, usedBefore);
});

test('a kept layer is freed by dispose(): live blocks return to where they were', () => {
  const before = snapshot();
  const usedBefore = core.memoryStats().usedBytes;
  const layers = Array.from({ length: 50 }, (_, i) => core.createMultiHead({ ...layerSpec, weights: { seed: i } }));
  assert.ok(snapshot().liveAllocations > before.liveAllocations, 'layers should occupy heap blocks');
  for (const layer of layers) layer.dispose();
  const after = snapshot();
  assert.equal(after.liveAllocations, before.liveAllocations);
  assertUsedBytesClose(core.memoryStats().usedBytes, usedBefore);
});

test('results stay valid after the heap grows (views are taken after each call)', () => {
  const first = core.attention(query, keys, values);
  const heap = snapshot().heapBytes;
  const big = rng.normalMatrix(1500, 64); // the (1500, 1500) weights need more memory
  const r = core.attention(big, big, big);
  assert.ok(snapshot().heapBytes > heap, 'expected the heap to grow');
  let sum = 0;
  for (let j = 0; j < 1500; j++) sum += r.weights.data[j];
  assert.ok(Math.abs(sum - 1) < 1e-4);
  assert.deepEqual(core.attention(query, keys, values).weights.data, first.weights.data);
});

test('1,000 probes, weight loads and step-by-step calls, failing ones too, leave the heap as it was', (t) => {
  const model = core.createCueModel({ blocks: 2, heads: 2, epochs: 1 });
  const weights = model.weights();
  const tokens = [3, 1, 7, 5, 0, 6, 2, 2, 4, 7];
  const given = {
    query: mat(3, 2, [1, 0, 0, 1, 1, 1]),
    key: mat(3, 2, [1, 0, 0, 1, 1, 1]),
    value: mat(3, 1, [1, 2, 3]),
  };
  const round = (i) => {
    model.probe(tokens);
    model.loadWeights(weights);
    core.attentionSteps({ causal: i % 2 === 0 });
    core.attentionSteps({}, given);
    assert.throws(() => model.probe([1, 2]));
    assert.throws(() => model.loadWeights(new Float32Array(5)));
    assert.throws(() => core.attentionSteps({ tokens: 9 }));
    assert.throws(() => core.attentionSteps({}, { ...given, query: mat(3, 2, NaN) }));
  };
  for (let i = 0; i < 10; i++) round(i);
  const before = snapshot();
  const usedBefore = core.memoryStats().usedBytes;
  for (let i = 0; i < 1000; i++) round(i);
  const after = snapshot();
  t.diagnostic(`before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
  assert.deepEqual(after, before);
  assertUsedBytesClose(core.memoryStats().usedBytes, usedBefore);
  model.dispose();
});
