// Five benchmarks in one run (`npm run bench:all`): attention calls (native against
// WebAssembly, bench/run-attention's rounds), the training at one core's limit
// (bench/limit_browser.mjs), "Train both" on two Workers (bench/train_both_browser.mjs), a light
// first load (bench/first_load.mjs) and time per FLOP across sizes (bench/scaling.mjs); each
// prints its tables, then one summary line per figure, named by its benchmark, with its goal
// and peer side by side. Builds the benchmark module first; needs scripts/build.
//   node bench/run-all.mjs     (ATTN_BENCH_ROUNDS: the attention calls' rounds, 5)
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { goalRows, printAttention } from './attention_wasm.mjs';
import { firstLoadRows, measureFirstLoad, printFirstLoad } from './first_load.mjs';
import { GOAL as LIMIT_GOAL, measureLimit, printLimit } from './limit_browser.mjs';
import { table } from './report.mjs';
import { GOAL as SCALING_GOAL, measureScaling, measureScalingNative, printScaling, scalingRows } from './scaling.mjs';
import { GOAL as BOTH_GOAL, measureTrainBoth, printTrainBoth } from './train_both_browser.mjs';
import { buildWasmTargets } from './wasm_build.mjs';
import { root } from '../tests/wasm/helpers.mjs';

buildWasmTargets('attention_bench');
const summary = [['benchmark', 'figure', 'measured', 'goal', 'peer', 'met']];

// Attention calls: native and WebAssembly rounds alternated, as bench/run-attention takes them.
const rounds = Number(process.env.ATTN_BENCH_ROUNDS ?? 5);
const native = [],
  wasm = [];
for (let r = 0; r < rounds; r++) {
  native.push(JSON.parse(execFileSync(path.join(root, 'build/bench/attention_bench_native'), { encoding: 'utf8' })));
  wasm.push(
    JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/attention_wasm.mjs')], { encoding: 'utf8' })),
  );
}
printAttention(native, wasm);
for (const row of goalRows(native, wasm))
  summary.push(['attention calls', row.name, row.figure, row.goal, row.peer, row.met ? 'yes' : 'NO']);
console.log();

// The training at one core's limit, in Chromium.
const limit = await measureLimit(3);
printLimit(limit);
summary.push([
  "training at one core's limit",
  'training / limit (Chromium Worker)',
  `${(100 * limit.fraction).toFixed(0)}%`,
  `>= ${100 * LIMIT_GOAL}%`,
  `limit ${limit.limit.toFixed(1)} GFLOP/s (${limit.limitImpl === 'kernels' ? 'training kernels' : 'Eigen'}), ` +
    `training ${limit.trainRate.toFixed(1)} GFLOP/s`,
  limit.fraction >= LIMIT_GOAL ? 'yes' : 'NO',
]);
summary.push([
  "training at one core's limit",
  'per-epoch numbers = native',
  limit.sameAsNative ? 'equal' : 'DIFFER',
  'bit-identical',
  `native CLI, ${limit.epochs} epochs`,
  limit.sameAsNative ? 'yes' : 'NO',
]);
console.log();

// Train both on two Workers, in Chromium.
const both = await measureTrainBoth({ rounds: 3 });
printTrainBoth(both);
summary.push([
  'Train both on two Workers',
  'Train both, two Workers / 2 blocks alone',
  `${both.ratio.toFixed(2)}x`,
  `<= ${BOTH_GOAL}x`,
  `2 blocks alone ${both.peer.toFixed(2)} s; hardwareConcurrency ${both.cores}`,
  both.ratio <= BOTH_GOAL ? 'yes' : 'NO',
]);
console.log();

// A light first load, in Chromium.
const load = await measureFirstLoad(5);
printFirstLoad(load);
for (const [figure, measured, goal, met] of firstLoadRows(load))
  summary.push(['first load', figure, measured, goal, 'localhost, cache off', met ? 'yes' : 'NO']);
console.log();

// Time per FLOP across sizes.
const cases = await measureScaling(3);
const nativeUs = measureScalingNative();
printScaling(cases, nativeUs, 3);
for (const row of scalingRows(cases, nativeUs).filter((r) => !r.widthHeld))
  summary.push([
    'time per FLOP across sizes',
    `${row.experiment}: largest / smallest ns per FLOP`,
    row.ratio.toFixed(2),
    `within ${SCALING_GOAL}x`,
    `native ${row.nativeRatio.toFixed(2)}`,
    row.met ? 'yes' : 'NO',
  ]);

console.log(`\nsummary: every figure of the five benchmarks, with its goal and peer\n${table(summary)}`);
