// Where the cue training's time goes in WebAssembly (what lies behind the training at one core's
// limit, bench/limit_browser.mjs): the default training run (2 blocks, 30 epochs) in node under
// V8's CPU profiler, with the whole core built with its functions' names (target
// attention_lab_profile: the same code plus a name section), and each function's share of the
// samples. Then, in this process, the training kernels at the training's multiply shapes (the
// benchmark module, as bench/limit_browser.mjs measures them in Chromium), so the products' rate
// inside the training can be set against the kernels' own.
//
// Why it matters: bench/limit_browser.mjs divides the training's rate, by a count of its
// products only (bench/cue_flops.mjs), by the kernels' rate. Time spent outside the products
// (LayerNorm, dropout's draws, softmax, biases, Adam, copies) holds no counted FLOP, so the
// fraction can be at most the products' share of the time times their rate against the kernels'.
//
//   node bench/profile_training.mjs        (npm run bench:profile; needs scripts/build)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cueRunFlops } from './cue_flops.mjs';
import { equalFlopsRate, secondsPerGemm } from './gemm_rate.mjs';
import { table } from './report.mjs';
import { buildWasmTargets } from './wasm_build.mjs';
import { root } from '../tests/wasm/helpers.mjs';

const profileDir = path.join(root, 'build-wasm/profile');
const PRODUCTS = ['attn::fixed_order::matmul<', 'attn::fixed_order::matmul_bt<', 'attn::fixed_order::add_matmul_at<'];

// The child: one default training through a copy of the facade that loads the named build.
if (process.argv[2] === '--train') {
  const { loadCore } = await import(path.join(profileDir, 'core/index.js'));
  const core = await loadCore({ wasmBinary: fs.readFileSync(path.join(profileDir, 'generated/attention_lab.wasm')) });
  const start = performance.now();
  const model = core.createCueModel();
  while (!model.progress().finished) model.trainEpoch();
  const seconds = (performance.now() - start) / 1000;
  model.dispose();
  console.log(JSON.stringify({ seconds, config: core.configs.cueTrain.defaults }));
  process.exit(0);
}

buildWasmTargets('attention_lab_profile', 'attention_bench');
fs.cpSync(path.join(root, 'build-wasm/facade/core'), path.join(profileDir, 'core'), { recursive: true });

// Self time per function, from the samples of the .cpuprofile node wrote.
const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-profile-'));
const { seconds, config } = JSON.parse(
  execFileSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profiles}`, new URL(import.meta.url).pathname, '--train'],
    { encoding: 'utf8' },
  ),
);
const profile = JSON.parse(fs.readFileSync(path.join(profiles, fs.readdirSync(profiles)[0]), 'utf8'));
fs.rmSync(profiles, { recursive: true });
const nameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName || '(anonymous)']));
const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  selfTime.set(nameOf.get(id), (selfTime.get(nameOf.get(id)) ?? 0) + dt);
});
const share = (name) => (selfTime.get(name) ?? 0) / total;
const byTime = [...selfTime.keys()].sort((a, b) => share(b) - share(a));
const productShare = byTime
  .filter((name) => PRODUCTS.some((p) => name.includes(p)))
  .reduce((sum, name) => sum + share(name), 0);

// The kernels at the training's shapes, equal FLOPs each, as bench/limit_browser.mjs.
const { default: createBench } = await import('../build-wasm/bench/attention_bench.mjs');
const bench = await createBench({
  wasmBinary: fs.readFileSync(path.join(root, 'build-wasm/bench/attention_bench.wasm')),
});
const shapes = bench.gemmShapes('training');
const rates = shapes.map((shape, s) => shape.flops / secondsPerGemm(bench, 'training', s, true) / 1e9);
const kernelRate = equalFlopsRate(rates);

const flops = cueRunFlops(config),
  trainRate = flops / seconds / 1e9,
  productRate = flops / (productShare * seconds) / 1e9;
const short = (name) =>
  name
    .replace(/\(.*$/, '')
    .replace(/^(void|double|float) /, '')
    .replace(/Eigen::Matrix<[^>]*>/g, 'Mat');
console.log(
  `where the cue training's time goes in WebAssembly (node ${process.versions.node}, V8 CPU profile, ` +
    `${config.blocks} blocks, ${config.epochs} epochs: ${seconds.toFixed(2)} s)`,
);
console.log(
  table([
    ['function (self time)', 'share'],
    ...byTime.slice(0, 15).map((name) => [short(name).slice(0, 70), `${(100 * share(name)).toFixed(1)}%`]),
  ]),
);
console.log(
  table([
    ['', 'GFLOP/s', 'share of the time'],
    ['training, by its count of products (bench/cue_flops.mjs)', trainRate.toFixed(1), '100%'],
    [
      'the products inside it (matmul, matmul_bt, add_matmul_at)',
      productRate.toFixed(1),
      `${(100 * productShare).toFixed(1)}%`,
    ],
    ['training kernels alone at its shapes, equal FLOPs each', kernelRate.toFixed(1), ''],
  ]),
);
console.log(
  `products inside the training / kernels alone: ${((100 * productRate) / kernelRate).toFixed(0)}%; ` +
    `training / kernels alone: ${((100 * trainRate) / kernelRate).toFixed(0)}%, ` +
    `which is the products' share of the time times that`,
);
