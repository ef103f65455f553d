// The lesson's experiments through the WebAssembly facade (web/src/core.ts), checked against
// the native command's --json for the same arguments and seed: same draws, same figures.
//
// Run after scripts/build: node --test tests/wasm/
//   ATTN_WASM_FACADE   the compiled facade (default build-wasm/facade, see helpers.mjs)
//   ATTN_CLI           the native attention-lab (default build/cli/attention-lab)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { loadCore, root } from './helpers.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const core = await loadCore();

const native = (...args) => JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }));

// The draws are bit-identical (attn::Random); Eigen's products and exp may round differently
// in the two builds, and the JSON carries 9 significant digits: 1e-6 (relative to the size of
// the value when it is above 1) covers both.
const TOLERANCE = 1e-6;
// Unscaled scores spread as sqrt(d_k) (about 50 at d_k = 256), and a float32 rounding
// difference in a score grows with its size, so the unscaled figures get 2.5e-7 sqrt(d_k).
// Measured largest differences over seeds 0..3: 1.1e-6 at d_k 256, 3.8e-7 at 64.
const unscaledTolerance = (dk) => 2.5e-7 * Math.sqrt(dk);

function close(actual, expected, what, tolerance = TOLERANCE) {
  if (expected === null) {  // JSON's NaN
    assert.ok(Number.isNaN(actual), `${what}: expected NaN, got ${actual}`);
    return;
  }
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
            `${what}: wasm ${actual}, native ${expected}`);
}

function closeArrays(actual, expected, what, tolerance = TOLERANCE) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) close(actual[i], expected[i], `${what}[${i}]`, tolerance);
}

function compareSweep(wasm, json) {
  assert.equal(wasm.draws, json.draws);
  assert.equal(wasm.tokens, json.tokens);
  assert.equal(wasm.seed, json.seed);
  for (const key of ['max_weight', 'entropy', 'jacobian_norm']) {
    const camel = key.replace(/_(\w)/g, (_, c) => c.toUpperCase());
    close(wasm.uniform[camel], json.uniform[key], `uniform.${camel}`);
  }
  assert.equal(wasm.rows.length, json.rows.length);
  wasm.rows.forEach((row, i) => {
    const expected = json.rows[i];
    assert.equal(row.dk, expected.d_k);
    for (const scaling of ['unscaled', 'scaled'])
      for (const key of ['max_weight', 'entropy', 'jacobian_norm']) {
        const camel = key.replace(/_(\w)/g, (_, c) => c.toUpperCase());
        const what = `d_k ${row.dk} ${scaling} ${camel}`;
        const tolerance = scaling === 'unscaled' ? Math.max(TOLERANCE, unscaledTolerance(row.dk)) : TOLERANCE;
        close(row[scaling][camel].mean, expected[scaling][key].mean, `${what} mean`, tolerance);
        close(row[scaling][camel].standardError, expected[scaling][key].standard_error, `${what} standard error`, tolerance);
        assert.ok(row[scaling][camel].perDraw instanceof Float64Array);
        closeArrays(row[scaling][camel].perDraw, expected[scaling][key].per_draw, `${what} per draw`, tolerance);
      }
  });
}

test('scale sweep: the default sweep matches the native command, seeds 0 and 1', () => {
  for (const seed of [0, 1]) compareSweep(core.scaleSweep({ seed }), native('scale', '--seed', String(seed)));
  // Defaults are the lesson's: 200 draws, 12 tokens, d_k 4, 16, 64, 256.
  const sweep = core.scaleSweep();
  assert.deepEqual([sweep.draws, sweep.tokens, sweep.rows.map((r) => r.dk)], [200, 12, [4, 16, 64, 256]]);
  close(sweep.uniform.maxWeight, 1 / 12, 'uniform weight');
  close(sweep.uniform.entropy, Math.log(12), 'uniform entropy');
});

test('scale sweep: other sizes match too, single draws give NaN standard errors', () => {
  compareSweep(core.scaleSweep({ dks: [8, 32, 1], draws: 30, tokens: 7, seed: 3 }),
               native('scale', '--dk', '8,32,1', '--draws', '30', '--tokens', '7', '--seed', '3'));
  const one = core.scaleSweep({ dks: [4], draws: 1 });
  assert.ok(Number.isNaN(one.rows[0].scaled.entropy.standardError));
  compareSweep(one, native('scale', '--dk', '4', '--draws', '1'));
});

test('masks demo matches the native command, with exact zeros and the mistake row sums', () => {
  for (const [positions, real, seed] of [[10, 6, 0], [7, 3, 5]]) {
    const wasm = core.maskDemo({ positions, real, seed });
    const json = native('masks', '--positions', String(positions), '--real', String(real), '--seed', String(seed));
    assert.equal(wasm.positions, json.positions);
    assert.equal(wasm.real, json.real);
    assert.equal(wasm.seed, json.demo.seed);
    assert.equal(wasm.maskedValue, json.demo.masked_value);
    closeArrays(wasm.scores, json.demo.scores, 'scores');
    assert.deepEqual(wasm.cases.map((c) => c.name), ['causal', 'padding', 'both']);
    wasm.cases.forEach((c, m) => {
      const expected = json.demo.cases[m];
      close(c.allowedFraction, json.masks[m].allowed_fraction, `${c.name} allowed fraction`);
      assert.deepEqual(Array.from(c.allowed), expected.allowed);
      closeArrays(c.weights, expected.weights, `${c.name} weights`);
      closeArrays(c.rowSums, expected.row_sums, `${c.name} row sums`);
      closeArrays(c.mistakeWeights, expected.mistake_weights, `${c.name} mistake weights`);
      closeArrays(c.mistakeRowSums, expected.mistake_row_sums, `${c.name} mistake row sums`);
      // Blocked pairs: exactly zero in both builds.
      assert.equal(c.maxBlockedWeight, 0);
      assert.equal(c.blockedExactlyZero, true);
      c.allowed.forEach((a, i) => { if (!a) assert.equal(c.weights[i], 0); });
    });
  }
  const lesson = core.maskDemo();
  assert.deepEqual(lesson.cases.map((c) => c.allowedFraction), [0.55, 0.6, 0.45]);
});

test('heads demo matches the native command: equal parameters, per-head weights', () => {
  const wasm = core.headsDemo({ seed: 2 });
  const json = native('heads', '--seed', '2');
  assert.equal(wasm.multi.parameterCount, 16640);
  assert.equal(wasm.single.parameterCount, 16640);
  for (const layer of ['multi', 'single']) {
    assert.equal(wasm[layer].numHeads, json[layer].num_heads);
    assert.equal(wasm[layer].keyDim, json[layer].key_dim);
    assert.equal(wasm[layer].parameterCount, json[layer].parameter_count);
    wasm[layer].weights.forEach((w, h) => closeArrays(w, json[layer].weights[h], `${layer} head ${h}`));
    wasm[layer].argmax.forEach((a, h) => assert.deepEqual(Array.from(a), json[layer].argmax[h]));
    closeArrays(wasm[layer].meanEntropy, json[layer].mean_entropy, `${layer} entropy`);
  }
  closeArrays(wasm.headDistance, json.head_distance, 'head distance');
  assert.equal(wasm.queriesWithDifferingArgmax, json.queries_with_differing_argmax);
});

test('half-precision pitfall matches the native command: NaN rows, -inf constants, safe constants', () => {
  const wasm = core.halfPrecisionPitfall();
  const json = native('pitfalls');
  assert.deepEqual(Array.from(wasm.fullyMaskedRows), json.fully_masked_rows);
  assert.deepEqual(Array.from(wasm.allowed), json.allowed);
  assert.equal(wasm.cases.length, 8);
  wasm.cases.forEach((c, i) => {
    const expected = json.cases[i];
    const what = `${c.precision} ${c.constant}`;
    assert.equal(c.precision, expected.precision);
    assert.equal(c.constant, expected.constant);
    if (expected.stored_is_negative_infinity) assert.equal(c.stored, -Infinity, what);
    else close(c.stored, expected.stored, `${what} stored`);
    assert.equal(c.fullyMaskedRowsNan, expected.fully_masked_rows_nan, what);
    assert.equal(c.allFinite, expected.all_finite, what);
    assert.equal(c.blockedExactlyZero, expected.blocked_exactly_zero, what);
    // Half precision keeps about 3 digits; its rounding may differ by an ulp between builds.
    closeArrays(c.weights, expected.weights, `${what} weights`, c.precision === 'float16' ? 2e-3 : TOLERANCE);
  });
  const byName = (precision, constant) => wasm.cases.find((c) => c.precision === precision && c.constant === constant);
  assert.equal(byName('float16', '-1e30').fullyMaskedRowsNan, true);
  assert.equal(byName('float16', '-1e9').stored, -Infinity);
  assert.equal(byName('float32', '-1e9').allFinite, true);
  for (const precision of ['float16', 'float32']) assert.equal(byName(precision, '-1e4').allFinite, true);
});

test('bad arguments: the core\'s message as an Error, and the module stays usable without leaking', () => {
  const cases = [
    [() => core.scaleSweep({ draws: 0 }), /draws must be between 1 and 100000, got 0/],
    [() => core.scaleSweep({ draws: 100001 }), /draws must be between 1 and 100000, got 100001/],
    [() => core.scaleSweep({ dks: [4, 0] }), /d_k must be between 1 and 4096, got 0/],
    [() => core.scaleSweep({ dks: [4097] }), /d_k must be between 1 and 4096, got 4097/],
    [() => core.scaleSweep({ tokens: 1 }), /tokens must be between 2 and 4096, got 1/],
    [() => core.scaleSweep({ tokens: 4097 }), /tokens must be between 2 and 4096, got 4097/],
    [() => core.scaleSweep({ dks: [] }), /d_ks must hold between 1 and 64 values, got 0/],
    [() => core.scaleSweep({ dks: [4096], draws: 100000, tokens: 4096 }), /must be at most 20000000000/],
    [() => core.scaleSweep({ draws: 2.5 }), /draws must be a whole number/],
    [() => core.scaleSweep({ draws: '200' }), /draws must be a number, got "200"/],
    [() => core.scaleSweep({ dks: 64 }), /dks must be an array/],
    [() => core.scaleSweep({ seed: -1 }), /seed must be a whole number/],
    [() => core.maskDemo({ real: 11 }), /real must be between 1 and 10, got 11/],
    [() => core.headsDemo({ numHeads: 3 }), /num_heads must divide d_model/],
    [() => core.halfPrecisionPitfall({ real: 6 }), /real must be between 1 and 5, got 6/],
  ];
  const check = () => {
    for (const [call, message] of cases) assert.throws(call, (e) => e instanceof Error && message.test(e.message));
  };
  check();  // the first round lets the core's reused buffers (the message string) reach their size
  const before = core.memoryStats();
  for (let round = 0; round < 20; round++) check();
  const after = core.memoryStats();
  assert.equal(after.emvalHandles, before.emvalHandles);
  assert.equal(after.stackPointer, before.stackPointer);
  assert.equal(after.liveAllocations, before.liveAllocations);
  assert.equal(core.scaleSweep({ dks: [16], draws: 3 }).rows[0].dk, 16);
});

test('the default sweep in node: timing (reported; the Chromium goal is checked in a browser)', () => {
  core.scaleSweep();  // warm up the compiled code
  const times = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    core.scaleSweep();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`# node: default scale sweep, median of 5: ${times[2].toFixed(1)} ms (min ${times[0].toFixed(1)})`);
  assert.ok(times[2] < 2000, 'the default sweep must not take seconds');
});
