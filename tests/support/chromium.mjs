// Debian's Chromium for the Chromium suites (tests/web/, the benchmarks), headless, with the
// flags this machine needs (docs/toolchain.md): never a browser downloaded by a tool. It is
// driven through tests/support/engines.mjs (puppeteer-core), which gives every launch a fresh
// temporary profile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRICT_CSP, serveStatic } from '../../scripts/static-server.mjs';
import { launch } from './engines.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Chromium through engines.mjs: { open(url, viewport, { beforeLoad }), close(), puppeteer }. */
export function launchChromium() {
  return launch('chromium');
}

/** The Content-Security-Policy the built site promises to work under (the server sends it). */
export const CSP = STRICT_CSP;

/**
 * Serves dist/ on 127.0.0.1 (with the CSP unless csp: false) and launches Chromium. `wasmDir`,
 * if given, is a build's wasm/ folder whose modules (attention_core.wasm, attention_lab.wasm) are
 * served in place of the shipped ones (another build of the same bindings).
 */
export async function openSite({ csp = true, wasmDir } = {}) {
  const dist = new URL('../../dist/', import.meta.url).pathname;
  const server = await serveStatic(dist, {
    csp: csp ? CSP : null,
    replace: (path) => {
      const module = wasmDir && /\/(attention_(?:core|lab))-[^/]*\.wasm$/.exec(path)?.[1];
      return module ? readFileSync(join(wasmDir, `${module}.wasm`)) : undefined;
    },
  });
  return { server, browser: await launchChromium() };
}

export async function closeSite({ server, browser }) {
  await browser?.close();
  await server?.close();
}

/**
 * Scrolls through the opened lesson once its numbers are in, so each widget sees itself come into
 * view; then brings back into view, one at a time, each widget not started yet (its code loads as
 * it nears the viewport, and a wheel may have passed it before that).
 */
export async function scrollThroughLesson(page) {
  await page.locate('html[data-lesson-ready]').waitFor({ timeout: 15000 });
  // To the page's end, however long the widths make it (the widgets reserve their heights).
  const atEnd = () => page.run(() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1);
  for (let step = 0; step < 200 && !(await atEnd()); step++) {
    await page.wheel(800);
    await new Promise((ok) => setTimeout(ok, 40));
  }
  await page.waitFor(
    () => {
      const waiting = [...document.querySelectorAll('main figure.widget > :first-child')].find(
        (w) => !w.hasAttribute('data-ready') && !w.querySelector(':scope > .attn-error'),
      );
      waiting?.scrollIntoView({ block: 'center', behavior: 'instant' });
      return !waiting;
    },
    undefined,
    { timeout: 30000 },
  );
}

/**
 * Opens the lesson at `url` (the site's address, or the lesson's own with a query) in `browser`
 * (a page of `viewport`), scrolls through it, so every widget starts, and waits until all are
 * ready; resolves to the page.
 */
export async function startLesson(browser, url, viewport = { width: 1280, height: 720 }, options) {
  const page = await browser.open(url.endsWith('/') ? url + 'index.html' : url, viewport, options);
  await scrollThroughLesson(page);
  await page.waitFor(
    () =>
      [...document.querySelectorAll('main figure.widget > :first-child')].every((w) => w.hasAttribute('data-ready')),
    undefined,
    { timeout: 20000 },
  );
  return page;
}
