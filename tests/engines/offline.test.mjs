// The lesson offline, in Chromium (one launch), on the built site (dist/, strict CSP):
//   - a first visit installs the lesson's service worker once the page is idle, which caches
//     every file of its precache list; the manifest makes it installable (CDP's
//     Page.getInstallabilityErrors: none);
//   - the worker's scope is the lesson's page alone: not the guide (embed.html, which it does
//     not control), the site's folder or an author's page beside it;
//   - offline, the lesson reloads: its text, the core (the numbers the prose quotes), a widget
//     that computes in the core and the probe, whose trained weights come from the cache;
//   - a changed worker (another build's version) installs and waits: the open page says a newer
//     version is ready and does not reload; its button reloads into the new version, whose
//     activation deletes the old version's cache.
//   - screenshots: build/screenshots/offline/ (the lesson offline at 1280 and 360 px, its probe
//     answering offline, the notice at both widths in both themes).
// Run after `npm run build`: node --test tests/engines/offline.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveStatic } from '../../scripts/static-server.mjs';
import { CSP } from '../support/chromium.mjs';
import { DIST, launch } from '../support/engines.mjs';

const SHOTS = resolve(import.meta.dirname, '../../build/screenshots/offline');
const worker = readFileSync(resolve(DIST, 'lesson-sw.js'), 'utf8');
const version = /"version":"(\w+)"/.exec(worker)?.[1];
const files = JSON.parse(/"files":(\[[^\]]*\])/.exec(worker)?.[1] ?? 'null');

test('the lesson works offline after one visit, installable, its worker scoped to it, updates offered', async (t) => {
  const began = Date.now();
  const phase = (name) => t.diagnostic(`${name}: ${((Date.now() - began) / 1000).toFixed(1)} s`);
  assert.ok(version && files?.length, 'dist/lesson-sw.js carries its version and precache list');
  // "Another build": the same worker with another version, served once the test says so.
  let served = worker;
  const serve = (port) =>
    serveStatic(DIST, { port, csp: CSP, replace: (path) => (path === '/lesson-sw.js' ? served : undefined) });
  let site = await serve();
  const browser = await launch('chromium');
  try {
    // A first visit: the worker is installed once the page is idle, with every listed file cached.
    let page = await browser.open(`${site.url}index.html`, { width: 1280, height: 900 });
    await page.locate('html[data-lesson-ready]').waitFor({ timeout: 30000 });
    await page.waitFor(() => document.documentElement.dataset.offline === 'ready', undefined, { timeout: 30000 });
    const cached = await page.run(async () => {
      const names = await caches.keys();
      return { names, files: (await (await caches.open(names[0])).keys()).map((request) => request.url) };
    });
    assert.deepEqual(cached.names, [`attention-lab-lesson-${version}`]);
    assert.deepEqual(cached.files.sort(), files.map((file) => new URL(file, site.url).href).sort());
    for (const needed of [/\.wasm$/, /weights-[\w-]+\.bin$/, /training-worker-[\w-]+\.js$/, /^index\.html$/])
      assert.ok(
        files.some((file) => needed.test(file)),
        `the precache list has a file matching ${needed}`,
      );
    assert.ok(!files.some((file) => /(^|\/)embed[.-]/.test(file)), 'the guide is not precached');

    phase('first visit, precached');
    const cdp = await page.puppeteer.createCDPSession();
    assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
    const scopes = await page.run(async () => {
      const scopeOf = async (url) => (await navigator.serviceWorker.getRegistration(url))?.scope ?? null;
      return {
        lesson: await scopeOf('index.html?lang=es#quiz'),
        guide: await scopeOf('embed.html'),
        folder: await scopeOf('./'),
        author: await scopeOf('course/page.html'),
      };
    });
    assert.deepEqual(scopes, { lesson: `${site.url}index.html`, guide: null, folder: null, author: null });

    // Offline (the browser's network off, and the server gone too, for the worker's own fetches):
    // the lesson reloads from the cache, and its core and widgets compute.
    await page.puppeteer.setOfflineMode(true);
    await site.close();
    await page.puppeteer.reload();
    await page.locate('html[data-lesson-ready]').waitFor({ timeout: 30000 });
    assert.ok(await page.run(() => navigator.serviceWorker.controller !== null), 'the worker controls the lesson');
    assert.match(await page.locate('#core-status').text(), /\d/, 'the core loaded and reported its time');
    for (const tag of ['attn-attention-steps', 'attn-cue-probe']) {
      await page.locate(tag).scrollIntoView();
      await page.locate(`${tag}[data-ready]`).waitFor({ timeout: 30000 });
    }
    // The probe answers in the recorded models, their weights (.bin) fetched by its Worker.
    await page.locate('attn-cue-probe[data-answered-by]:not([data-busy])').waitFor({ timeout: 30000 });
    assert.deepEqual(page.engineProblems, []);
    const offline = await page.run(() =>
      fetch('lesson-offline-probe.txt').then(
        () => 'answered',
        () => 'failed',
      ),
    );
    assert.equal(offline, 'failed', 'a file outside the precache cannot be fetched');
    phase('offline, the core and the probe');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshotOf('attn-cue-probe', `${SHOTS}/offline-probe-1280.png`);
    await page.run(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.puppeteer.screenshot({ path: `${SHOTS}/offline-1280.png` });
    await page.puppeteer.setViewport({ width: 360, height: 740 });
    await page.puppeteer.screenshot({ path: `${SHOTS}/offline-360.png` });
    await page.puppeteer.setOfflineMode(false);
    site = await serve(Number(new URL(site.url).port));

    // The guide, on the same host, is not the worker's.
    page = await browser.open(`${site.url}embed.html?widget=attn-soft-lookup`, { width: 1280, height: 900 });
    assert.equal(await page.run(() => document.readyState), 'complete');
    assert.equal(await page.run(() => navigator.serviceWorker.controller), null);

    phase('the guide');
    // Another build: the open lesson is offered it, and keeps running until the reader reloads.
    served = worker.replaceAll(version, `${version.slice(0, -4)}next`);
    page = await browser.open(`${site.url}index.html`, { width: 1280, height: 900 });
    await page.run(() => (window.sameDocument = true));
    await page.locate('#offline-update').waitFor({ timeout: 30000 });
    assert.equal(await page.run(() => document.documentElement.dataset.offline), 'update');
    assert.match(await page.locate('#offline-update p').text(), /newer version/);
    assert.equal(await page.run(() => window.sameDocument), true, 'the page did not reload on its own');
    // The new version's files are cached beside the running one's, which stays until it takes over.
    assert.deepEqual((await page.run(() => caches.keys())).sort(), [
      `attention-lab-lesson-${version}`,
      `attention-lab-lesson-${version.slice(0, -4)}next`,
    ]);
    phase('a newer version offered');
    for (const width of [1280, 360])
      for (const theme of ['light', 'dark']) {
        await page.puppeteer.setViewport({ width, height: width === 360 ? 740 : 900 });
        await page.run((theme) => (document.documentElement.dataset.attnTheme = theme), theme);
        await page.screenshotOf('#offline-update', `${SHOTS}/update-${width}-${theme}.png`);
      }
    await page.puppeteer.screenshot({ path: `${SHOTS}/update-page-360-dark.png` });
    assert.equal(await page.run(() => window.sameDocument), true, 'still the same page, the notice unanswered');
    await Promise.all([page.puppeteer.waitForNavigation(), page.locate('#offline-update button').click()]);
    assert.equal(await page.run(() => window.sameDocument), undefined, 'the button reloaded the page');
    await page.waitFor(async () => (await caches.keys()).length === 1);
    assert.deepEqual(await page.run(() => caches.keys()), [`attention-lab-lesson-${version.slice(0, -4)}next`]);
    assert.equal(await page.run(() => document.getElementById('offline-update')), null);
    phase('reloaded into it');
  } finally {
    await browser.close();
    await site.close();
  }
});
