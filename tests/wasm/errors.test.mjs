// Bad input from JS: every case throws an ArgumentError (an Error) whose message names the
// argument as JS writes it, with the code and the numbers involved, whether the facade or the
// core refused it; and the module keeps working: the next valid call returns exactly the
// numbers it returned before.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { attentionF64, facade, loadCore, maxAbsDiff, softLookup } from './helpers.mjs';

const core = await loadCore();
const { mat } = facade;
const { query, keys, values } = softLookup;
const good = core.attention(query, keys, values);

/** A layer whose PyTorch in-projection is (3, 8) where (24, 8) is needed. */
const badInProjection = () =>
  core.createMultiHead({
    dModel: 8,
    numHeads: 2,
    weights: {
      pytorch: {
        inProjWeight: mat(3, 8),
        inProjBias: new Float32Array(24),
        outProjWeight: mat(8, 8),
        outProjBias: new Float32Array(8),
      },
    },
  });

function stillWorks() {
  const again = core.attention(query, keys, values);
  assert.deepEqual(again.output.data, good.output.data);
  assert.deepEqual(again.weights.data, good.weights.data);
}

// Each entry: what is called, and the message it must throw (a prefix, as a RegExp).
const cases = [
  // shapes and lengths
  [
    'data shorter than rows * cols',
    () => core.attention({ rows: 1, cols: 2, data: new Float32Array(1) }, keys, values),
    /^query\.data must have rows \* cols = 2 values for shape \(1, 2\), got 1$/,
  ],
  [
    "key columns differ from the query's",
    () => core.attention(query, mat(5, 3, 1), values),
    /^key must have as many columns as query \(d_k\): query \(1, 2\), key \(5, 3\)$/,
  ],
  [
    "value rows differ from the key's",
    () => core.attention(query, keys, mat(4, 2, 1)),
    /^value must have as many rows as key \(n_k\): key \(5, 2\), value \(4, 2\)$/,
  ],
  ['empty value', () => core.attention(query, keys, mat(0, 2)), /^value must not be empty, got shape \(0, 2\)$/],
  ['empty scores', () => core.softmax(mat(3, 0)), /^scores must not be empty, got shape \(3, 0\)$/],
  [
    'negative rows',
    () => core.attention({ rows: -1, cols: 2, data: new Float32Array(0) }, keys, values),
    /^query\.rows must be a whole number between 0 and 2147483647, got -1$/,
  ],
  [
    'fractional cols',
    () => core.softmax({ rows: 1, cols: 1.5, data: new Float32Array(2) }),
    /^scores\.cols must be a whole number/,
  ],
  [
    'rows given as a string',
    () => core.attention(query, { rows: '5', cols: 2, data: keys.data }, values),
    /^key\.rows must be a whole number between 0 and 2147483647, got "5"$/,
  ],
  // values
  [
    'NaN in the key',
    () => {
      const k = mat(5, 2, keys.data);
      k.data[3] = NaN;
      return core.attention(query, k, values);
    },
    /^key must be finite, got nan at \(1, 1\) of shape \(5, 2\)$/,
  ],
  [
    'Infinity in the scores',
    () => core.softmax(mat(1, 2, [0, Infinity])),
    /^scores must be finite, got inf at \(0, 1\)/,
  ],
  [
    'data as a plain array',
    () => core.softmax({ rows: 1, cols: 2, data: [1, 2] }),
    /^scores\.data must be a Float32Array, got an array of length 2$/,
  ],
  ['a non-number in mat()', () => mat(1, 2, [1, 'a']), /^values must hold numbers, got "a" at index 1$/],
  ['a ragged nested array in mat()', () => mat(2, 2, [[1, 2], [3]]), /^values\[1\] must be an array of 2 numbers/],
  ['no matrix at all', () => core.softmax(null), /^scores must be a matrix \{ rows, cols, data \}, got null$/],
  // options
  [
    'NaN masked value',
    () => core.attention(query, keys, values, { maskedValue: NaN }),
    /^options\.maskedValue must not be NaN$/,
  ],
  [
    'scale as a string',
    () => core.attention(query, keys, values, { scale: 'yes' }),
    /^options\.scale must be a boolean, got "yes"$/,
  ],
  // masks
  [
    'mask of the wrong shape',
    () => core.attention(query, keys, values, { mask: core.causalMask(5) }),
    /^mask must have shape \(n_q, n_k\) = \(1, 5\), got \(5, 5\)$/,
  ],
  [
    'mask data of the wrong length',
    () => core.attention(query, keys, values, { mask: { rows: 1, cols: 5, data: new Uint8Array(4) } }),
    /^mask\.data must have rows \* cols = 5 values/,
  ],
  [
    'mask data as floats',
    () => core.attention(query, keys, values, { mask: { rows: 1, cols: 5, data: new Float32Array(5) } }),
    /^mask\.data must be a Uint8Array, got a Float32Array$/,
  ],
  [
    'mask holding 2',
    () => core.allowedFraction({ rows: 1, cols: 2, data: Uint8Array.of(1, 2) }),
    /^mask\.data must hold 0 or 1, got 2 at index 1$/,
  ],
  ['causal mask of 0 positions', () => core.causalMask(0), /^n must be a whole number in \[1, 16384\], got 0$/],
  [
    'causal mask of -3 positions',
    () => core.causalMask(-3),
    /^n must be a whole number between 0 and 2147483647, got -3$/,
  ],
  [
    'padding longer than the keys',
    () => core.paddingMask(4, 10, 11),
    /^realLen must be between 1 and nK = 10, got 11$/,
  ],
  [
    'combining masks of two shapes',
    () => core.combineMasks(core.causalMask(3), core.causalMask(4)),
    /^b must have the shape of mask a, got a \(3, 3\) and b \(4, 4\)$/,
  ],
  [
    'empty mask',
    () => core.allowedFraction({ rows: 0, cols: 3, data: new Uint8Array(0) }),
    /^mask must not be empty, got shape \(0, 3\)$/,
  ],
  // multi-head
  [
    'd_model 0',
    () => core.createMultiHead({ dModel: 0, numHeads: 1, weights: { seed: 1 } }),
    /^dModel must be between 1 and 65536, got 0$/,
  ],
  [
    'heads that do not divide d_model',
    () => core.createMultiHead({ dModel: 10, numHeads: 4, weights: { seed: 1 } }),
    /^numHeads must divide dModel = 10 when keyDim is not given, got 4$/,
  ],
  [
    'no weights',
    () => core.createMultiHead({ dModel: 8, numHeads: 2 }),
    /^weights must be \{ pytorch \}, \{ query, key, value, output \} or \{ seed \}, got undefined$/,
  ],
  ['PyTorch weights of the wrong shape', badInProjection, /^inProjWeight must have shape \(24, 8\), got \(3, 8\)$/],
  [
    'a projection of the wrong shape',
    () =>
      core.createMultiHead({
        dModel: 4,
        numHeads: 2,
        weights: {
          query: { weight: mat(4, 4), bias: mat(1, 4) },
          key: { weight: mat(4, 3), bias: mat(1, 4) },
          value: { weight: mat(4, 4), bias: mat(1, 4) },
          output: { weight: mat(4, 4), bias: mat(1, 4) },
        },
      }),
    /^key weight must have shape \(4, 4\), got \(4, 3\)$/,
  ],
  [
    'a forward with the wrong width',
    () => core.multiHeadAttention({ dModel: 8, numHeads: 2, weights: { seed: 3 } }, mat(3, 5), mat(3, 8), mat(3, 8)),
    /^query must have 8 columns \(dModel\), got shape \(3, 5\)$/,
  ],
  [
    'a forward with a mask of the wrong shape',
    () =>
      core.multiHeadAttention(
        { dModel: 8, numHeads: 2, weights: { seed: 3 } },
        mat(3, 8),
        mat(4, 8),
        mat(4, 8),
        core.causalMask(3),
      ),
    /^mask must have shape \(n_q, n_k\) = \(3, 4\), got \(3, 3\)$/,
  ],
  [
    'a seed out of range for the layer',
    () => core.createMultiHead({ dModel: 8, numHeads: 2, weights: { seed: -2 } }),
    /^seed must be a whole number between 0 and 2\^53 - 1, got -2$/,
  ],
];

for (const [name, call, message] of cases) {
  test(`${name}: ArgumentError naming the argument, then correct numbers again`, () => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof facade.ArgumentError, `threw ${String(error)}, not an ArgumentError`);
      assert.ok(error instanceof Error);
      assert.match(error.message, message);
      assert.ok(error.message.startsWith(`${error.argument} `), `${error.message} does not start with its argument`);
      assert.match(error.code, /^[a-z]+(-[a-z]+)*$/);
      return true;
    });
    stillWorks();
  });
}

// The structure a translation works from: the argument as the caller wrote it, the code, the
// numbers, and the detail naming other arguments as {name}; from the facade's own checks
// (JS side) and from the core's (through the module) alike.
const structured = [
  [
    'heads not dividing the width (core, headsDemo)',
    () => core.headsDemo({ numHeads: 5 }),
    {
      argument: 'numHeads',
      code: 'must-divide',
      values: { dModel: core.configs.headsDemo.defaults.dModel, got: 5 },
      detail: `must divide {dModel} = ${core.configs.headsDemo.defaults.dModel}, got 5`,
    },
  ],
  [
    'heads not dividing the width (core, a multi-head layer)',
    () => core.multiHeadAttention({ dModel: 6, numHeads: 4, weights: { seed: 1 } }, mat(2, 6), mat(2, 6), mat(2, 6)),
    {
      argument: 'numHeads',
      code: 'must-divide',
      values: { dModel: 6, got: 4 },
      detail: 'must divide {dModel} = 6 when {keyDim} is not given, got 4',
    },
  ],
  [
    'a NaN masked value (facade)',
    () => core.attention(query, keys, values, { maskedValue: NaN }),
    { argument: 'options.maskedValue', code: 'not-finite', values: { got: NaN }, detail: 'must not be NaN' },
  ],
  [
    'an in-projection of the wrong shape (core)',
    badInProjection,
    {
      argument: 'inProjWeight',
      code: 'bad-shape',
      values: { rows: 24, cols: 8, gotRows: 3, gotCols: 8 },
      detail: 'must have shape (24, 8), got (3, 8)',
    },
  ],
  [
    'padding longer than the keys (core)',
    () => core.paddingMask(4, 10, 11),
    {
      argument: 'realLen',
      code: 'out-of-range',
      values: { min: 1, max: 10, got: 11 },
      detail: 'must be between 1 and {nK} = 10, got 11',
    },
  ],
  [
    'a NaN in the key (core)',
    () => core.attention(query, mat(5, 2, [0, 0, 0, NaN, 0, 0, 0, 0, 0, 0]), values),
    { argument: 'key', code: 'not-finite', values: { got: NaN, row: 1, col: 1 } },
  ],
  [
    'rows given as a string (facade)',
    () => core.attention(query, { rows: '5', cols: 2, data: keys.data }, values),
    { argument: 'key.rows', code: 'wrong-type', values: {} },
  ],
  [
    'fractional cols (facade)',
    () => core.softmax({ rows: 1, cols: 1.5, data: new Float32Array(2) }),
    { argument: 'scores.cols', code: 'not-whole', values: { min: 0, max: 2147483647, got: 1.5 } },
  ],
  [
    'a config field out of range (core, through an object-taking call)',
    () => core.maskDemo({ positions: 3, real: 4 }),
    {
      argument: 'real',
      code: 'out-of-range',
      values: { max: 3, got: 4 },
      detail: 'must be at most {positions} = 3, got 4',
    },
  ],
  [
    'an unknown option (facade)',
    () => core.scaleSweep({ drawz: 1 }),
    { argument: 'drawz', code: 'not-one-of', values: {} },
  ],
];

for (const [name, call, expected] of structured) {
  test(`${name}: argument, code and values as JS names them`, () => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof facade.ArgumentError, `threw ${String(error)}, not an ArgumentError`);
      assert.equal(error.argument, expected.argument);
      assert.equal(error.code, expected.code);
      assert.deepEqual({ ...error.values }, expected.values);
      if (expected.detail !== undefined) assert.equal(error.detail, expected.detail);
      assert.equal(error.message, `${error.argument} ${error.detail.replace(/\{([A-Za-z_][\w.-]*)\}/g, '$1')}`);
      return true;
    });
    stillWorks();
  });
}

test('an error that is not about an argument stays a plain Error', () => {
  const layer = core.createMultiHead({ dModel: 4, numHeads: 1, weights: { seed: 5 } });
  layer.dispose();
  assert.throws(
    () => layer.forward(mat(1, 4), mat(1, 4), mat(1, 4)),
    (error) => error instanceof Error && !(error instanceof facade.ArgumentError),
  );
});

test('a disposed layer refuses to run, and disposing twice is harmless', () => {
  const layer = core.createMultiHead({ dModel: 4, numHeads: 1, weights: { seed: 5 } });
  layer.dispose();
  layer.dispose();
  assert.throws(
    () => layer.forward(mat(1, 4), mat(1, 4), mat(1, 4)),
    /^Error: this multi-head layer has been disposed$/,
  );
});

test('the valid call itself is right: the soft lookup against a float64 formula', () => {
  const expected = attentionF64(query, keys, values);
  assert.ok(maxAbsDiff(good.weights, expected.weights) <= 1e-6);
  assert.ok(maxAbsDiff(good.output, expected.output) <= 1e-6);
});
