// The WebAssembly build against PyTorch (the fixture of tests/reference/make_fixture.py) and
// against the native core on the same inputs (attention-lab reference --write-native).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixturePath, loadCore, maskOf, maxAbsDiff, nativePath, readCases, slice } from './helpers.mjs';

const TOLERANCE = 1e-6; // float32 rounding, nothing else
const core = await loadCore();
const fixture = readCases(fixturePath);
const native = new Map(readCases(nativePath).map((c) => [c.name, c]));

// Runs one fixture case through the facade: per sequence, the output and each head's weights.
function runCase(c) {
  const batch = c.tensors.query.dims[0];
  const results = [];
  for (let b = 0; b < batch; b++) {
    const [q, k, v, mask] = [
      slice(c.tensors.query, b),
      slice(c.tensors.key, b),
      slice(c.tensors.value, b),
      maskOf(c.tensors.mask, b),
    ];
    if (c.kind === 'attention') {
      const r = core.attention(q, k, v, { mask });
      results.push({ output: r.output, weights: [r.weights] });
      continue;
    }
    const t = c.tensors;
    const layer = {
      dModel: t.query.dims[2],
      numHeads: c.params.num_heads,
      weights: {
        pytorch: {
          inProjWeight: slice(t.in_proj_weight),
          inProjBias: slice(t.in_proj_bias),
          outProjWeight: slice(t.out_proj_weight),
          outProjBias: slice(t.out_proj_bias),
        },
      },
    };
    const r = core.multiHeadAttention(layer, q, k, v, mask);
    assert.equal(r.weights.length, c.params.num_heads);
    assert.equal(r.parameterCount, 4 * layer.dModel * layer.dModel + 4 * layer.dModel);
    results.push(r);
  }
  return results;
}

// Largest differences between the facade's results and `reference` (fixture or native record).
function compare(results, reference) {
  let output = 0,
    weights = 0;
  results.forEach((r, b) => {
    output = Math.max(output, maxAbsDiff(r.output, slice(reference.tensors.output, b)));
    r.weights.forEach((w, h) => {
      weights = Math.max(weights, maxAbsDiff(w, slice(reference.tensors.weights, b * r.weights.length + h)));
    });
  });
  return { output, weights };
}

test('the fixture has the seven cases the native test checks', () => {
  assert.ok(fixture.length >= 7, `only ${fixture.length} cases in ${fixturePath}`);
  for (const c of fixture) assert.ok(native.has(c.name), `${nativePath} lacks case ${c.name}`);
});

const worst = { pytorch: { output: 0, weights: 0 }, native: { output: 0, weights: 0 } };

for (const c of fixture) {
  test(`${c.name}: within 1e-6 of PyTorch and of the native core`, (t) => {
    const results = runCase(c);
    const vsTorch = compare(results, c);
    const vsNative = compare(results, native.get(c.name));
    t.diagnostic(
      `vs PyTorch: output ${vsTorch.output.toExponential(2)}, weights ${vsTorch.weights.toExponential(2)}; ` +
        `vs native: output ${vsNative.output.toExponential(2)}, weights ${vsNative.weights.toExponential(2)}`,
    );
    for (const [key, d] of [
      ['pytorch', vsTorch],
      ['native', vsNative],
    ]) {
      worst[key].output = Math.max(worst[key].output, d.output);
      worst[key].weights = Math.max(worst[key].weights, d.weights);
    }
    assert.ok(vsTorch.output <= TOLERANCE, `output vs PyTorch ${vsTorch.output}`);
    assert.ok(vsTorch.weights <= TOLERANCE, `weights vs PyTorch ${vsTorch.weights}`);
    assert.ok(vsNative.output <= TOLERANCE, `output vs native ${vsNative.output}`);
    assert.ok(vsNative.weights <= TOLERANCE, `weights vs native ${vsNative.weights}`);
  });
}

test('largest differences over every case', (t) => {
  t.diagnostic(
    `vs PyTorch: output ${worst.pytorch.output.toExponential(2)}, weights ${worst.pytorch.weights.toExponential(2)}`,
  );
  t.diagnostic(
    `vs native:  output ${worst.native.output.toExponential(2)}, weights ${worst.native.weights.toExponential(2)}`,
  );
  assert.ok(
    Math.max(worst.pytorch.output, worst.pytorch.weights, worst.native.output, worst.native.weights) <= TOLERANCE,
  );
});

test('the (in, out) weight layout gives the same layer as the PyTorch layout', () => {
  const c = fixture.find((x) => x.name === 'self_10x64_4heads');
  const t = c.tensors,
    d = t.query.dims[2];
  const fromTorch = core.createMultiHead({
    dModel: d,
    numHeads: 4,
    weights: {
      pytorch: {
        inProjWeight: slice(t.in_proj_weight),
        inProjBias: slice(t.in_proj_bias),
        outProjWeight: slice(t.out_proj_weight),
        outProjBias: slice(t.out_proj_bias),
      },
    },
  });
  try {
    const p = fromTorch.parameters();
    // PyTorch stores (out, in): the query kernel is rows 0..d-1 of in_proj_weight, transposed.
    assert.equal(p.query.weight.data[1 * p.query.weight.cols + 0], Math.fround(t.in_proj_weight.values[0 * d + 1]));
    const copy = core.createMultiHead({ dModel: d, numHeads: 4, weights: p });
    try {
      const x = slice(t.query);
      const a = fromTorch.forward(x, x, x),
        b = copy.forward(x, x, x);
      assert.deepEqual(b.output.data, a.output.data);
      assert.equal(copy.parameterCount, fromTorch.parameterCount);
    } finally {
      copy.dispose();
    }
  } finally {
    fromTorch.dispose();
  }
});
