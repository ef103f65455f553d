// A light first load, in Chromium on localhost, with dist/ served by the
// project's own server (scripts/static-server.mjs: brotli or gzip, the strict CSP, long-lived
// caching for hashed assets), the browser's cache off:
//   - a course page holding only <attn-soft-lookup> (the script form of the embedding guide):
//     bytes transferred (compressed, headers included) until the widget is interactive, and
//     the time from navigation until it is (its data-ready attribute); median of `rounds` loads;
//   - the whole lesson, scrolled until every widget has started: bytes transferred.
// Prints each response of the course page with its encoding, so a file that grew shows.
//   node bench/first_load.mjs [--rounds 5]      (after scripts/build)
import path from 'node:path';
import { parseArgs } from 'node:util';

import { STRICT_CSP, serveStatic } from '../scripts/static-server.mjs';
import { launchChromium, startLesson } from '../tests/support/chromium.mjs';
import { median, table } from './report.mjs';

// The course page's budget includes about 5 KiB for the widgets' words in the reader's language
// (the message runtime, the language and number rules, the widget's English messages).
export const GOALS = { courseKiB: 205, courseMs: 400, lessonKiB: 500 };

const dist = path.resolve(import.meta.dirname, '../dist');
const kib = (bytes) => bytes / 1024;

// The course author's page, as the embedding guide writes it, and a watcher that notes when the
// widget says it is ready (a file of its own: the CSP allows no inline script).
const COURSE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<link rel="stylesheet" href="/attention-lab.css">
<script type="module" src="/bench-ready.js"></script>
<script type="module" src="/attention-lab.js"></script>
</head><body><h1>Soft lookup</h1><attn-soft-lookup></attn-soft-lookup></body></html>`;
const READY_WATCH = `new MutationObserver((_, observer) => {
  if (!document.querySelector('attn-soft-lookup[data-ready]')) return;
  window.benchReadyMs = performance.now();
  observer.disconnect();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });`;

/**
 * Transfers of one page load: adds up encodedDataLength of every finished response, from the
 * protocol's network events; `watch(page)` starts watching a page (before it loads).
 */
function watchTransfers() {
  const responses = new Map();
  const finished = [];
  const watch = async (page) => {
    const cdp = await page.puppeteer.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    cdp.on('Network.responseReceived', ({ requestId, response }) =>
      responses.set(requestId, {
        url: new URL(response.url).pathname,
        encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'none',
      }),
    );
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) =>
      finished.push({ ...responses.get(requestId), bytes: encodedDataLength }),
    );
  };
  const total = () => finished.reduce((sum, f) => sum + f.bytes, 0);
  // Until nothing more arrives for 500 ms: what the page fetched to get where it is.
  const settle = async () => {
    for (let last = -1; last !== finished.length;) {
      last = finished.length;
      await new Promise((ok) => setTimeout(ok, 500));
    }
  };
  return { watch, finished, total, settle };
}

export async function measureFirstLoad(rounds = 5) {
  const server = await serveStatic(dist, {
    csp: STRICT_CSP,
    replace: (p) => (p === '/course.html' ? COURSE_PAGE : p === '/bench-ready.js' ? READY_WATCH : undefined),
  });
  const browser = await launchChromium();
  try {
    const course = [];
    let files = [];
    // Each load in a browser context of its own (isolated), as a first visit.
    for (let r = 0; r < rounds; r++) {
      const transfers = watchTransfers();
      const page = await browser.open(
        server.url + 'course.html',
        { width: 1280, height: 900 },
        { beforeLoad: transfers.watch, isolated: true },
      );
      await page.waitFor(() => window.benchReadyMs !== undefined, undefined, { timeout: 20000 });
      const readyMs = await page.run(() => window.benchReadyMs);
      await transfers.settle();
      course.push({ readyMs, bytes: transfers.total() });
      files = transfers.finished;
      await page.close();
    }

    const transfers = watchTransfers();
    const page = await startLesson(
      browser,
      server.url,
      { width: 1280, height: 900 },
      { beforeLoad: transfers.watch, isolated: true },
    );
    await transfers.settle();
    const lessonBytes = transfers.total();
    await page.close();
    return {
      courseMs: median(course.map((c) => c.readyMs)),
      courseBytes: median(course.map((c) => c.bytes)),
      course,
      files,
      lessonBytes,
      lessonFiles: transfers.finished.length,
      lessonList: transfers.finished,
      rounds,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** One summary row per figure: [figure, measured, goal, met]. */
export function firstLoadRows(m) {
  return [
    [
      'course page with one <attn-soft-lookup>: transferred',
      `${kib(m.courseBytes).toFixed(1)} KiB`,
      `<= ${GOALS.courseKiB} KiB`,
      kib(m.courseBytes) <= GOALS.courseKiB,
    ],
    [
      'course page with one <attn-soft-lookup>: interactive',
      `${m.courseMs.toFixed(0)} ms`,
      `<= ${GOALS.courseMs} ms`,
      m.courseMs <= GOALS.courseMs,
    ],
    [
      'whole lesson, every widget started: transferred',
      `${kib(m.lessonBytes).toFixed(1)} KiB`,
      `<= ${GOALS.lessonKiB} KiB`,
      kib(m.lessonBytes) <= GOALS.lessonKiB,
    ],
  ];
}

export function printFirstLoad(m) {
  console.log(
    `first load in Chromium from the project's server on localhost, cache off (course page: median of ${m.rounds} loads)`,
  );
  console.log(
    table([
      ['course page, file', 'encoding', 'KiB transferred'],
      ...m.files.map((f) => [f.url, f.encoding, kib(f.bytes).toFixed(1)]),
    ]),
  );
  console.log(
    `course page loads (ms to interactive / KiB): ${m.course.map((c) => `${c.readyMs.toFixed(0)} / ${kib(c.bytes).toFixed(1)}`).join(', ')}`,
  );
  console.log(
    table([
      ['lesson, file', 'encoding', 'KiB'],
      ...m.lessonList.map((f) => [f.url, f.encoding, kib(f.bytes).toFixed(1)]),
    ]),
  );
  console.log(
    table([
      ['figure', 'measured', 'goal', 'met'],
      ...firstLoadRows(m).map(([f, v, g, met]) => [f, v, g, met ? 'yes' : 'NO']),
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
  printFirstLoad(await measureFirstLoad(Number(values.rounds)));
}
