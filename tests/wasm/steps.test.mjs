// Attention step by step in WebAssembly: every intermediate of a small example, whose weights
// and output equal core.attention()'s bit for bit (same arithmetic in the core), whose seeded
// draws equal the native command's, and whose bad sizes and cells are named.
//
//   ATTN_CLI   the native attention-lab (default build/cli/attention-lab)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { loadCore, root } from './helpers.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const core = await loadCore();
const spec = core.configs.attentionSteps;
const range = (key) => spec.fields.find((f) => f.key === key);

test("the core declares the example's limits: 3 to 6 tokens, d_k 2 to 4", () => {
  assert.deepEqual([range('tokens').min, range('tokens').max], [3, 6]);
  assert.deepEqual([range('dK').min, range('dK').max], [2, 4]);
  assert.deepEqual(Object.keys(spec.defaults).sort(), ['causal', 'dK', 'dV', 'scale', 'seed', 'tokens']);
});

test("weights and output equal core.attention()'s exactly, for every size, with and without mask and scale", () => {
  for (let tokens = range('tokens').min; tokens <= range('tokens').max; tokens++)
    for (let dK = range('dK').min; dK <= range('dK').max; dK++)
      for (const causal of [false, true])
        for (const scale of [false, true]) {
          const what = `${tokens} tokens, d_k ${dK}${causal ? ', causal' : ''}${scale ? ', scaled' : ''}`;
          const s = core.attentionSteps({ tokens, dK, dV: 3, causal, scale, seed: tokens * 7 + dK });
          assert.deepEqual(
            [s.query.rows, s.query.cols, s.value.cols, s.weights.rows, s.output.cols],
            [tokens, dK, 3, tokens, 3],
            what,
          );
          const expected = core.attention(s.query, s.key, s.value, {
            scale,
            ...(causal ? { mask: core.causalMask(tokens) } : {}),
          });
          assert.deepEqual(s.weights.data, expected.weights.data, what);
          assert.deepEqual(s.output.data, expected.output.data, what);
          assert.deepEqual(
            s.allowed.data,
            causal ? core.causalMask(tokens).data : new Uint8Array(tokens * tokens).fill(1),
            what,
          );
          assert.deepEqual(
            s.masked.data,
            causal
              ? s.masked.data.map((v, i) => (s.allowed.data[i] ? s.scaled.data[i] : s.maskedValue))
              : s.scaled.data,
            what,
          );
          assert.equal(s.scaleFactor, scale ? Math.fround(1 / Math.sqrt(dK)) : 1, what);
          // The scale step is one float32 product per cell.
          assert.deepEqual(
            s.scaled.data,
            s.scores.data.map((v) => Math.fround(v * s.scaleFactor)),
            what,
          );
        }
});

// The draws come from attn::Random, the same stream everywhere, so they are equal exactly. The
// products are Eigen's, which sums in another order natively (SSE/AVX) than in WebAssembly, as
// attention() itself does (the PyTorch checks allow 1e-6): equal within float32 rounding.
test("the seeded draws equal the native command's exactly (`attention-lab steps --json`), every step within rounding", () => {
  for (const [options, flags] of [
    [{}, []],
    [
      { tokens: 6, dK: 4, dV: 1, causal: true, seed: 42 },
      ['--tokens', '6', '--dk', '4', '--dv', '1', '--causal', '--seed', '42'],
    ],
  ]) {
    const native = JSON.parse(execFileSync(cli, ['steps', ...flags, '--json'], { encoding: 'utf8' }));
    const mine = core.attentionSteps(options);
    assert.deepEqual({ ...mine.config }, native.config);
    for (const key of ['query', 'key', 'value']) assert.deepEqual(Array.from(mine[key].data), native[key], key);
    for (const key of ['scores', 'scaled', 'masked', 'weights', 'output'])
      mine[key].data.forEach((v, i) =>
        assert.ok(
          Math.abs(v - native[key][i]) <= 1e-6 * Math.max(1, Math.abs(v)),
          `${key}[${i}]: ${v} vs ${native[key][i]}`,
        ),
      );
    assert.deepEqual(Array.from(mine.allowed.data), native.allowed);
  }
});

test("given cells: their shapes are the sizes, and the numbers are attention()'s", () => {
  const query = { rows: 3, cols: 2, data: Float32Array.of(1, 0, 0, 1, 1, 1) };
  const value = { rows: 3, cols: 1, data: Float32Array.of(1, 2, 3) };
  const s = core.attentionSteps({ causal: true }, { query, key: query, value });
  assert.deepEqual([s.config.tokens, s.config.dK, s.config.dV, s.config.causal], [3, 2, 1, true]);
  assert.deepEqual(Array.from(s.scores.data), [1, 0, 1, 0, 1, 1, 1, 1, 2]);
  assert.deepEqual(s.output.data, core.attention(query, query, value, { mask: core.causalMask(3) }).output.data);
});

test('bad sizes and cells are refused with a message naming them', () => {
  const cells = (rows, cols, v = 0.5) => ({ rows, cols, data: new Float32Array(rows * cols).fill(v) });
  assert.throws(() => core.attentionSteps({ tokens: 7 }), /^Error: tokens must be a whole number in \[3, 6\], got 7$/);
  assert.throws(() => core.attentionSteps({ dK: 1 }), /^Error: dK must be a whole number in \[2, 4\], got 1$/);
  assert.throws(() => core.attentionSteps({ causal: 1 }), /causal must be true or false/);
  assert.throws(
    () => core.attentionSteps({}, { query: cells(8, 2), key: cells(8, 2), value: cells(8, 1) }),
    /tokens must be a whole number in \[3, 6\], got 8/,
  );
  assert.throws(
    () => core.attentionSteps({}, { query: cells(3, 2), key: cells(4, 2), value: cells(3, 1) }),
    /key must have the shape of query \(3, 2\), got \(4, 2\)/,
  );
  assert.throws(
    () => core.attentionSteps({}, { query: cells(3, 2), key: cells(3, 2), value: cells(4, 1) }),
    /value must have 3 rows \(tokens\), got 4/,
  );
  assert.throws(
    () => core.attentionSteps({ tokens: 4 }, { query: cells(3, 2), key: cells(3, 2), value: cells(3, 1) }),
    /options.tokens is 4, but the given cells make it 3/,
  );
  assert.throws(
    () => core.attentionSteps({}, { query: cells(3, 2, NaN), key: cells(3, 2), value: cells(3, 1) }),
    /query/,
  );
  assert.throws(
    () => core.attentionSteps({}, { query: cells(3, 2, 3e20), key: cells(3, 2, 3e20), value: cells(3, 1) }),
    /overflows float32/,
  );
  assert.throws(() => core.attentionSteps({}, null), /given must be \{ query, key, value \}, got null/);
  // The module is still usable.
  assert.equal(core.attentionSteps().weights.rows, spec.defaults.tokens);
});
