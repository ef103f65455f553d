// The facade's config conversion, without a core: options checked for what only JS can get wrong
// (unknown keys, types, whole numbers the binding would wrap) and completed with the defaults.
// Ranges are the core's and are checked there (tests/wasm/); the fields here are the test's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configFrom, withDefaults } from '../../web/src/core/configs.ts';

const field = (key, kind, maxCount = 0) => ({
  key,
  kind,
  flag: key,
  help: key,
  min: 0,
  max: 1e9,
  openMin: false,
  openMax: false,
  maxCount,
});
const spec = {
  defaults: { draws: 200, seed: 7, share: 0.5, scale: true, dims: [4, 16] },
  fields: [
    field('draws', 'integer'),
    field('seed', 'seed'),
    field('share', 'number'),
    field('scale', 'boolean'),
    field('dims', 'integers', 3),
  ],
};

test('configFrom: the defaults, with each given option in its place (undefined keeps the default)', () => {
  assert.deepEqual(configFrom(spec, 'options', {}), spec.defaults);
  assert.deepEqual(configFrom(spec, 'options', { draws: 5, share: undefined, dims: [8] }), {
    ...spec.defaults,
    draws: 5,
    dims: [8],
  });
  assert.deepEqual(configFrom(spec, 'options', { seed: 2 ** 53 - 1 }).seed, 2 ** 53 - 1);
  assert.deepEqual(spec.defaults.dims, [4, 16]);
});

test('configFrom: each mistake named by the option', () => {
  const fails = (options, message) => assert.throws(() => configFrom(spec, 'options', options), { message });
  fails([], 'options must be an object, got an array of length 0');
  fails(null, 'options must be an object, got null');
  fails({ draw: 5 }, 'draw is not an option; known: draws, seed, share, scale, dims');
  fails({ draws: 1.5 }, 'draws must be a whole number, got 1.5');
  fails({ draws: 2 ** 32 }, 'draws must be a whole number of at most 32 bits, got 4294967296');
  fails({ seed: -1 }, 'seed must be a whole number between 0 and 2^53 - 1, got -1');
  fails({ share: '0.5' }, 'share must be a number, got "0.5"');
  fails({ scale: 1 }, 'scale must be true or false, got 1');
  fails({ dims: '4,16' }, 'dims must be an array of whole numbers, got "4,16"');
  fails({ dims: [1, 2, 3, 4] }, 'dims must hold 1 to 3 values, got 4');
  fails({ dims: [1, 2.5] }, 'dims[1] must be a whole number, got 2.5');
});

test('withDefaults: every option that is not undefined replaces its default', () => {
  assert.deepEqual(withDefaults({ a: 1, b: 2, c: 3 }, { a: 5, b: undefined }), { a: 5, b: 2, c: 3 });
});
