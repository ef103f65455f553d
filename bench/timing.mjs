// The WebAssembly benchmarks' clock, the same rule as bench/timing.hpp: best microseconds per
// call over 7 runs (or `runs`) of ~100 ms each. Shared by bench/*_wasm.mjs.
import fs from 'node:fs';

export function microsecondsPerCall(fn, runs = 7) {
  let calls = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    if (performance.now() - start > 100) break;
    calls *= 2;
  }
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    best = Math.min(best, ((performance.now() - start) * 1000) / calls);
  }
  return best;
}

/** The best time of every workload over the rounds in a JSON-lines file (one round a line). */
export function best(file) {
  const rounds = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const times = {};
  for (const round of rounds) for (const [k, v] of Object.entries(round)) times[k] = Math.min(times[k] ?? Infinity, v);
  return { rounds: rounds.length, times };
}
