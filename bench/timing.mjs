// The WebAssembly benchmarks' clock, the same rule as bench/timing.hpp: best microseconds per
// call over 7 runs (or `runs`) of ~100 ms each. Shared by bench/*_wasm.mjs and bench/call_cost.mjs
// (which uses the two parts on their own: calls counted once, then fewer runs per round).
import fs from 'node:fs';

/** Wall-clock microseconds. */
export const wallMicroseconds = () => performance.now() * 1000;

/**
 * CPU microseconds of this process (user + system): time the process was descheduled does not
 * count, so machines busy with other work disturb it less than the wall clock.
 */
export function cpuMicroseconds() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export function microsecondsPerCall(fn, runs = 7) {
  return bestMicroseconds(fn, callsFilling(fn, 100), runs);
}

/** How many calls of fn (doubling from 1) take more than `ms` milliseconds on `clock`. */
export function callsFilling(fn, ms, clock = wallMicroseconds) {
  let calls = 1;
  for (;;) {
    const start = clock();
    for (let i = 0; i < calls; i++) fn();
    if (clock() - start > ms * 1000) return calls;
    calls *= 2;
  }
}

/** The best microseconds per call over `runs` runs of `calls` calls each, on `clock`. */
export function bestMicroseconds(fn, calls, runs, clock = wallMicroseconds) {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = clock();
    for (let i = 0; i < calls; i++) fn();
    best = Math.min(best, (clock() - start) / calls);
  }
  return best;
}

/** The best time of every workload over the rounds in a JSON-lines file (one round a line). */
export function best(file) {
  const rounds = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const times = {};
  for (const round of rounds) for (const [k, v] of Object.entries(round)) times[k] = Math.min(times[k] ?? Infinity, v);
  return { rounds: rounds.length, times };
}
