// A module Worker that trains one cue-task model through the facade (the same code path as
// the lesson's trainer Worker) and reports the time, the curve and the peak heap size.
import { loadCore } from '../build-wasm/facade/core.js';

onmessage = async ({ data }) => {
  const core = await loadCore();
  const seed = data.seed === null ? core.cueDefaultSeed() : Number(data.seed);
  const start = performance.now();
  const model = core.createCueModel({ blocks: data.blocks, epochs: data.epochs, seed });
  let peakHeap = core.memoryStats().heapBytes;
  while (!model.metrics().finished) {
    model.trainEpoch();
    peakHeap = Math.max(peakHeap, core.memoryStats().heapBytes);
  }
  const seconds = (performance.now() - start) / 1000;
  const metrics = model.metrics();
  model.dispose();
  postMessage({ seconds, seed, peakHeap, best: metrics.bestValidationAccuracy, curve: metrics.history.map((e) => e.validationAccuracy) });
};
