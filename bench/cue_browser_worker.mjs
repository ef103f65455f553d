// A module Worker that trains one cue-task model through the facade (the same code path as
// the lesson's trainer Worker) and reports the time, the curve and the peak heap size.
// Started by bench/cue_browser.mjs through bench/worker-host.html (parameters arrive as strings).
import { loadCore } from '../build-wasm/facade/core/index.js';

onmessage = async ({ data }) => {
  const core = await loadCore();
  const seed = data.seed ? Number(data.seed) : core.configs.cueTrain.defaults.seed;
  const start = performance.now();
  const model = core.createCueModel({ blocks: Number(data.blocks), epochs: Number(data.epochs), seed });
  let peakHeap = core.memoryStats().heapBytes;
  while (!model.progress().finished) {
    model.trainEpoch();
    peakHeap = Math.max(peakHeap, core.memoryStats().heapBytes);
  }
  const seconds = (performance.now() - start) / 1000;
  const best = model.progress().bestValidationAccuracy,
    curve = model.history().map((e) => e.validationAccuracy);
  model.dispose();
  postMessage({ seconds, seed, peakHeap, best, curve });
};
