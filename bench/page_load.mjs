// The lesson as a reader meets it on localhost: time until the first widget is interactive,
// and the bytes transferred for the page and then for each widget as it is scrolled into view
// (heavy libraries load only then). Also lists dist/'s files by size. The goal it prints is the
// lesson's (the first widget interactive within 1 s on localhost); a course page's
// first load, with its own goals, is bench/first_load.mjs (npm run bench:load).
//
//   node bench/page_load.mjs      (after scripts/build; serves dist/ with the strict CSP)
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { serveStatic } from '../scripts/static-server.mjs';
import { launchChromium } from '../tests/support/chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const server = await serveStatic(dist, { headers: () => ({ 'Content-Security-Policy': CSP }) });
const browser = await launchChromium();
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
try {
  // The bytes on the wire, from the protocol's network events (page.puppeteer: CDP).
  let transferred = 0;
  const watchNetwork = async (page) => {
    const cdp = await page.puppeteer.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    cdp.on('Network.loadingFinished', (event) => (transferred += event.encodedDataLength));
  };
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
  const settle = async () => {
    let last = -1;
    while (last !== transferred) {
      last = transferred;
      await sleep(300);
    }
  };

  const started = Date.now();
  const page = await browser.open(
    server.url + 'index.html',
    { width: 1280, height: 900 },
    { beforeLoad: watchNetwork },
  );
  // The first interactive widget in reading order is the soft-lookup sketch (a canvas, the core),
  // just below the first screen: a reader who goes straight to it.
  await page.waitFor(() => document.querySelector('attn-soft-lookup') !== null, undefined, { timeout: 20000 });
  await page.locate('attn-soft-lookup').scrollIntoView();
  await page.waitFor(() => document.querySelector('attn-soft-lookup[data-ready]') !== null, undefined, {
    timeout: 20000,
  });
  const readyMs = await page.run(() => performance.now());
  const lessonMs = Number(await page.run(() => document.documentElement.dataset.lessonReady));
  console.log(
    `first interactive widget <attn-soft-lookup>: ${readyMs.toFixed(0)} ms after navigation (wall clock ${Date.now() - started} ms); goal for the lesson 1000 ms ${readyMs <= 1000 ? 'met' : 'NOT met'}`,
  );
  console.log(`the core loaded and the prose's numbers computed ${lessonMs} ms after the page's script started`);
  await settle();
  console.log(
    `page on open, with the soft lookup (HTML, CSS, main script, core, widgets within reach of the first screen): ${kib(transferred)}`,
  );

  const tags = await page
    .locate('main figure.widget > :first-child')
    .evaluateAll((nodes) => nodes.map((n) => n.localName));
  for (const [i, tag] of tags.entries()) {
    const before = transferred;
    await page.locate('main figure.widget > :first-child').nth(i).scrollIntoView();
    await page.waitFor(
      (i) => document.querySelectorAll('main figure.widget > :first-child')[i].hasAttribute('data-ready'),
      i,
      { timeout: 20000 },
    );
    await settle();
    console.log(`  + <${tag}> scrolled into view: ${kib(transferred - before)}`);
  }
  console.log(`whole lesson, every widget started: ${kib(transferred)}`);

  console.log('\ndist/ files (raw, gzip -9):');
  const files = [];
  const walk = (dir) =>
    readdirSync(dir).forEach((f) => {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push([path.relative(dist, p), statSync(p).size, gzipSync(readFileSync(p), { level: 9 }).length]);
    });
  walk(dist);
  files
    .sort((a, b) => b[1] - a[1])
    .forEach(([f, raw, gz]) => console.log(`  ${f.padEnd(48)} ${kib(raw).padStart(11)} ${kib(gz).padStart(11)}`));
} finally {
  await browser.close();
  await server.close();
}
