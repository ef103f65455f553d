// Times the cue-task training in WebAssembly under node (through web/src/core.ts) against the
// native command, in one run, and prints the ratio and how far the curves drift apart.
//
//   node bench/cue_wasm.mjs [--blocks 2] [--epochs 30] [--seed S]
//   ATTN_WASM_FACADE  the compiled facade with generated/ next to it (default build-wasm/facade)
//   ATTN_CLI          the native attention-lab (default build/cli/attention-lab)
//
// Both sides time their own training (data, model, every epoch with validation, analysis).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadCore, root } from '../tests/wasm/helpers.mjs';

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '2' }, epochs: { type: 'string', default: '30' }, seed: { type: 'string' } } });
const cli = path.resolve(root, process.env.ATTN_CLI ?? 'build/cli/attention-lab');
const core = await loadCore();
const blocks = Number(values.blocks), epochs = Number(values.epochs);
const seed = values.seed === undefined ? core.cueDefaultSeed() : Number(values.seed);

const start = performance.now();
const model = core.createCueModel({ blocks, epochs, seed });
while (!model.metrics().finished) model.trainEpoch();
const analysis = model.analysis();
const metrics = model.metrics();
const wasmSeconds = (performance.now() - start) / 1000;
model.dispose();

const native = JSON.parse(execFileSync(cli, ['cue', '--blocks', String(blocks), '--epochs', String(epochs),
                                             '--seed', String(seed), '--json'], { encoding: 'utf8' }));
let drift = 0, driftEpoch = 0;
metrics.history.forEach((e, i) => {
  const d = Math.abs(e.validationAccuracy - native.epochs[i].validation_accuracy);
  if (d > drift) [drift, driftEpoch] = [d, i + 1];
});
console.log(`cue task, ${blocks} block(s), ${epochs} epochs, seed ${seed}`);
console.log(`wasm in node ${wasmSeconds.toFixed(2)} s, native ${native.elapsed_seconds.toFixed(2)} s, ` +
            `wasm / native ${(wasmSeconds / native.elapsed_seconds).toFixed(2)}x`);
console.log(`best validation accuracy: wasm ${metrics.bestValidationAccuracy.toFixed(4)}, native ${native.best_validation_accuracy.toFixed(4)}`);
console.log(`largest per-epoch validation-accuracy difference: ${drift.toFixed(4)}` + (drift > 0 ? ` (epoch ${driftEpoch})` : ''));
console.log(`last block on the cue (offset -1): wasm ${analysis.lastBlockByOffset[0][1].toFixed(4)}, ` +
            `native ${native.attention.last_block_by_offset[0][1].toFixed(4)}`);
