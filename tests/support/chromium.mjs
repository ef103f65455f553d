// Debian's Chromium under playwright-core, headless, with the flags this machine needs
// (docs/toolchain.md): never a browser downloaded by a tool. playwright gives every
// launch a fresh temporary profile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { STRICT_CSP, serveStatic } from '../../scripts/static-server.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Collects console errors, page errors and CSP violations of a page. */
export function watchErrors(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
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

/** Scrolls through the opened lesson once its numbers are in and every kind of widget is defined (each from its own chunk), so each widget sees itself come into view. */
export async function scrollThroughLesson(page) {
  await page.waitForSelector('html[data-lesson-ready]', { timeout: 15000 });
  await page.waitForFunction(() => [...document.querySelectorAll('main figure.widget > :first-child')].every((w) => customElements.get(w.localName)));
  for (let y = 0; y < 40; y++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(40);
  }
}

/** Opens the lesson at `url` and scrolls through it, so every widget starts; waits until all are ready. */
export async function startLesson(page, url) {
  await page.goto(url + 'index.html');
  await scrollThroughLesson(page);
  await page.waitForFunction(() => [...document.querySelectorAll('main figure.widget > :first-child')].every((w) => w.hasAttribute('data-ready')), null, { timeout: 20000 });
}
