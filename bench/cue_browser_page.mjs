// The page side of bench/cue_browser.mjs: starts the training Worker and hands its result to
// the runner through window.benchResult.
const params = new URLSearchParams(location.search);
const worker = new Worker(new URL('./cue_browser_worker.mjs', import.meta.url), { type: 'module' });
window.benchResult = new Promise((resolve, reject) => {
  worker.onmessage = (event) => resolve(event.data);
  worker.onerror = (event) => reject(new Error(event.message));
});
worker.postMessage({ blocks: Number(params.get('blocks') ?? 2), epochs: Number(params.get('epochs') ?? 30), seed: params.get('seed') });
