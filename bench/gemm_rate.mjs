// Seconds per multiply of the benchmark module (build-wasm/bench/attention_bench.mjs) at one of
// its shapes, with Eigen or the training kernels; shared by goal 1's Chromium Worker
// (bench/limit_worker.mjs) and bench/profile_training.mjs in node.

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
