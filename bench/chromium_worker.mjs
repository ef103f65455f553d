// Runs one of the benchmarks' module Workers (a file in bench/) in headless Chromium and returns
// its answer: a server rooted at the repository serves bench/worker-host.html, which starts the
// Worker with the given parameters (strings). Needs scripts/build (the facade in
// build-wasm/facade/) and whatever the Worker imports.
import { serveStatic } from '../scripts/static-server.mjs';
import { launchChromium } from '../tests/support/chromium.mjs';
import { root } from '../tests/wasm/helpers.mjs';

export async function runWorkerInChromium(worker, params = {}) {
  const server = await serveStatic(root);
  const browser = await launchChromium();
  try {
    const query = new URLSearchParams({ worker, ...params });
    const page = await browser.open(`${server.url}bench/worker-host.html?${query}`, { width: 1280, height: 720 });
    return await page.run(() => window.benchResult);
  } finally {
    await browser.close();
    await server.close();
  }
}
