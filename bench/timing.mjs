// The WebAssembly benchmarks' clock, the same rule as bench/timing.hpp: best microseconds per
// call over 7 runs of ~100 ms each. Shared by bench/*_wasm.mjs.

export function microsecondsPerCall(fn) {
  let calls = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    if (performance.now() - start > 100) break;
    calls *= 2;
  }
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    best = Math.min(best, ((performance.now() - start) * 1000) / calls);
  }
  return best;
}
