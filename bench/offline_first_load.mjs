// The lesson's offline precache stays out of its first load, in Chromium on localhost (dist/
// served by the project's server, brotli, the strict CSP), each visit a first one (a browser
// context of its own, an empty cache):
//   - without a service worker (navigator.serviceWorker hidden before the page runs): the bytes
//     the page transfers until lesson-ready and 4 s of quiet network;
//   - with it: the same page's bytes until the worker is registered, then what the page loaded
//     after (the registration's own chunk), and what the precache may still transfer (the
//     listed files the page had not loaded, brotli sizes: the upper bound, since the worker's
//     fetches reuse the HTTP cache for the rest).
// Prints the figures and whether the first load's bytes grew (goal: not by more than the
// registration's scheduler, a few hundred bytes in the lesson's main chunk).
//   node bench/offline_first_load.mjs      (after scripts/build)
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { STRICT_CSP, serveStatic } from '../scripts/static-server.mjs';
import { launchChromium } from '../tests/support/chromium.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
/** The most the first load may grow: the idle scheduler (web/src/pages/lesson/offline.ts) in the main chunk, compressed. */
const GROWTH_GOAL = 1024;

/** Watches the page's network (CDP): each finished response's path, bytes and time (ms since the watch began). */
function watchTransfers() {
  const urls = new Map();
  const finished = [];
  const started = Date.now();
  const watch = async (page) => {
    const cdp = await page.puppeteer.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.responseReceived', ({ requestId, response }) =>
      urls.set(requestId, new URL(response.url).pathname),
    );
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) =>
      finished.push({ path: urls.get(requestId), bytes: encodedDataLength, at: Date.now() - started }),
    );
  };
  const quiet = async (ms) => {
    for (let last = -1; last !== finished.length;) {
      last = finished.length;
      await new Promise((ok) => setTimeout(ok, ms));
    }
  };
  return { watch, finished, quiet };
}

const sum = (list) => list.reduce((total, f) => total + f.bytes, 0);

const server = await serveStatic(dist, { csp: STRICT_CSP });
const browser = await launchChromium();
try {
  const without = watchTransfers();
  let page = await browser.open(
    `${server.url}index.html`,
    { width: 1280, height: 900 },
    {
      isolated: true,
      beforeLoad: async (page) => {
        await without.watch(page);
        await page.puppeteer.evaluateOnNewDocument(() => delete Navigator.prototype.serviceWorker);
      },
    },
  );
  await page.locate('html[data-lesson-ready]').waitFor({ timeout: 30000 });
  await without.quiet(4000);
  const withoutBytes = sum(without.finished);

  const withWorker = watchTransfers();
  page = await browser.open(
    `${server.url}index.html`,
    { width: 1280, height: 900 },
    { isolated: true, beforeLoad: withWorker.watch },
  );
  await page.waitFor(() => document.documentElement.dataset.offline === 'ready', undefined, { timeout: 60000 });
  const registration = withWorker.finished.find((f) => /\/offline-update-[\w-]+\.js$/.test(f.path));
  if (!registration) throw new Error('the page never loaded its offline-update chunk');
  const before = withWorker.finished.filter((f) => f.at < registration.at);
  const after = withWorker.finished.filter((f) => f.at >= registration.at);

  const worker = readFileSync(path.join(dist, 'lesson-sw.js'), 'utf8');
  const listed = JSON.parse(/"files":(\[[^\]]*\])/.exec(worker)[1]);
  const loaded = new Set(withWorker.finished.map((f) => f.path.slice(1)));
  const brotli = (file) =>
    statSync(path.join(dist, existsSync(path.join(dist, `${file}.br`)) ? `${file}.br` : file)).size;
  const rest = listed.filter((file) => !loaded.has(file));

  const growth = sum(before) - withoutBytes;
  console.log(`first visit, no service worker:          ${kib(withoutBytes)} in ${without.finished.length} responses`);
  console.log(`first visit, until the worker registers:  ${kib(sum(before))} in ${before.length} responses`);
  console.log(`  growth: ${growth} bytes (goal <= ${GROWTH_GOAL} bytes): ${growth <= GROWTH_GOAL ? 'met' : 'MISSED'}`);
  console.log(
    `after idle, the registration's chunks:    ${kib(sum(after))} (${after.map((f) => path.basename(f.path)).join(', ')})`,
  );
  console.log(`precache list: ${listed.length} files, ${kib(listed.reduce((t, f) => t + brotli(f), 0))} brotli;`);
  console.log(
    `  not loaded by the first visit (the precache's own transfer, at most): ${rest.length} files, ${kib(rest.reduce((t, f) => t + brotli(f), 0))}`,
  );
  console.log(`  registered ${registration.at} ms after the first visit began`);
} finally {
  await browser.close();
  await server.close();
}
