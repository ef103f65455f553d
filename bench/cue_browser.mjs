// The cue-task training in headless Chromium (a module Worker, WebAssembly) against the native
// command and WebAssembly under node, timed in one run; prints seconds, ratios, the achieved
// GFLOP/s and the Worker's peak heap.
//
//   node bench/cue_browser.mjs [--blocks 2] [--epochs 30] [--seed S]
// Needs scripts/build (build/cli/attention-lab and build-wasm/facade/).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWorkerInChromium } from './chromium_worker.mjs';
import { cueRunFlops } from './cue_flops.mjs';
import { loadCore, root } from '../tests/wasm/helpers.mjs';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '2' },
    epochs: { type: 'string', default: '30' },
    seed: { type: 'string' },
  },
});
const blocks = Number(values.blocks),
  epochs = Number(values.epochs);

const core = await loadCore();
const seed = values.seed ?? String(core.configs.cueTrain.defaults.seed);
const chromium = await runWorkerInChromium('cue_browser_worker.mjs', { blocks, epochs, seed });
const nodeStart = performance.now();
const model = core.createCueModel({ blocks, epochs, seed: Number(seed) });
while (!model.progress().finished) model.trainEpoch();
const nodeSeconds = (performance.now() - nodeStart) / 1000;
model.dispose();

const native = JSON.parse(
  execFileSync(
    path.join(root, 'build/cli/attention-lab'),
    ['cue', '--blocks', String(blocks), '--epochs', String(epochs), '--seed', seed, '--json'],
    { encoding: 'utf8' },
  ),
);
const gflop = cueRunFlops({ ...core.configs.cueTrain.defaults, blocks, epochs }) / 1e9;
const drift = Math.max(...chromium.curve.map((a, i) => Math.abs(a - native.history[i].validationAccuracy)));
const row = (name, s) =>
  `${name.padEnd(22)} ${s.toFixed(2).padStart(7)} s  ${(gflop / s).toFixed(1).padStart(5)} GFLOP/s  ${(s / native.elapsedSeconds).toFixed(2).padStart(5)}x native`;
console.log(`cue task, ${blocks} block(s), ${epochs} epochs, seed ${seed}: about ${gflop.toFixed(1)} GFLOP`);
console.log(row('native (attention-lab)', native.elapsedSeconds));
console.log(row('wasm in node', nodeSeconds));
console.log(row('wasm in Chromium Worker', chromium.seconds));
console.log(
  `Chromium: best ${chromium.best.toFixed(4)} (native ${native.bestValidationAccuracy.toFixed(4)}), largest per-epoch difference ${drift.toFixed(4)}, peak Worker heap ${(chromium.peakHeap / 2 ** 20).toFixed(1)} MiB`,
);
console.log(
  `goals: Chromium <= 30 s (must) ${chromium.seconds <= 30 ? 'met' : 'NOT met'}, <= 8 s ${chromium.seconds <= 8 ? 'met' : 'NOT met'}; wasm / native <= 2 ${chromium.seconds / native.elapsedSeconds <= 2 ? 'met' : 'NOT met'}; heap < 64 MiB ${chromium.peakHeap < 64 * 2 ** 20 ? 'met' : 'NOT met'}`,
);
