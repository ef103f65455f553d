// Interventions on a trained cue model in WebAssembly (model.intervene), on the weights the build
// recorded: every number equals the native command's (`attention-lab intervene --json` of the same
// weights and flags) exactly, for knock-outs, each ideal pattern and patches. Bad input names the
// argument, and the model keeps working: the next valid call returns exactly what it did before.
//
//   ATTN_CLI        the native attention-lab (default build/cli/attention-lab)
//   ATTN_GENERATED  where scripts/build wrote the recorded runs (default web/src/generated)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';

import { loadCore, root } from './helpers.mjs';

const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const generated = path.resolve(root, process.env.ATTN_GENERATED ?? 'web/src/generated');
const core = await loadCore();
const CUE = 7;
const TOKENS = [3, 1, CUE, 5, 0, 6, 2, 2, 4, CUE];

/** A recorded run's model, its weights loaded, and its weights file and config. */
function recorded(name) {
  const { config } = JSON.parse(fs.readFileSync(path.join(generated, `${name}.json`), 'utf8'));
  const file = path.join(generated, `${name}.weights.bin`);
  const bytes = fs.readFileSync(file);
  const model = core.createCueModel(config);
  model.loadWeights(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
  return { model, file, config };
}

/** The native command's intervention: the config's fields as flags, the inputs as lists. */
function nativeIntervene(run, config, inputs) {
  const flags = ['--blocks', run.config.blocks, '--heads', run.config.heads, '--seed', run.config.seed];
  const flag = { corruptShift: 'corrupt-shift' };
  for (const [key, value] of Object.entries(config)) flags.push(`--${flag[key] ?? key}`, value);
  for (const [key, value] of Object.entries(inputs)) flags.push(`--${key}`, value.join(','));
  return JSON.parse(
    execFileSync(cli, ['intervene', '--json', '--weights', run.file, ...flags.map(String)], { encoding: 'utf8' }),
  );
}

/** The facade's result as the CLI's JSON writes it (typed arrays as lists). */
const plain = (r) => ({
  ...r,
  probabilities: Array.from(r.probabilities),
  unchangedProbabilities: Array.from(r.unchangedProbabilities),
});

const CASES = [
  [{ action: 'none' }, { tokens: TOKENS }],
  [{ action: 'knock-out', ablation: 'zero', block: 1, head: 1 }, { tokens: TOKENS }],
  [{ action: 'knock-out', ablation: 'mean', block: 1, head: 1 }, { tokens: TOKENS }],
  [{ action: 'knock-out', ablation: 'zero', block: 2, head: 1 }, {}],
  ...['previous', 'next', 'self', 'uniform', 'first-cue'].map((pattern) => [
    { action: 'pattern', pattern, block: 1, head: 1 },
    { tokens: TOKENS },
  ]),
  [
    { action: 'patch', block: 1, head: 0 },
    { tokens: TOKENS, positions: [3] },
  ],
  [
    { action: 'patch', block: 1, head: 1, corruptShift: 2 },
    { tokens: TOKENS, positions: [2, 9] },
  ],
  [
    { action: 'patch', block: 2, head: 0 },
    { tokens: TOKENS, corrupted: [3, 1, CUE, 0, 0, 6, 2, 2, 4, CUE] },
  ],
];

const runs = { 'cue-1block': recorded('cue-1block'), 'cue-2block': recorded('cue-2block') };
after(() => Object.values(runs).forEach((r) => r.model.dispose()));

for (const [name, run] of Object.entries(runs)) {
  test(`${name}: model.intervene equals attention-lab intervene --json exactly`, () => {
    let compared = 0;
    for (const [config, inputs] of CASES) {
      if ((config.block ?? 1) > run.config.blocks) continue;
      const ours = plain(run.model.intervene(config, inputs));
      assert.deepEqual(ours, nativeIntervene(run, config, inputs), JSON.stringify({ config, inputs }));
      compared += 1;
    }
    assert.ok(compared >= 10);
  });
}

test('bad input to intervene names the argument, and the model keeps working', () => {
  const { model } = runs['cue-2block'];
  const config = { action: 'knock-out', block: 1, head: 1 };
  const good = plain(model.intervene(config, { tokens: TOKENS }));
  const cases = [
    [{ action: 'knock-out', head: 2 }, {}, /^head must be in 1\.\.heads = 1 .*got 2$/],
    [{ action: 'knock-out', block: 3 }, {}, /block/],
    [{ action: 'explode' }, {}, /^action must be one of "none", "knock-out", "pattern", "patch", got "explode"$/],
    [{ ablation: 'half' }, {}, /^ablation must be one of/],
    [{ action: 'pattern', pattern: 'sideways' }, {}, /^pattern must be one of/],
    [{ action: 'patch', corruptShift: 9 }, {}, /^corruptShift must be below symbols = 7, got 9$/],
    [{ head: 1.5 }, {}, /head/],
    [config, { tokens: 'abc' }, /^tokens must be an array of numbers/],
    [config, { tokens: [3, 1, 1.5] }, /^tokens\[2\]/],
    [{ action: 'patch', head: 0 }, { tokens: TOKENS, positions: [10] }, /positions/],
    [{ action: 'patch', head: 0 }, { tokens: TOKENS, corrupted: [1, 2] }, /corrupted/],
    [config, null, /^inputs must be an object of lists/],
  ];
  for (const [c, inputs, message] of cases) {
    assert.throws(() => model.intervene(c, inputs), { message }, JSON.stringify({ c, inputs }));
    assert.deepEqual(plain(model.intervene(config, { tokens: TOKENS })), good, 'still works after ' + message);
  }
});
