// The seeded generator in WebAssembly draws exactly the native attn::Random's numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadCore, nativePath, readCases } from './helpers.mjs';

const core = await loadCore();
const draws = readCases(nativePath).filter((c) => c.kind === 'random');

// Number of positions where two sequences differ bit for bit (a float32 record compares
// against the float32 value of the native double it was printed from).
function mismatches(actual, expected, round = (x) => x) {
  assert.equal(actual.length, expected.length);
  let count = 0;
  for (let i = 0; i < actual.length; i++) if (!Object.is(actual[i], round(expected[i]))) count++;
  return count;
}

test('the native draws cover several seeds, up to 2^53 - 1', () => {
  assert.ok(draws.length >= 5);
  assert.ok(draws.some((c) => c.params.seed === Number.MAX_SAFE_INTEGER));
});

for (const c of draws) {
  const seed = c.params.seed;
  test(`seed ${seed}: uniform, normal and matrix draws identical to native`, (t) => {
    const rng = core.random(seed);
    const expected = c.tensors;
    // Drawn in several batches: the state carried between calls must continue the stream.
    const uniform = new Float64Array(expected.uniform.values.length);
    for (let at = 0, step = 1; at < uniform.length; at += step, step = Math.min(step * 3, uniform.length - at))
      uniform.set(rng.uniform(Math.min(step, uniform.length - at)), at);
    const normal = Float64Array.of(...rng.normal(1), ...rng.normal(expected.normal.values.length - 1));
    const normalMatrix = rng.normalMatrix(7, 9);
    const uniformMatrix = rng.uniformMatrix(3, 5, -0.5, 2.0);
    const after = rng.uniform(1);
    const total = uniform.length + normal.length + normalMatrix.data.length + uniformMatrix.data.length + 1;
    t.diagnostic(`${total} draws compared bit for bit`);
    assert.equal(mismatches(uniform, expected.uniform.values), 0);
    assert.equal(mismatches(normal, expected.normal.values), 0);
    assert.equal(mismatches(normalMatrix.data, expected.normal_matrix.values, Math.fround), 0);
    assert.equal(mismatches(uniformMatrix.data, expected.uniform_matrix.values, Math.fround), 0);
    assert.equal(mismatches(after, expected.uniform_after.values), 0);
  });
}

test('two generators with one seed agree, clone() continues independently, another seed differs', () => {
  const a = core.random(7),
    b = core.random(7);
  a.normal(3); // an odd number of draws: the clone must carry the state mid-stream
  b.normal(3);
  const c = a.clone();
  const fromA = a.normal(5);
  assert.deepEqual(fromA, b.normal(5));
  assert.deepEqual(c.normal(5), fromA); // the clone was not advanced by a's draws
  assert.deepEqual(core.random(7).normal(8).slice(3), fromA); // one batch or several: same stream
  assert.notDeepEqual(core.random(8).uniform(4), core.random(7).uniform(4));
});

test('a failed draw leaves the stream where it was', () => {
  const a = core.random(3),
    b = core.random(3);
  assert.throws(() => a.uniformMatrix(2, 2, 1, 0), { message: /^lo and hi must be within float32 range with lo < hi/ });
  assert.throws(() => a.normalMatrix(0, 4), { message: /^rows and cols must be positive/ });
  assert.deepEqual(a.uniform(10), b.uniform(10));
});

test('seeds must be whole numbers in [0, 2^53 - 1]', () => {
  for (const bad of [-1, 0.5, 2 ** 53, NaN, Infinity, '3', null, undefined, 10n])
    assert.throws(
      () => core.random(bad),
      { message: /^seed must be a whole number between 0 and 2\^53 - 1, got / },
      String(bad),
    );
  assert.equal(core.random(0).uniform(1).length, 1);
});
