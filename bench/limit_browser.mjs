// The training at one core's limit ("know the limit, stay at it"): in one Chromium Worker and
// one run, the matrix multiply at the training's shapes with Eigen and with the training's own
// fixed-order kernels (the limit is the faster of the two), and the default cue training's rate
// by its analytic FLOP count (bench/cue_flops.mjs) as a fraction of that limit. Medians of the
// rounds. Also checks that every round's per-epoch numbers equal the native command's
// (bit-identity).
//
//   node bench/limit_browser.mjs [--rounds 3] [--json FILE]
// Needs scripts/build and the benchmark module (cmake --build build-wasm --target
// attention_bench; bench/run-all.mjs builds it, and runs this benchmark through measureLimit()).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { runWorkerInChromium } from './chromium_worker.mjs';
import { cueRunFlops } from './cue_flops.mjs';
import { equalFlopsRate } from './gemm_rate.mjs';
import { median, table } from './report.mjs';
import { root } from '../tests/wasm/helpers.mjs';

export const GOAL = 0.9;

/** The figures from `rounds` rounds in one Chromium Worker (see the top of this file). */
export async function measureLimit(rounds) {
  const result = await runWorkerInChromium('limit_worker.mjs', { rounds: String(rounds) });
  const native = JSON.parse(
    execFileSync(path.join(root, 'build/cli/attention-lab'), ['cue', '--json'], { encoding: 'utf8' }),
  );
  const gflops = (flops, seconds) => flops / seconds / 1e9;
  const { shapes, config } = result;
  // Per implementation: each shape's median rate, and all shapes together with equal FLOPs each.
  const rates = {};
  for (const impl of ['eigen', 'kernels']) {
    const perShape = shapes.map((shape, s) => gflops(shape.flops, median(result.rounds.map((r) => r.gemm[s][impl]))));
    rates[impl] = { perShape, together: equalFlopsRate(perShape) };
  }
  const limitImpl = rates.kernels.together >= rates.eigen.together ? 'kernels' : 'eigen';
  const limit = rates[limitImpl].together;
  const runFlops = cueRunFlops(config);
  const trainSeconds = median(result.rounds.map((r) => r.trainSeconds));
  const trainRate = gflops(runFlops, trainSeconds);
  const sameAsNative = result.rounds.every(
    (r) =>
      r.history.length === native.history.length &&
      r.history.every((epoch, i) => Object.keys(epoch).every((key) => epoch[key] === native.history[i][key])),
  );
  return {
    shapes,
    config,
    rounds: result.rounds,
    epochs: native.history.length,
    rates,
    limitImpl,
    limit,
    runFlops,
    trainSeconds,
    trainRate,
    fraction: trainRate / limit,
    sameAsNative,
  };
}

/** The table and lines for measureLimit()'s result. */
export function printLimit(m) {
  const { shapes, rates, rounds } = m;
  console.log(`training at one core's limit (Chromium Worker, WebAssembly; median of ${rounds.length} rounds)`);
  console.log(
    table([
      ['multiply, GFLOP/s', 'Eigen', 'training kernels'],
      ...shapes.map((shape, s) => [
        shape.name,
        rates.eigen.perShape[s].toFixed(1),
        rates.kernels.perShape[s].toFixed(1),
      ]),
      ['all four, equal FLOPs each', rates.eigen.together.toFixed(1), rates.kernels.together.toFixed(1)],
    ]),
  );
  console.log(
    `cue training at the defaults (${m.config.blocks} blocks, ${m.config.epochs} epochs, ${(m.runFlops / 1e9).toFixed(1)} GFLOP ` +
      `by bench/cue_flops.mjs): ${m.trainSeconds.toFixed(2)} s (rounds ${rounds.map((r) => r.trainSeconds.toFixed(2)).join(', ')}), ` +
      `${m.trainRate.toFixed(1)} GFLOP/s`,
  );
  console.log(
    `training / limit (${m.limitImpl === 'kernels' ? 'training kernels' : 'Eigen'}, ${m.limit.toFixed(1)} GFLOP/s): ` +
      `${(100 * m.fraction).toFixed(0)}%   goal >= ${100 * GOAL}%   ${m.fraction >= GOAL ? 'met' : 'NOT met'}`,
  );
  console.log(
    `per-epoch numbers of every round equal the native command's (${m.epochs} epochs): ${m.sameAsNative ? 'yes' : 'NO'}`,
  );
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, json: { type: 'string' } } });
  const m = await measureLimit(Number(values.rounds));
  printLimit(m);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify(m));
}
