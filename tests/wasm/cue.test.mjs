// The cue task's trainer in WebAssembly (through the facade) against the native command on
// the same config. The runs are the same run: data, initial weights, shuffles and dropout come
// from attn::Random, and the training arithmetic uses the fixed-order kernels of
// core/src/nn/kernels.hpp, so per-epoch losses and accuracies are bit-identical. The
// CLI's JSON and the facade's report share their keys (one description per struct, in the
// core), so the two are compared field by field.
//
//   ATTN_CLI   the native attention-lab (default build/cli/attention-lab)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { loadCore, root } from './helpers.mjs';
import { coreAndRule } from '../support/route-rule.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const core = await loadCore();

/** `attention-lab cue FLAGS --json`, parsed. */
function native(flags) {
  return JSON.parse(execFileSync(cli, ['cue', ...flags, '--json'], { encoding: 'utf8' }));
}

/** The facade's report of a whole run with `config`. */
function trained(config) {
  const model = core.createCueModel(config);
  try {
    while (!model.progress().finished) model.trainEpoch();
    return model.report();
  } finally {
    model.dispose();
  }
}

/** Every number of a report, flattened with its path: typed arrays and plain arrays alike. */
function leaves(value, prefix = '', out = new Map()) {
  if (ArrayBuffer.isView(value) || Array.isArray(value))
    Array.from(value).forEach((v, i) => leaves(v, `${prefix}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, value);
  return out;
}

// Same run natively and in WebAssembly: every field of the report equal (JSON writes doubles
// in full, so equality is exact; NaN, which JSON writes as null, never occurs in a report).
function assertSameRun(wasm, cliReport) {
  const mine = leaves(wasm),
    theirs = leaves(cliReport);
  theirs.delete('elapsedSeconds');
  assert.deepEqual([...mine.keys()].sort(), [...theirs.keys()].sort(), 'the same fields');
  for (const [key, value] of theirs) assert.equal(mine.get(key), value, key);
}

test("a short run equals the native command's, field by field (2 blocks, the core's default seed, 3 epochs)", () => {
  const report = trained({ epochs: 3 });
  assert.equal(report.config.seed, core.configs.cueTrain.defaults.seed);
  assert.equal(report.parameterCount, 17673);
  assertSameRun(report, native(['--epochs', '3']));
});

test('options reach the core: other heads, post-LN, widths and rates change the run, and natively alike', () => {
  const base = trained({ epochs: 2, blocks: 1 });
  const cases = [
    [{ heads: 2 }, ['--heads', '2']],
    [{ postLayerNorm: true }, ['--post-ln']],
    [{ lastQueryOnly: false }, ['--no-last-query-only']],
    [{ dModel: 16, dFF: 24 }, ['--d-model', '16', '--d-ff', '24']],
    [{ learningRate: 0.01, dropout: 0 }, ['--lr', '0.01', '--dropout', '0']],
    [{ symbols: 5, length: 8 }, ['--symbols', '5', '--length', '8']],
    [
      { batchSize: 50, trainSize: 500, validationSize: 200 },
      ['--batch', '50', '--train-size', '500', '--validation-size', '200'],
    ],
  ];
  for (const [options, flags] of cases) {
    const report = trained({ epochs: 2, blocks: 1, ...options });
    for (const [key, value] of Object.entries(options)) assert.equal(report.config[key], value, key);
    assertSameRun(report, native(['--epochs', '2', '--blocks', '1', ...flags]));
    // The last-query shortcut computes the same model, so only its loss digits may move.
    if (!('lastQueryOnly' in options))
      assert.notDeepEqual(report.history, base.history, `${JSON.stringify(options)} changes the run`);
  }
});

test('training in batch steps reports progress and equals training in epochs', () => {
  const config = { blocks: 1, epochs: 2, seed: 11 };
  const steps = core.createCueModel(config),
    whole = core.createCueModel(config);
  try {
    assert.equal(steps.parameterCount, 9129);
    const first = steps.progress();
    assert.equal(first.epoch, 0);
    assert.equal(first.lastBatch.epoch, 0);
    assert.ok(Number.isNaN(first.lastBatch.loss));
    assert.equal(first.batchesPerEpoch, 63); // 2,000 sequences in batches of 32
    assert.equal(steps.trainBatches(10), 10);
    let p = steps.progress();
    assert.equal(p.batch, 10);
    assert.ok(p.lastBatch.loss > 0);
    while (steps.trainBatches(20) > 0);
    p = steps.progress();
    assert.ok(p.finished);
    assert.equal(steps.trainBatches(5), 0);
    assert.throws(() => steps.trainEpoch(), /training is finished: all 2 epochs ran/);
    whole.trainEpoch();
    whole.trainEpoch();
    assert.deepEqual(steps.history(), whole.history());
  } finally {
    steps.dispose();
    whole.dispose();
  }
});

test('the spec says that heads divide dModel (FieldSpec.divides), and the core refuses a heads that does not', () => {
  const { defaults, fields } = core.configs.cueTrain;
  const divides = Object.fromEntries(fields.filter((f) => f.divides).map((f) => [f.key, f.divides]));
  assert.deepEqual(divides, { heads: 'dModel' });
  const heads = fields.find((f) => f.key === 'heads');
  for (let h = heads.min; h <= Math.min(heads.max, defaults.dModel + 1); h++) {
    const create = () => core.createCueModel({ heads: h, epochs: 1 }).dispose();
    if (defaults.dModel % h === 0) assert.doesNotThrow(create, `heads ${h}`);
    else assert.throws(create, /heads must divide dModel/, `heads ${h}`);
  }
});

test('bad configs are Errors naming the field as JS writes it, and the module stays usable', () => {
  assert.throws(() => core.createCueModel({ blocks: 0 }), /^Error: blocks must be a whole number in \[1, 8\], got 0$/);
  assert.throws(
    () => core.createCueModel({ batchSize: 0 }),
    /^Error: batchSize must be a whole number in \[1, 4096\], got 0$/,
  );
  assert.throws(
    () => core.createCueModel({ learningRate: -1 }),
    /^Error: learningRate must be a number in \(0, 10\], got -1$/,
  );
  assert.throws(() => core.createCueModel({ epochs: 1001 }), /epochs must be a whole number in \[1, 1000\], got 1001/);
  assert.throws(() => core.createCueModel({ heads: 3 }), /^Error: heads must divide dModel = 32/);
  assert.throws(() => core.createCueModel({ blocks: 1.5 }), /blocks must be a whole number, got 1.5/);
  assert.throws(() => core.createCueModel({ postLayerNorm: 1 }), /postLayerNorm must be true or false/);
  assert.throws(() => core.createCueModel({ seed: -1 }), /seed must be a whole number between 0 and 2\^53 - 1/);
  assert.throws(() => core.createCueModel({ bloks: 2 }), /bloks is not an option; known: blocks, heads/);
  assert.deepEqual(core.cueConfigError({ epochs: 0 }), {
    key: 'epochs',
    message: 'epochs must be a whole number in [1, 1000], got 0',
  });
  assert.equal(core.cueConfigError({ epochs: 5 }), undefined);
  const model = core.createCueModel({ epochs: 1 });
  model.dispose();
  assert.throws(() => model.progress(), /disposed/);
  const before = core.memoryStats().liveAllocations;
  core.createCueModel({ epochs: 1 }).dispose();
  for (let i = 0; i < 20; i++) assert.throws(() => core.createCueModel({ batchSize: 0 }));
  assert.equal(core.memoryStats().liveAllocations, before);
});

test('the analysis: one row per head, their mean, and per block and head the pattern scores', () => {
  const report = trained({ heads: 2, epochs: 3, seed: 5 });
  const a = report.analysis;
  assert.equal(a.lastBlockByOffset.length, 2);
  assert.equal(a.firstBlockCueToAnswer.length, 2);
  assert.equal(a.firstBlockAnswerToCue.length, 2);
  for (let o = 0; o < 4; o++)
    assert.ok(
      Math.abs(a.lastBlockMeanByOffset[o] - (a.lastBlockByOffset[0][o] + a.lastBlockByOffset[1][o]) / 2) < 1e-12,
    );
  for (const scores of [a.previousToken, a.nextToken, a.firstCue]) {
    assert.equal(scores.length, report.config.blocks);
    for (const block of scores) {
      assert.equal(block.length, 2);
      for (const v of block) assert.ok(v >= 0 && v <= 1, `a mean weight in [0, 1], got ${v}`);
    }
  }
});

test('the route: its tests in order, and its label by the rule of intervene.hpp from them', () => {
  const report = trained({ heads: 2, epochs: 12, seed: 5 });
  const { route, analysis } = report;
  const blocks = report.config.blocks;
  assert.equal(route.tests.length, 1 + blocks * 2 + 3);
  assert.deepEqual(
    route.tests.map((t) => `${t.action}/${t.pattern}/${t.block}`),
    [
      'none//0',
      'knock-out//1',
      'knock-out//1',
      'knock-out//2',
      'knock-out//2',
      'pattern/next/1',
      'pattern/previous/1',
      'pattern/first-cue/1',
    ],
  );
  assert.equal(route.cleanAccuracy, route.tests[0].accuracy);
  // The core's label, the heads it tested and knocked out, what each test measured and its thresholds.
  const { core, rule } = coreAndRule(route, analysis);
  assert.deepEqual(core, rule);
});
