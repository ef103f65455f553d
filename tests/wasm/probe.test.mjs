// The probe of a trained cue model in WebAssembly, on the weights the build recorded with the
// native command (`attention-lab cue --save-weights`): the loaded model is the recorded run's
// (its analysis of the validation set equals the recorded one exactly), and every probe's
// probabilities and attention equal the native command's (`attention-lab probe --json`) bit for
// bit. Bad tokens and weights are named.
//
//   ATTN_CLI        the native attention-lab (default build/cli/attention-lab)
//   ATTN_GENERATED  where scripts/build wrote the recorded runs (default web/src/generated)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { loadCore, root } from './helpers.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const generated = path.resolve(root, process.env.ATTN_GENERATED ?? 'web/src/generated');
const core = await loadCore();

/** A recorded run: its report and its weights file. */
function recorded(name) {
  const report = JSON.parse(fs.readFileSync(path.join(generated, `${name}.json`), 'utf8'));
  const file = path.join(generated, `${name}.weights.bin`);
  const bytes = fs.readFileSync(file);
  return { report, file, weights: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
}

/** The native command's probe of the same weights. */
function nativeProbe(run, tokens) {
  const flags = [
    '--blocks',
    String(run.report.config.blocks),
    '--heads',
    String(run.report.config.heads),
    '--seed',
    String(run.report.config.seed),
  ];
  return JSON.parse(
    execFileSync(cli, ['probe', ...flags, '--weights', run.file, '--tokens', tokens.join(','), '--json'], {
      encoding: 'utf8',
    }),
  );
}

function loaded(run) {
  const { elapsedSeconds, analysisHistory, ...rest } = run.report;
  const model = core.createCueModel(run.report.config);
  model.loadWeights(run.weights);
  return { model, report: rest };
}

const CUE = 7;
const SEQUENCES = [
  [3, 1, CUE, 5, 0, 6, 2, 2, 4, CUE], // a task sequence: the answer is 5
  [CUE, 4, 4, 4, 1, 2, 3, 0, 6, CUE], // the cue first
  [0, 1, 2, 3, 4, 5, 6, CUE, 2, CUE], // the cue as late as the task puts it
  [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], // no cue at all
  [CUE, CUE, CUE, CUE, CUE, CUE, CUE, CUE, CUE, CUE],
];

for (const name of ['cue-1block', 'cue-2block', 'runs/two-block-seed10', 'runs/two-block-seed16']) {
  test(`${name}: the loaded weights are the recorded run's, and probes equal the native command's exactly`, () => {
    const run = recorded(name);
    const { model, report } = loaded(run);
    try {
      assert.equal(run.weights.length, report.parameterCount);
      assert.deepEqual(model.weights(), run.weights);
      // The same model: its attention analysis of the validation set is the recorded one.
      const plain = (value) => JSON.parse(JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      assert.deepEqual(plain(model.analysis()), report.analysis);
      // And the route its interventions name, every accuracy and loss to the last digit.
      assert.deepEqual(plain(model.route()), report.route);
      for (const tokens of SEQUENCES) {
        const probe = model.probe(tokens);
        const native = nativeProbe(run, tokens);
        assert.deepEqual(Array.from(probe.tokens), native.tokens);
        assert.deepEqual(
          [probe.cuePosition, probe.expected, probe.prediction],
          [native.cuePosition, native.expected, native.prediction],
          tokens.join(' '),
        );
        assert.deepEqual(Array.from(probe.probabilities), native.probabilities, 'probabilities');
        assert.deepEqual(
          probe.attention.map((block) => block.map((w) => Array.from(w))),
          native.attention,
          'attention',
        );
        assert.equal(probe.attention.length, report.config.blocks);
      }
      // A trained model answers the task sequence: the recorded 2-block runs solve the task.
      if (report.config.blocks === 2) assert.equal(model.probe(SEQUENCES[0]).prediction, 5);
    } finally {
      model.dispose();
    }
  });
}

test('bad tokens and weights are named, and a refused load changes nothing', () => {
  const model = core.createCueModel({ blocks: 1, epochs: 1 });
  try {
    const before = model.weights();
    assert.throws(
      () => model.probe([1, 2, 3]),
      /^Error: tokens must hold 10 token ids \(the sequence length\), got 3$/,
    );
    assert.throws(
      () => model.probe([1, 2, 3, 4, 5, 6, 0, 1, 9, 7]),
      /^Error: tokens must be token ids in 0\.\.8, got 9 at index 8$/,
    );
    assert.throws(() => model.probe([1, 2, 3, 4, 5, 6, 0, 1, 0.5, 7]), /tokens\[8\] must be a whole number, got 0.5/);
    assert.throws(() => model.probe('0123456787'), /tokens must be an array of token ids/);
    assert.throws(
      () => model.loadWeights(new Float32Array(3)),
      /^Error: weights must hold the model's 9129 parameters, got 3$/,
    );
    assert.throws(() => model.loadWeights(Array.from(before)), /weights must be a Float32Array, got an array/);
    const bad = before.slice();
    bad[7] = Infinity;
    assert.throws(() => model.loadWeights(bad), /weights must be finite, got inf at index 7/);
    assert.deepEqual(model.weights(), before);
    assert.equal(model.probe(SEQUENCES[0]).probabilities.length, 9); // still usable
  } finally {
    model.dispose();
  }
  assert.throws(() => model.probe(SEQUENCES[0]), /this cue model has been disposed/);
});
