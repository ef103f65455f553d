// The page side of the Chromium benchmarks (bench/worker-host.html): starts the module Worker
// named by ?worker= (a file in bench/), posts it the page's other parameters, and hands its
// one answer to the runner through window.benchResult.
const params = Object.fromEntries(new URLSearchParams(location.search));
const { worker: name, ...rest } = params;
if (!/^[a-z_]+\.mjs$/.test(name ?? '')) throw new Error(`worker must name a module in bench/, got ${name}`);
const worker = new Worker(new URL(`./${name}`, import.meta.url), { type: 'module' });
window.benchResult = new Promise((resolve, reject) => {
  worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
  worker.onerror = (event) => reject(new Error(event.message || 'the Worker failed'));
});
worker.postMessage(rest);
