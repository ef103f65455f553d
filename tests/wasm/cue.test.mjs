// The cue task's trainer in WebAssembly (through the facade) against the native command on
// the same seed. The requirement is per-epoch accuracies within 0.01. In fact the runs are
// the same: data, initial weights, shuffles and dropout come from attn::Random, and the
// training arithmetic uses the fixed-order kernels of core/include/attn/nn/kernels.hpp, so
// losses also agree to the 9 significant digits the CLI prints; that is checked too, so a
// change that breaks the agreement shows up here first.
//
//   ATTN_CLI   the native attention-lab (default build/cli/attention-lab)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { loadCore, root } from './helpers.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const core = await loadCore();
const EPOCHS = 3;
const TOLERANCE = 0.01;

function native(blocks, seed, epochs) {
  const out = execFileSync(cli, ['cue', '--blocks', String(blocks), '--seed', String(seed),
                                 '--epochs', String(epochs), '--json'], { encoding: 'utf8' });
  return JSON.parse(out);
}

test('per-epoch accuracies match the native run within 0.01 (2 blocks, default seed, 3 epochs)', () => {
  const seed = core.cueDefaultSeed();
  const expected = native(2, seed, EPOCHS);
  const model = core.createCueModel({ blocks: 2, epochs: EPOCHS });
  try {
    for (let e = 0; e < EPOCHS; e++) model.trainEpoch();
    const m = model.metrics();
    assert.equal(m.parameterCount, expected.parameters);
    assert.equal(m.parameterCount, 17673);
    // Same data (the CLI prints 9 significant digits).
    assert.ok(Math.abs(m.baselineAccuracy - expected.baseline_most_frequent) < 1e-8);
    assert.equal(m.history.length, EPOCHS);
    for (let e = 0; e < EPOCHS; e++) {
      const mine = m.history[e], theirs = expected.epochs[e];
      assert.ok(Math.abs(mine.validationAccuracy - theirs.validation_accuracy) <= TOLERANCE,
                `epoch ${e + 1}: wasm ${mine.validationAccuracy}, native ${theirs.validation_accuracy}`);
      assert.ok(Math.abs(mine.trainAccuracy - theirs.train_accuracy) <= TOLERANCE,
                `epoch ${e + 1}: wasm train ${mine.trainAccuracy}, native ${theirs.train_accuracy}`);
      for (const [a, b] of [[mine.trainLoss, theirs.train_loss], [mine.validationLoss, theirs.validation_loss]])
        assert.ok(Math.abs(a - b) <= 1e-8 * Math.abs(b), `epoch ${e + 1}: loss wasm ${a}, native ${b}`);
    }
    const a = model.analysis();
    assert.deepEqual(a.offsets, expected.attention.offsets);
    assert.ok(Math.abs(a.firstBlockCueToNext[0] - expected.attention.first_block_cue_to_next[0]) <= TOLERANCE);
  } finally {
    model.dispose();
  }
});

test('training in batch steps reports progress and equals training in epochs', () => {
  const config = { blocks: 1, epochs: 2, seed: 11 };
  const steps = core.createCueModel(config), whole = core.createCueModel(config);
  try {
    const first = steps.metrics();
    assert.equal(first.parameterCount, 9129);
    assert.equal(first.epoch, 0);
    assert.ok(Number.isNaN(first.lastBatchLoss));
    const per = first.batchesPerEpoch;
    assert.equal(per, 63); // 2,000 sequences in batches of 32
    assert.equal(steps.trainBatches(10), 10);
    let m = steps.metrics();
    assert.equal(m.batch, 10);
    assert.ok(m.lastBatchLoss > 0);
    while (steps.trainBatches(20) > 0);
    m = steps.metrics();
    assert.ok(m.finished);
    assert.equal(steps.trainBatches(5), 0);
    assert.throws(() => steps.trainEpoch(), /training is finished: all 2 epochs ran/);
    whole.trainEpoch();
    whole.trainEpoch();
    assert.deepEqual(m.history, whole.metrics().history);
  } finally {
    steps.dispose();
    whole.dispose();
  }
});

test('bad configs are Errors naming the field, and the module stays usable', () => {
  assert.throws(() => core.createCueModel({ blocks: 0 }), /blocks must be between 1 and 8, got 0/);
  assert.throws(() => core.createCueModel({ batchSize: 0 }), /batch_size must be between 1 and 4096, got 0/);
  assert.throws(() => core.createCueModel({ learningRate: -1 }), /learning_rate must be in \(0, 10\]/);
  assert.throws(() => core.createCueModel({ epochs: 1001 }), /epochs must be between 1 and 1000, got 1001/);
  assert.throws(() => core.createCueModel({ blocks: 1.5 }), /blocks must be a whole number, got 1.5/);
  assert.throws(() => core.createCueModel({ postLayerNorm: 1 }), /postLayerNorm must be a boolean/);
  const model = core.createCueModel({ epochs: 1 });
  model.dispose();
  assert.throws(() => model.metrics(), /disposed/);
  const before = core.memoryStats().liveAllocations;
  core.createCueModel({ epochs: 1 }).dispose();
  assert.equal(core.memoryStats().liveAllocations, before);
});

test('options reach the core: two heads and post-LN give one analysis row per head', () => {
  const model = core.createCueModel({ heads: 2, postLayerNorm: true, epochs: 1, blocks: 2, seed: 5 });
  try {
    assert.equal(model.metrics().parameterCount, 17673); // two heads of 16 keep the count
    const epoch = model.trainEpoch();
    assert.equal(epoch.epoch, 1);
    assert.ok(epoch.validationAccuracy > 0 && epoch.validationAccuracy <= 1);
    const a = model.analysis();
    assert.equal(a.lastBlockByOffset.length, 2);
    assert.equal(a.firstBlockCueToNext.length, 2);
    for (const head of a.lastBlockByOffset) {
      assert.equal(head.length, 4);
      const total = head.reduce((s, w) => s + w, 0);
      assert.ok(head.every((w) => w >= 0) && total > 0 && total <= 1 + 1e-6, `shares ${head}`);
    }
    assert.ok(['cue', 'answer', 'none'].includes(a.circuit));
  } finally {
    model.dispose();
  }
});
