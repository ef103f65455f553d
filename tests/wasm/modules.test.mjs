// The two shipped modules (wasm/CMakeLists.txt): the attention core (attention_core, what a page
// with only the soft lookup loads) computes what the whole core (attention_lab) computes, bit for
// bit, has its configs and limits, and has neither the experiments nor the trainer.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttentionCore, loadCore } from './helpers.mjs';

const [whole, attention] = await Promise.all([loadCore(), loadAttentionCore()]);

/** Every output of the calls both modules have, on the same seeded inputs. */
function outputs(core) {
  const q = core.random(1).normalMatrix(7, 16),
    k = core.random(2).normalMatrix(9, 16),
    v = core.random(3).normalMatrix(9, 5);
  const mask = core.combineMasks(core.paddingMask(7, 9, 6), core.paddingMask(7, 9, 8));
  const layer = { dModel: 16, numHeads: 4, weights: { seed: 4 } };
  const self = core.random(5).normalMatrix(6, 16);
  return {
    draws: [core.random(6).uniform(5), core.random(6).normal(5), core.random(7).uniformMatrix(3, 3, -1, 1).data],
    softmax: core.softmax(q).data,
    attention: [core.attention(q, k, v).output.data, core.attention(q, k, v, { mask, scale: false }).weights.data],
    causal: core.causalMask(9).data,
    allowed: core.allowedFraction(mask),
    multiHead: core.multiHeadAttention(layer, self, self, self, core.causalMask(6)).output.data,
  };
}

test('the attention core computes what the whole core computes, bit for bit', () => {
  assert.deepEqual(outputs(attention), outputs(whole));
});

test('the attention core has the same configs and limits, and no experiments or trainer', () => {
  assert.deepEqual(attention.configs, whole.configs);
  assert.deepEqual(attention.limits, whole.limits);
  for (const method of [
    'scaleSweep',
    'maskDemo',
    'headsDemo',
    'halfPrecisionPitfall',
    'attentionSteps',
    'createCueModel',
    'cueConfigError',
  ])
    assert.equal(typeof attention[method], 'undefined', method);
});

test('the attention core reports bad input as the whole core does, and keeps working', () => {
  const bad = () =>
    attention.attention(
      attention.random(1).normalMatrix(2, 3),
      attention.random(2).normalMatrix(2, 4),
      attention.random(3).normalMatrix(2, 4),
    );
  const wholeBad = () =>
    whole.attention(
      whole.random(1).normalMatrix(2, 3),
      whole.random(2).normalMatrix(2, 4),
      whole.random(3).normalMatrix(2, 4),
    );
  assert.throws(bad, (error) => {
    assert.throws(wholeBad, { message: error.message });
    return /key/.test(error.message);
  });
  assert.equal(attention.softmax(attention.random(8).normalMatrix(1, 3)).data.length, 3);
});
