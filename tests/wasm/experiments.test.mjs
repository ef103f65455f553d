// The lesson's experiments through the WebAssembly facade (web/src/core/), checked against
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
// in the two builds: 1e-6 (relative to the size of the value when it is above 1) covers it.
const TOLERANCE = 1e-6;
// Unscaled scores spread as sqrt(d_k) (about 50 at d_k = 256), and a float32 rounding
// difference in a score grows with its size, so the unscaled figures get 2.5e-7 sqrt(d_k).
// Measured largest differences over seeds 0..3: 1.1e-6 at d_k 256, 3.8e-7 at 64.
const unscaledTolerance = (dk) => Math.max(TOLERANCE, 2.5e-7 * Math.sqrt(dk));

/** Every leaf of a result with its path; typed arrays and plain arrays alike. */
function leaves(value, prefix = '', out = new Map()) {
  if (ArrayBuffer.isView(value) || Array.isArray(value))
    Array.from(value).forEach((v, i) => leaves(v, `${prefix}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, value);
  return out;
}

/**
 * The facade's result against the CLI's JSON of the same call: the same keys (one description
 * per struct, in the core) and every value equal, numbers within tolerance(path). JSON writes
 * NaN and infinities as null.
 */
function compare(wasm, json, tolerance = () => TOLERANCE) {
  const mine = leaves(wasm),
    theirs = leaves(json);
  assert.deepEqual([...mine.keys()].sort(), [...theirs.keys()].sort(), 'the same fields');
  for (const [path, expected] of theirs) {
    const actual = mine.get(path);
    if (expected === null) assert.ok(!Number.isFinite(actual), `${path}: expected NaN or infinity, got ${actual}`);
    else if (typeof expected !== 'number') assert.equal(actual, expected, path);
    else
      assert.ok(
        Math.abs(actual - expected) <= tolerance(path) * Math.max(1, Math.abs(expected)),
        `${path}: wasm ${actual}, native ${expected}`,
      );
  }
}

function compareSweep(wasm, json) {
  const { lesson, ...sweep } = json; // the CLI adds the lesson's table at 12 tokens
  compare(wasm, sweep, (path) => {
    const row = /^rows\[(\d+)\]\.unscaled/.exec(path);
    return row ? unscaledTolerance(wasm.rows[Number(row[1])].dk) : TOLERANCE;
  });
  for (const row of wasm.rows)
    for (const scaling of ['unscaled', 'scaled']) assert.ok(row[scaling].maxWeight.perDraw instanceof Float64Array);
}

test('scale sweep: the default sweep matches the native command, seeds 0 and 1', () => {
  for (const seed of [0, 1]) compareSweep(core.scaleSweep({ seed }), native('scale', '--seed', String(seed)));
  const sweep = core.scaleSweep();
  assert.deepEqual(
    [sweep.draws, sweep.tokens, sweep.rows.map((r) => r.dk)],
    [
      core.configs.scaleSweep.defaults.draws,
      core.configs.scaleSweep.defaults.tokens,
      core.configs.scaleSweep.defaults.dks,
    ],
  );
  assert.ok(Math.abs(sweep.uniform.maxWeight - 1 / sweep.tokens) < 1e-7);
  assert.ok(Math.abs(sweep.uniform.entropy - Math.log(sweep.tokens)) < 1e-6);
});

test("scale sweep: each d_k's row is the same whether swept alone or with the others (the lesson sweeps a d_k per task)", () => {
  const whole = core.scaleSweep({ seed: 2 });
  assert.ok(whole.rows.length > 1);
  for (const row of whole.rows) assert.deepEqual(core.scaleSweep({ dks: [row.dk], seed: 2 }).rows, [row]);
  assert.notDeepEqual(core.scaleSweep({ dks: [whole.rows[0].dk], seed: 3 }).rows, [whole.rows[0]], 'the seed matters');
});

test('scale sweep: other sizes match too, single draws give NaN standard errors', () => {
  compareSweep(
    core.scaleSweep({ dks: [8, 32, 1], draws: 30, tokens: 7, seed: 3 }),
    native('scale', '--dk', '8,32,1', '--draws', '30', '--tokens', '7', '--seed', '3'),
  );
  const one = core.scaleSweep({ dks: [4], draws: 1 });
  assert.ok(Number.isNaN(one.rows[0].scaled.entropy.standardError));
  compareSweep(one, native('scale', '--dk', '4', '--draws', '1'));
});

test('masks demo matches the native command, with exact zeros and the mistake row sums', () => {
  for (const [positions, real, seed, dK] of [
    [10, 6, 0, 8],
    [7, 3, 5, 4],
  ]) {
    const wasm = core.maskDemo({ positions, real, seed, dK });
    compare(
      wasm,
      native(
        'masks',
        '--positions',
        String(positions),
        '--real',
        String(real),
        '--seed',
        String(seed),
        '--dk',
        String(dK),
      ),
    );
    assert.deepEqual(
      wasm.cases.map((c) => c.name),
      ['causal', 'padding', 'both'],
    );
    for (const c of wasm.cases) {
      // Blocked pairs: exactly zero in both builds.
      assert.equal(c.maxBlockedWeight, 0);
      assert.equal(c.blockedExactlyZero, true);
      c.allowed.forEach((a, i) => {
        if (!a) assert.equal(c.weights[i], 0);
      });
    }
  }
  // The lesson's fractions, at the core's defaults (10 positions, 6 real): exact.
  assert.deepEqual(
    core.maskDemo().cases.map((c) => c.allowedFraction),
    [0.55, 0.6, 0.45],
  );
});

test('heads demo matches the native command: equal parameters, per-head weights', () => {
  const wasm = core.headsDemo({ seed: 2 });
  compare(wasm, native('heads', '--seed', '2'));
  assert.equal(wasm.multi.parameterCount, 16640);
  assert.equal(wasm.single.parameterCount, 16640);
});

test('half-precision pitfall matches the native command: NaN rows, -inf constants, safe constants', () => {
  const wasm = core.halfPrecisionPitfall();
  // Half precision (cases 0-3) keeps about 3 digits; its rounding may differ by an ulp between builds.
  compare(wasm, native('pitfalls'), (path) => (/^cases\[[0-3]\]\.(weights|rowSums)/.test(path) ? 2e-3 : TOLERANCE));
  assert.equal(wasm.cases.length, 8);
  const byName = (precision, constant) => wasm.cases.find((c) => c.precision === precision && c.constant === constant);
  assert.equal(byName('float16', '-1e30').fullyMaskedRowsNan, true);
  assert.equal(byName('float16', '-1e9').stored, -Infinity);
  assert.equal(byName('float16', '-1e9').overflowed, true);
  assert.equal(byName('float32', '-1e9').allFinite, true);
  for (const precision of ['float16', 'float32']) assert.equal(byName(precision, '-1e4').allFinite, true);
});

test("bad arguments: the core's message in JS names as an Error, and the module stays usable without leaking", () => {
  const cases = [
    [() => core.scaleSweep({ draws: 0 }), /^draws must be a whole number in \[1, 100000\], got 0$/],
    [() => core.scaleSweep({ draws: 100001 }), /^draws must be a whole number in \[1, 100000\], got 100001$/],
    [() => core.scaleSweep({ dks: [4, 0] }), /^dks must hold whole numbers in \[1, 4096\], got 0 at index 1$/],
    [() => core.scaleSweep({ dks: [4097] }), /^dks must hold whole numbers in \[1, 4096\], got 4097 at index 0$/],
    [() => core.scaleSweep({ tokens: 1 }), /^tokens must be a whole number in \[2, 4096\], got 1$/],
    [() => core.scaleSweep({ tokens: 4097 }), /^tokens must be a whole number in \[2, 4096\], got 4097$/],
    [() => core.scaleSweep({ dks: [] }), /^dks must hold 1 to 64 values, got 0$/],
    [() => core.scaleSweep({ dks: new Array(65).fill(4) }), /^dks must hold 1 to 64 values, got 65$/],
    [() => core.scaleSweep({ dks: [4096], draws: 100000, tokens: 4096 }), /must be at most 20000000000/],
    [() => core.scaleSweep({ draws: 2.5 }), /^draws must be a whole number, got 2.5$/],
    [() => core.scaleSweep({ draws: '200' }), /^draws must be a whole number, got "200"$/],
    [() => core.scaleSweep({ dks: 64 }), /^dks must be an array of whole numbers, got 64$/],
    [() => core.scaleSweep({ seed: -1 }), /^seed must be a whole number between 0 and 2\^53 - 1, got -1$/],
    [() => core.scaleSweep({ drawz: 1 }), /^drawz is not an option; known: dks, draws, tokens, seed$/],
    [() => core.maskDemo({ real: 11 }), /^real must be at most positions = 10, got 11$/],
    [() => core.maskDemo({ dK: 0 }), /^dK must be a whole number in \[1, 1024\], got 0$/],
    [() => core.headsDemo({ numHeads: 3 }), /^numHeads must divide dModel = 64, got 3$/],
    [() => core.halfPrecisionPitfall({ real: 6 }), /^real must be below positions = 6, got 6$/],
    [
      () => core.halfPrecisionPitfall({ positions: 1024, dK: 1024 }),
      /^positions squared times dK must be at most 16777216/,
    ],
  ];
  const check = () => {
    for (const [call, message] of cases) assert.throws(call, (e) => e instanceof Error && message.test(e.message));
  };
  check(); // the first round lets the core's reused buffers (the message string) reach their size
  const before = core.memoryStats();
  for (let round = 0; round < 20; round++) check();
  const after = core.memoryStats();
  assert.equal(after.emvalHandles, before.emvalHandles);
  assert.equal(after.stackPointer, before.stackPointer);
  assert.equal(after.liveAllocations, before.liveAllocations);
  assert.equal(core.scaleSweep({ dks: [16], draws: 3 }).rows[0].dk, 16);
});
