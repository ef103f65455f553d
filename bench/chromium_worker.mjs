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
    const page = await browser.newPage();
    const query = new URLSearchParams({ worker, ...params });
    await page.goto(`${server.url}bench/worker-host.html?${query}`);
    return await page.evaluate(() => window.benchResult);
  } finally {
    await browser.close();
    await server.close();
  }
}
