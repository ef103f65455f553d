// Timing the benchmark module's multiplies (build-wasm/bench/attention_bench.mjs) at the
// training's shapes, with Eigen or the training kernels; shared by the Chromium Worker of the
// training at one core's limit (bench/limit_worker.mjs), bench/limit_browser.mjs and
// bench/profile_training.mjs in node.

/**
 * Seconds per bench.gemm(set, shape, kernels): calls of `reps` repetitions, `reps` doubled until
 * one call takes 100 ms; the last such call is the measurement.
 */
export function secondsPerGemm(bench, set, shape, kernels) {
  let sink = 0;
  for (let reps = 16; ; reps *= 2) {
    const start = performance.now();
    sink += bench.gemm(set, shape, kernels, reps);
    const ms = performance.now() - start;
    if (ms > 100) {
      if (!Number.isFinite(sink)) throw new Error('the multiply computed non-finite numbers');
      return ms / 1000 / reps;
    }
  }
}

/** The rate of all shapes together, with equal FLOPs each: the harmonic mean of their rates. */
export function equalFlopsRate(rates) {
  return rates.length / rates.reduce((sum, rate) => sum + 1 / rate, 0);
}
