// The training at one core's limit, all measured in this one module Worker (bench/limit_browser.mjs starts it in
// Chromium): per round, each of the training's multiply shapes with Eigen and with the
// training's kernels (the benchmark module, build-wasm/bench/), then one cue training run
// through the facade at the core's defaults. Answers with every round's times and each run's
// per-epoch validation numbers.
import { loadCore } from '../build-wasm/facade/core/index.js';
import createAttentionBench from '../build-wasm/bench/attention_bench.mjs';
import { secondsPerGemm } from './gemm_rate.mjs';

onmessage = async ({ data }) => {
  try {
    const rounds = Number(data.rounds);
    const [core, bench] = await Promise.all([loadCore(), createAttentionBench()]);
    const shapes = bench.gemmShapes('training');
    const config = core.configs.cueTrain.defaults;
    const result = { shapes, config, userAgent: navigator.userAgent, rounds: [] };
    for (let r = 0; r < rounds; r++) {
      const gemm = shapes.map((_, s) => ({
        eigen: secondsPerGemm(bench, 'training', s, false),
        kernels: secondsPerGemm(bench, 'training', s, true),
      }));
      const start = performance.now();
      const model = core.createCueModel();
      while (!model.progress().finished) model.trainEpoch();
      const trainSeconds = (performance.now() - start) / 1000;
      const history = model.history();
      model.dispose();
      result.rounds.push({ gemm, trainSeconds, history });
    }
    postMessage(result);
  } catch (error) {
    postMessage({ error: String(error.stack || error) });
  }
};
