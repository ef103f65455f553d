// Time per FLOP across sizes ("cost grows with the work, nothing else"): the sweep, mask and
// heads experiments and the cue trainer's forward pass, each at three sizes toward the core's
// limits (bench/scaling_workloads.hpp; each call's FLOP count, every floating-point operation by
// one convention, is written in bench/scaling_workloads.cpp), timed inside WebAssembly in node
// by the benchmark module; prints nanoseconds per FLOP per size (median of the rounds, each
// round the best of 3 timed runs) and, per experiment, largest / smallest; beside them, the same
// cases natively (build/bench/scaling_bench_native, one run), to tell what WebAssembly adds from
// what the experiment itself does at a small size. Two series per experiment: the goal's, and a
// diagnostic one with the width held (bench/scaling_workloads.hpp).
//   node bench/scaling.mjs [--rounds 3] [--json FILE]
// Needs the benchmark module: cmake --build build-wasm --target attention_bench (bench/run-all).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { root } from '../tests/wasm/helpers.mjs';
import { median, table } from './report.mjs';
import { microsecondsPerCall } from './timing.mjs';

export const GOAL = 1.5;

export async function measureScaling(rounds) {
  const { default: create } = await import('../build-wasm/bench/attention_bench.mjs');
  const bench = await create({ wasmBinary: fs.readFileSync(path.join(root, 'build-wasm/bench/attention_bench.wasm')) });
  const cases = bench.scalingCases();
  let sink = 0;
  const times = cases.map(() => []);
  for (let r = 0; r < rounds; r++)
    cases.forEach((_, i) =>
      times[i].push(
        microsecondsPerCall(() => {
          sink += bench.scaling(i, 1);
        }, 3),
      ),
    );
  if (!Number.isFinite(sink)) throw new Error('the scaling cases computed non-finite numbers');
  return cases.map((c, i) => ({ ...c, us: median(times[i]), nsPerFlop: (1000 * median(times[i])) / c.flops }));
}

/** Microseconds per call of each case natively, in the cases' order. */
export function measureScalingNative() {
  return JSON.parse(execFileSync(path.join(root, 'build/bench/scaling_bench_native'), { encoding: 'utf8' }));
}

/**
 * Per experiment and series: largest / smallest ns per FLOP, in WebAssembly and natively
 * ([{experiment, widthHeld, ratio, nativeRatio, met}]); met is null for the diagnostic series
 * (widthHeld, bench/scaling_workloads.hpp), which has no goal.
 */
export function scalingRows(cases, nativeUs) {
  const series = [...new Set(cases.map((c) => `${c.experiment}|${c.widthHeld}`))];
  return series.map((key) => {
    const inSeries = (c) => `${c.experiment}|${c.widthHeld}` === key;
    const first = cases.findIndex(inSeries),
      last = cases.findLastIndex(inSeries);
    const ratio = cases[last].nsPerFlop / cases[first].nsPerFlop;
    const nativeRatio = nativeUs[last] / cases[last].flops / (nativeUs[first] / cases[first].flops);
    const { experiment, widthHeld } = cases[first];
    return { experiment, widthHeld, ratio, nativeRatio, met: widthHeld ? null : ratio <= GOAL && ratio >= 1 / GOAL };
  });
}

const seriesName = (widthHeld) => (widthHeld ? 'width held' : 'all grow');

/** The tables for measureScaling()'s cases and the native times. */
export function printScaling(cases, nativeUs, rounds) {
  console.log(`time per FLOP across sizes, three each (WebAssembly in node, median of ${rounds} rounds; native, one)`);
  console.log('"all grow": the goal\'s sizes; "width held": no goal, the width stays and only the length grows');
  console.log(
    table([
      [
        'experiment',
        'series',
        'size',
        'MFLOP per call',
        'in products',
        'wasm ms per call',
        'wasm ns/FLOP',
        'native ns/FLOP',
      ],
      ...cases.map((c, i) => [
        c.experiment,
        seriesName(c.widthHeld),
        c.size,
        (c.flops / 1e6).toFixed(2),
        `${((100 * c.productFlops) / c.flops).toFixed(0)}%`,
        (c.us / 1000).toFixed(3),
        c.nsPerFlop.toFixed(4),
        ((1000 * nativeUs[i]) / c.flops).toFixed(4),
      ]),
    ]),
  );
  console.log(
    table([
      ['experiment', 'series', 'largest / smallest ns per FLOP (wasm)', 'goal', 'native, same', 'met'],
      ...scalingRows(cases, nativeUs).map((r) => [
        r.experiment,
        seriesName(r.widthHeld),
        r.ratio.toFixed(2),
        r.widthHeld ? 'none' : `within ${GOAL}x`,
        r.nativeRatio.toFixed(2),
        r.met === null ? '-' : r.met ? 'yes' : 'NO',
      ]),
    ]),
  );
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, json: { type: 'string' } } });
  const cases = await measureScaling(Number(values.rounds));
  const nativeUs = measureScalingNative();
  printScaling(cases, nativeUs, values.rounds);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ cases, nativeUs }));
}
