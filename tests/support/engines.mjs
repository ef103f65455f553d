// The browser engines a learner may use, behind one small set of verbs, so that a browser test
// is written once and runs in each (docs/browser-engines.md says more):
//   chromium  Debian's chromium, headless, puppeteer-core over CDP
//   firefox   Debian's firefox-esr, headless, puppeteer-core over WebDriver BiDi
//   webkit    Debian's WebKitGTK MiniBrowser (Safari's engine) in its own Xvfb screen, plain
//             W3C WebDriver over HTTP (./webkit.mjs)
// No tool downloads a browser: each engine is the Debian package scripts/setup installs.
//
//   const site = await serveSite();                    // dist/ on 127.0.0.1, strict CSP, watcher
//   describeEngines((session) => { test(...) });       // a describe() per engine, session.browser launched
//   for (const engine of enginesToRun()) ...           // ['chromium', 'firefox', 'webkit'] (ATTN_ENGINES)
//   const browser = await launch('firefox');           // once per suite; browser.version
//   const page = await browser.open(site.url + 'index.html', { width: 1280, height: 900 });
//   await page.startWidgets();                         // every attn-* widget scrolled to and ready
//   await page.run((selector) => document.querySelector(selector).textContent, 'h1');
//   await page.runInFrame('iframe', () => document.documentElement.scrollHeight);  // in a frame's document
//   await page.waitFor(() => document.querySelector('attn-quiz .feedback')?.textContent);
//   await page.click('attn-quiz button');              // a real pointer click at its centre
//   await page.click('iframe', { x: 40, y: 60 });      //   or at a point, from its top-left corner
//   await page.press(['ArrowLeft', 'Shift+ArrowUp'], 'attn-soft-lookup [role=application]');
//   assert.deepEqual(await page.problems(), []);       // console errors, failed requests, CSP violations
//   await page.screenshot('build/engines/x.png');      // the full page, as PNG
//   await page.screenshotOf('attn-quiz', 'build/layout/quiz.png');  // one element, as PNG
//   await page.screenshotsOf([['attn-quiz', 'q.png'], ['attn-exercises', 'x.png']]);  // several at once
//   await browser.close(); await site.close();
//
// - run(fn, arg) and waitFor(fn, arg) send fn's source to the page: it must be a self-contained
//   arrow or function expression (no outer variables), its argument and result plain JSON.
//   It may be async. Scripts sent to WebKit run under the page's CSP: no eval or new Function.
// - They act on the top page. A frame (even from another origin) is reached as a reader would:
//   clicking into it, then pressing keys; and through what it posts to its parent. Only to
//   measure what a reader sees in it, runInFrame(selector, fn, arg) runs fn in its document.
// - A browser shows one page at a time: open() closes the page opened before.
// - problems() comes from the in-page watcher (./watch/attn-watch.js), which serveSite() puts
//   first in every HTML page it sends, frames included, and from the servers' failed answers;
//   Chromium and Firefox add their console errors (WebKit's WebDriver has no console events).
// - Never fixed delays: wait for what the page does (WebKit draws a frame every 17-56 ms here).
//
// Chromium and Firefox (puppeteer) pages have more, for the Chromium suites (tests/web/,
// tests/wasm/chromium/, bench/, scripts/render-diagrams.mjs):
//   const browser = await launch('chromium');
//   const page = await browser.open(url, { width: 1280, height: 720 }, {
//     beforeLoad: (page) => page.puppeteer.evaluateOnNewDocument(...) });  // before it navigates
//   (open(url, viewport, { isolated: true }): in a browser context of its own)
//   page.engineProblems                               // console errors and page errors so far (live)
//   const quiz = page.locate('attn-quiz');             // elements, found when used (see Elements)
//   await quiz.locate('::-p-aria([name="Check"][role="button"])').nth(1).click();
//   await page.locate('attn-mask-figure input').first().fill('12');
//   await page.locate('.trainer-status').withText(/^Trained/).waitFor({ timeout: 60000 });
//   await page.frame('#example-frame').locate('[role="application"]').focus();
//   await page.type('0.5'); await page.wheel(800); await page.drag(from, to, { steps: 8 });
//   await page.addScript(require.resolve('axe-core/axe.min.js'));   // a local script file, run in the page
//   const { suggestedFilename, path } = await page.download(() => button.click());  // Chromium
// - page.puppeteer is the escape hatch: the puppeteer Page, for what only the protocol does
//   (request interception, exposeFunction, init scripts, frames, CDP sessions). Use a verb above
//   where there is one.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, resolve } from 'node:path';
import { after, before, describe } from 'node:test';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';
import { serveStatic } from '../../scripts/static-server.mjs';
import { CHROMIUM_ARGS, CSP } from './chromium.mjs';
import { SCREEN, launchWebKit } from './webkit.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const DIST = resolve(import.meta.dirname, '../../dist');
const WATCH = resolve(import.meta.dirname, 'watch');
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The engines a suite runs: ATTN_ENGINES=firefox,webkit picks some; Chromium, the reference, always runs first. */
export function enginesToRun() {
  const asked = (process.env.ATTN_ENGINES ?? ENGINES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of asked)
    if (!ENGINES.includes(name))
      throw new Error(`ATTN_ENGINES: unknown engine "${name}" (known: ${ENGINES.join(', ')})`);
  return ENGINES.filter((name) => name === 'chromium' || asked.includes(name));
}

/**
 * One describe() per engine of enginesToRun(), named after it: body(session) declares its tests
 * (and hooks), and before them session.browser is the engine launched (closed after them);
 * session.engine is its name. A body's own before() hooks run after the launch.
 */
export function describeEngines(body) {
  for (const engine of enginesToRun()) {
    describe(engine, () => {
      const session = { engine, browser: null };
      before(async () => {
        session.browser = await launch(engine);
        console.log(`# ${engine}: ${session.browser.version}`);
      });
      after(() => session.browser?.close());
      body(session);
    });
  }
}

const servers = new Set();

/**
 * Serves `roots` (folders searched in order; default dist/) on 127.0.0.1 with `csp` as the
 * Content-Security-Policy (default: the strict one the site promises; null for none), CORS when
 * `cors` (an asset host for other origins), every HTML page passed through rewrite(html, path)
 * and given the watcher first. Resolves to { url, failures, close() }.
 */
export async function serveSite({ roots = [DIST], csp = CSP, cors = false, rewrite = (html) => html } = {}) {
  const folders = [...roots, WATCH];
  const site = await serveStatic(folders, { csp, cors, replace: (path) => withWatcher(folders, path, rewrite) });
  servers.add(site);
  const close = site.close;
  site.close = () => {
    servers.delete(site);
    return close();
  };
  return site;
}

/**
 * The HTML page `path` names in the first of `folders` that has it, passed through rewrite(html,
 * path), the watcher first in its head; undefined for other files.
 */
function withWatcher(folders, path, rewrite) {
  const name = path.endsWith('/') ? `${path}index.html` : path;
  if (!name.endsWith('.html')) return undefined;
  const file = folders.map((folder) => join(folder, normalize(name))).find((candidate) => existsSync(candidate));
  return (
    file &&
    rewrite(readFileSync(file, 'utf8'), path).replace(
      /<head>/i,
      (head) => `${head}<script src="/attn-watch.js"></script>`,
    )
  );
}

/** What the engines share: everything but how a page is driven. */
class Page {
  #failuresBefore = new Map([...servers].map((site) => [site, site.failures.length]));

  /** Runs fn(arg) in the page and resolves to its (awaited) JSON result. */
  run(fn, arg) {
    return this.evaluate(fn, arg);
  }

  /** Runs fn(arg) in the document of the <iframe> `selector` names (any origin), like run(). */
  runInFrame(selector, fn, arg) {
    return this.evaluateInFrame(selector, fn, arg);
  }

  /** Runs fn(arg) every 50 ms until it returns something truthy, and resolves to that. */
  async waitFor(fn, arg, { timeout = 20000 } = {}) {
    const until = Date.now() + timeout;
    for (;;) {
      const value = await this.run(fn, arg);
      if (value) return value;
      if (Date.now() > until)
        throw new Error(
          `waited ${timeout} ms in ${this.engine} for ${String(fn)}${arg === undefined ? '' : ` (${JSON.stringify(arg)})`}`,
        );
      await sleep(50);
    }
  }

  /** Scrolls the element into view and clicks it, at its centre or at `at` (CSS px from its top-left corner). */
  async click(selector, at) {
    const box = await this.run((selector) => {
      const node = document.querySelector(selector);
      if (!node) return null;
      node.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const { x, y, width, height } = node.getBoundingClientRect();
      return { x, y, width, height };
    }, selector);
    if (!box) throw new Error(`click: nothing matches ${selector} in ${this.engine}`);
    await this.pointerClick(box.x + (at?.x ?? box.width / 2), box.y + (at?.y ?? box.height / 2));
  }

  /** Focuses `selector` (when given), then presses each key or chord in turn ("Tab", "Shift+ArrowUp", "a"). */
  async press(keys, selector) {
    if (selector !== undefined) {
      const found = await this.run((selector) => {
        const node = document.querySelector(selector);
        node?.focus();
        return node !== null && document.activeElement === node;
      }, selector);
      if (!found) throw new Error(`press: cannot focus ${selector} in ${this.engine}`);
    }
    await this.keys([keys].flat());
  }

  /**
   * Scrolls each attn-* widget of the page into view in turn (widgets start near the viewport)
   * and waits until it is ready (data-ready). Resolves to their tags in page order; throws
   * naming the widget that showed an error instead or did not start, or when there is none yet.
   */
  async startWidgets() {
    const tags = await this.run(() =>
      [...document.querySelectorAll('body *')].filter((n) => n.localName.startsWith('attn-')).map((n) => n.localName),
    );
    if (tags.length === 0) throw new Error(`no widget on the page in ${this.engine} yet: wait until it has rendered`);
    for (let i = 0; i < tags.length; i++) {
      const state = await this.waitFor((i) => {
        const widget = [...document.querySelectorAll('body *')].filter((n) => n.localName.startsWith('attn-'))[i];
        if (widget.hasAttribute('data-ready')) return 'ready';
        const fatal = widget.querySelector(':scope > p.attn-error[role=alert]');
        if (fatal) return fatal.textContent;
        widget.scrollIntoView({ block: 'center', behavior: 'instant' });
        return '';
      }, i);
      if (state !== 'ready') throw new Error(`${tags[i]} did not start in ${this.engine}: ${state}`);
    }
    return tags;
  }

  /** Everything that went wrong since the page opened, as readable lines; [] when nothing did. */
  async problems() {
    const seen = await this.run(
      () => window.__attnProblems ?? ['the watcher is not in this page: open pages that serveSite() serves'],
    );
    for (const [site, before] of this.#failuresBefore)
      seen.push(...site.failures.slice(before).map((failure) => `failed request: ${failure} (${site.url})`));
    return [...seen, ...this.engineProblems];
  }

  /** Writes a PNG of the whole page (not only the viewport) to `path`. */
  async screenshot(path) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, await this.fullPagePng());
  }

  /** Writes a PNG of the first element `selector` matches to `path`. */
  screenshotOf(selector, path) {
    return this.screenshotsOf([[selector, path]]);
  }

  /** screenshotOf() for each [selector, path] of `shots`, the page as it is now. */
  async screenshotsOf(shots) {
    const pngs = await this.elementPngs(shots.map(([selector]) => selector));
    shots.forEach(([, path], i) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, pngs[i]);
    });
  }
}

/**
 * The elements `selector` finds, found anew each time they are used (after the page has
 * changed): a CSS selector or one of puppeteer's (`::-p-aria(name)`, `::-p-aria([name="Check"]
 * [role="button"])`, `::-p-text(words)`), inside the elements found so far. An action on them
 * waits (up to 30 s) until they are there and throws when the selector finds more than one,
 * unless nth() picks one. Chromium and Firefox.
 */
class Elements {
  constructor(root, steps = []) {
    this.root = root;
    this.steps = steps;
  }

  toString() {
    return this.steps
      .map((step) => step.selector ?? (step.text === undefined ? `[${step.nth}]` : `with text ${step.text}`))
      .join(' >> ');
  }

  /** The elements `selector` finds inside these. */
  locate(selector) {
    return new Elements(this.root, [...this.steps, { selector }]);
  }

  /** The n-th of these (0 the first, -1 the last). */
  nth(n) {
    return new Elements(this.root, [...this.steps, { nth: n }]);
  }

  /** Those of these whose text matches `pattern` (a RegExp, or a string it contains). */
  withText(pattern) {
    return new Elements(this.root, [...this.steps, { text: pattern }]);
  }

  first() {
    return this.nth(0);
  }

  last() {
    return this.nth(-1);
  }

  /** The element handles found now (none when nothing matches). */
  async handles() {
    let found = [await this.root()];
    for (const step of this.steps) {
      if (step.selector !== undefined)
        found = (await Promise.all(found.map((scope) => scope.$$(step.selector)))).flat();
      else if (step.text === undefined) found = [found.at(step.nth)].filter(Boolean);
      else {
        const texts = await Promise.all(found.map((node) => node.evaluate((node) => node.textContent)));
        found = found.filter((_, i) =>
          typeof step.text === 'string' ? texts[i].includes(step.text) : step.text.test(texts[i]),
        );
      }
    }
    return found;
  }

  /** The one element found, once it is there (and `visible`, if asked); throws when there are several. */
  async handle({ timeout = 30000, visible = false } = {}) {
    const until = Date.now() + timeout;
    for (;;) {
      const found = await this.handles();
      if (found.length > 1) throw new Error(`${this} matches ${found.length} elements, not one`);
      if (found.length === 1 && (!visible || (await found[0].isVisible()))) return found[0];
      if (Date.now() > until) throw new Error(`waited ${timeout} ms for ${this}${visible ? ' to be visible' : ''}`);
      await sleep(50);
    }
  }

  /** Waits until the element is there and visible. */
  async waitFor({ timeout } = {}) {
    await this.handle({ timeout, visible: true });
  }

  async count() {
    return (await this.handles()).length;
  }

  /** One Elements per element found now, in order. */
  async all() {
    return Array.from({ length: await this.count() }, (_, i) => this.nth(i));
  }

  /** Runs fn(element, arg) in the page on the element, like run(). */
  async evaluate(fn, arg, options) {
    return (await this.handle(options)).evaluate(fn, arg);
  }

  /** Runs fn(elements, arg) in the page on every element found now (maybe none). */
  async evaluateAll(fn, arg) {
    const handles = await this.handles();
    const elements = await (await this.root()).evaluateHandle((...elements) => elements, ...handles);
    try {
      return await elements.evaluate(fn, arg);
    } finally {
      await elements.dispose();
    }
  }

  text(options) {
    return this.evaluate((node) => node.textContent, undefined, options);
  }

  texts() {
    return this.evaluateAll((nodes) => nodes.map((node) => node.textContent));
  }

  innerTexts() {
    return this.evaluateAll((nodes) => nodes.map((node) => node.innerText));
  }

  attribute(name) {
    return this.evaluate((node, name) => node.getAttribute(name), name);
  }

  value() {
    return this.evaluate((node) => node.value);
  }

  checked() {
    return this.evaluate((node) => node.checked);
  }

  disabled() {
    return this.evaluate((node) => node.disabled);
  }

  /** Its box in the viewport, CSS px: { x, y, width, height }. */
  async box() {
    return (await this.handle()).boundingBox();
  }

  /** Scrolls it into view if it is not (an element with no size yet too: a widget that has not started). */
  async scrollIntoView() {
    await (await this.handle()).scrollIntoView();
  }

  async focus() {
    await (await this.handle()).focus();
  }

  /** Scrolls it into view if needed and clicks its centre with the mouse. */
  async click() {
    await (await this.handle({ visible: true })).click();
  }

  /** Clicks a checkbox or radio button that is not checked; throws if it is not checked then. */
  async check() {
    if (await this.checked()) return;
    await this.click();
    if (!(await this.checked())) throw new Error(`check: ${this} did not become checked`);
  }

  async uncheck() {
    if (!(await this.checked())) return;
    await this.click();
    if (await this.checked()) throw new Error(`uncheck: ${this} did not become unchecked`);
  }

  /** Focuses the field, selects what it holds and puts `value` in its place as one input (as a paste does). */
  async fill(value) {
    const handle = await this.handle({ visible: true });
    await handle.evaluate((node) => {
      node.focus();
      if (typeof node.select === 'function') node.select();
    });
    const page = handle.frame.page();
    if (value) await page.keyboard.sendCharacter(value);
    else await page.keyboard.press('Delete');
  }

  /** Focuses it and presses `key` ("Tab", "Shift+ArrowUp"). */
  async press(key) {
    const handle = await this.handle();
    await handle.focus();
    await pressChords(handle.frame.page().keyboard, [key]);
  }
}

async function pressChords(keyboard, chords) {
  for (const chord of chords) {
    const parts = chord.split('+');
    for (const key of parts.slice(0, -1)) await keyboard.down(key);
    await keyboard.press(parts.at(-1));
    for (const key of parts.slice(0, -1).reverse()) await keyboard.up(key);
  }
}

/** Chromium and Firefox: puppeteer-core (CDP and WebDriver BiDi). */
class PuppeteerPage extends Page {
  engineProblems = [];

  constructor(engine, page, context) {
    super();
    this.engine = engine;
    this.page = page;
    this.context = context;
    // Firefox turns an Error logged to the console into "JSHandle@object"; the watcher has its message.
    page.on(
      'console',
      (message) => message.type() === 'error' && this.engineProblems.push(`console (${engine}): ${message.text()}`),
    );
    page.on('pageerror', (error) => this.engineProblems.push(`page error (${engine}): ${error.message}`));
  }

  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg);
  }

  async evaluateInFrame(selector, fn, arg) {
    const frame = await (await this.page.$(selector))?.contentFrame();
    if (!frame) throw new Error(`runInFrame: no frame matches ${selector} in ${this.engine}`);
    return frame.evaluate(fn, arg);
  }

  pointerClick(x, y) {
    return this.page.mouse.click(x, y);
  }

  keys(chords) {
    return pressChords(this.page.keyboard, chords);
  }

  /** The puppeteer Page: the escape hatch for what only the protocol does. */
  get puppeteer() {
    return this.page;
  }

  /** The elements `selector` finds in the page (see Elements). */
  locate(selector) {
    return new Elements(async () => this.page.mainFrame()).locate(selector);
  }

  /** The document of the <iframe> `selector` names, or a puppeteer Frame: locate() inside it. */
  frame(selector) {
    return new Elements(async () => {
      if (typeof selector !== 'string') return selector;
      const frame = await (
        await new Elements(async () => this.page.mainFrame()).locate(selector).handle()
      ).contentFrame();
      if (!frame) throw new Error(`frame: ${selector} in ${this.engine} is not a frame`);
      return frame;
    });
  }

  /** Adds the script file at `path` (on this machine) to the page, as a <script> element, and waits until it has run. */
  async addScript(path) {
    await this.page.addScriptTag({ path });
  }

  /** Types `text` key by key into what has focus. */
  type(text) {
    return this.page.keyboard.type(text);
  }

  /** Turns the mouse wheel by `deltaY` CSS px (down when positive), where the mouse is. */
  wheel(deltaY) {
    return this.page.mouse.wheel({ deltaY });
  }

  /** Presses the mouse at `from` ({x, y} in the viewport), moves it to `to` in `steps` moves, and releases it. */
  async drag(from, to, { steps = 1 } = {}) {
    await this.page.mouse.move(from.x, from.y);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x, to.y, { steps });
    await this.page.mouse.up();
  }

  /**
   * Chromium: runs `trigger()` and resolves to the download it starts, once it has completed:
   * { suggestedFilename, path } (a file in a temporary folder removed when the browser closes).
   */
  async download(trigger, { timeout = 30000 } = {}) {
    if (this.engine !== 'chromium') throw new Error(`download: Chromium only, not ${this.engine}`);
    const downloads = await this.browserDownloads();
    const started = new Promise((ok) => downloads.session.once('Browser.downloadWillBegin', ok));
    await trigger();
    const begun = await Promise.race([started, sleep(timeout).then(() => null)]);
    if (!begun) throw new Error(`download: nothing was downloaded within ${timeout} ms`);
    await downloads.done(begun.guid, timeout);
    return { suggestedFilename: begun.suggestedFilename, path: join(downloads.folder, begun.guid) };
  }

  fullPagePng() {
    return this.page.screenshot({ fullPage: true, type: 'png' });
  }

  async elementPngs(selectors) {
    const pngs = [];
    for (const selector of selectors) {
      const element = await this.page.$(selector);
      if (!element) throw new Error(`screenshotOf: nothing matches ${selector} in ${this.engine}`);
      pngs.push(await element.screenshot({ type: 'png' }));
    }
    return pngs;
  }

  async close() {
    if (!this.page.isClosed()) await this.page.close();
    await this.context?.close();
    this.context = undefined;
  }
}

/** WebKit: one window, resized to the viewport asked for; a full-page screenshot grows it. */
class WebKitPage extends Page {
  engine = 'webkit';
  engineProblems = [];

  constructor(driver, chrome) {
    super();
    this.driver = driver;
    this.chrome = chrome;
  }

  evaluate(fn, arg) {
    return this.driver.run(String(fn), arg);
  }

  evaluateInFrame(selector, fn, arg) {
    return this.driver.runInFrame(selector, String(fn), arg);
  }

  pointerClick(x, y) {
    return this.driver.pointerClick(x, y);
  }

  keys(chords) {
    return this.driver.keys(chords);
  }

  /**
   * Sets the viewport (inner) size, given the window's decorations measured at launch; throws
   * when the window cannot give it (MiniBrowser's window is at least 447 px wide here).
   */
  async setViewport({ width, height }) {
    if (width + this.chrome.width > SCREEN.width || height + this.chrome.height > SCREEN.height)
      throw new Error(
        `webkit: a ${width}x${height} viewport does not fit the ${SCREEN.width}x${SCREEN.height} Xvfb screen`,
      );
    this.viewport ??= { width, height };
    await this.driver.resize(width + this.chrome.width, height + this.chrome.height);
    // The page sees the new size a little after the window has it.
    for (let waited = 0; ; waited += 50) {
      const inner = await this.driver.innerSize();
      if (inner.width === width && inner.height === height) return;
      if (waited >= 2000)
        throw new Error(
          `webkit: asked for a ${width}x${height} viewport, MiniBrowser's window gives ${inner.width}x${inner.height}`,
        );
      await sleep(50);
    }
  }

  /**
   * A window much taller than 9,000 px screenshots black here (the lesson is ~19,000 px): the
   * page is scrolled through in a window of at most TILE px and the tiles are stacked.
   */
  async fullPagePng() {
    const TILE = 8000;
    const { width, height } = this.viewport;
    const settle = () =>
      this.run(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const pageHeight = () => this.run(() => Math.ceil(document.documentElement.scrollHeight));
    try {
      // Growing the window can make the page taller (more widgets start): grow until it fits a tile.
      let shown = height;
      for (let attempt = 0; attempt < 4; attempt++) {
        const needed = Math.min(await pageHeight(), TILE);
        if (needed <= shown) break;
        await this.setViewport({ width, height: (shown = needed) });
        await settle();
      }
      const total = await pageHeight();
      let page;
      for (let top = 0; top < total; top += shown) {
        const scrolled = await this.run(
          (top) =>
            new Promise((done) => {
              scrollTo({ left: 0, top, behavior: 'instant' });
              requestAnimationFrame(() => requestAnimationFrame(() => done({ y: scrollY, ratio: devicePixelRatio })));
            }),
          top,
        );
        const shot = PNG.sync.read(await this.driver.viewportPng());
        page ??= new PNG({ width: shot.width, height: Math.round(total * scrolled.ratio) });
        // The last tile may scroll less than asked (the page ends): copy from where `top` lies in it.
        const from = Math.round((top - scrolled.y) * scrolled.ratio),
          to = Math.round(top * scrolled.ratio);
        const rows = Math.min(shot.height - from, page.height - to);
        if (rows > 0) PNG.bitblt(shot, page, 0, from, Math.min(shot.width, page.width), rows, 0, to);
      }
      return PNG.sync.write(page);
    } finally {
      await this.run(() => scrollTo({ left: 0, top: 0, behavior: 'instant' }));
      await this.setViewport({ width, height });
    }
  }

  /**
   * WebDriver's element screenshot fails in MiniBrowser under Xvfb ("unable to capture screen"),
   * and a screenshot of a window much taller than 9,000 px comes out black here: each element
   * is scrolled to the top of a window tall enough for it, and cut from that window's screenshot.
   */
  async elementPngs(selectors) {
    const { width, height } = this.viewport;
    const pngs = [];
    try {
      for (const selector of selectors) {
        const tall = await this.run(
          (selector) => Math.ceil(document.querySelector(selector)?.getBoundingClientRect().height ?? -1),
          selector,
        );
        if (tall < 0) throw new Error(`screenshotOf: nothing matches ${selector} in ${this.engine}`);
        await this.setViewport({ width, height: Math.max(height, Math.min(tall, 9000)) });
        const box = await this.run(
          (selector) =>
            new Promise((done) => {
              document.querySelector(selector).scrollIntoView({ block: 'start', behavior: 'instant' });
              requestAnimationFrame(() =>
                requestAnimationFrame(() => {
                  const rect = document.querySelector(selector).getBoundingClientRect();
                  done({ x: rect.left, y: rect.top, width: rect.width, height: rect.height, ratio: devicePixelRatio });
                }),
              );
            }),
          selector,
        );
        const shot = PNG.sync.read(await this.driver.viewportPng());
        const x = Math.max(0, Math.round(box.x * box.ratio)),
          y = Math.max(0, Math.round(box.y * box.ratio));
        const w = Math.max(1, Math.min(shot.width - x, Math.round(box.width * box.ratio))),
          h = Math.max(1, Math.min(shot.height - y, Math.round(box.height * box.ratio)));
        const element = new PNG({ width: w, height: h });
        PNG.bitblt(shot, element, x, y, w, h, 0, 0);
        pngs.push(PNG.sync.write(element));
      }
    } finally {
      await this.setViewport({ width, height });
    }
    return pngs;
  }

  close() {
    return this.driver.navigate('about:blank');
  }
}

class Browser {
  #current;

  constructor(engine, version, newPage, close, puppeteerBrowser) {
    this.engine = engine;
    this.version = version;
    this.newPage = newPage;
    this.closeEngine = close;
    /** Chromium and Firefox: the puppeteer Browser (the escape hatch, like a page's `puppeteer`). */
    this.puppeteer = puppeteerBrowser;
  }

  /**
   * Opens `url` in a page of `viewport` size (CSS px) and resolves to the page once it has
   * loaded and no part of it is aria-busy (the lesson renders its sections over several tasks
   * after the load event); a page whose HTML holds a first screen made at build time
   * (html[data-prerendered]) once its script has also marked an element data-rendered (the
   * lesson's script starts after the first paint, perhaps after the load event). Chromium and
   * Firefox: `beforeLoad(page)`, if given, runs on the new page before it navigates (init
   * scripts, request interception, listeners), and `isolated` gives the page a browser context
   * of its own (no cache, cookies or storage shared with the pages before it).
   */
  async open(url, viewport = { width: 1280, height: 900 }, { beforeLoad, isolated } = {}) {
    await this.#current?.close();
    this.#current = undefined;
    if ((beforeLoad || isolated) && this.engine === 'webkit')
      throw new Error('open: beforeLoad and isolated need puppeteer (Chromium or Firefox)');
    this.#current = await this.newPage(url, viewport, { beforeLoad, isolated });
    await this.#current.waitFor(
      () =>
        document.querySelector('[aria-busy="true"]') === null &&
        (document.documentElement.dataset.prerendered === undefined ||
          document.querySelector('[data-rendered]') !== null),
      undefined,
      { timeout: 30000 },
    );
    return this.#current;
  }

  async close() {
    await this.#current?.close().catch(() => {});
    await this.closeEngine();
  }
}

async function launchPuppeteer(engine) {
  const options =
    engine === 'firefox'
      ? { browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true }
      : { browser: 'chrome', executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS };
  const browser = await puppeteer.launch(options);
  // Chromium's downloads, set up by the first download(): into a temporary folder, each named by its guid.
  let downloads;
  const browserDownloads = () =>
    (downloads ??= (async () => {
      const folder = mkdtempSync(join(tmpdir(), 'attn-downloads-'));
      const session = await browser.target().createCDPSession();
      const finished = new Map();
      session.on('Browser.downloadProgress', ({ guid, state }) => state !== 'inProgress' && finished.set(guid, state));
      await session.send('Browser.setDownloadBehavior', {
        behavior: 'allowAndName',
        downloadPath: folder,
        eventsEnabled: true,
      });
      const done = async (guid, timeout) => {
        for (let waited = 0; !finished.has(guid); waited += 50) {
          if (waited > timeout) throw new Error(`download: ${guid} did not complete within ${timeout} ms`);
          await sleep(50);
        }
        if (finished.get(guid) !== 'completed') throw new Error(`download: ${guid} ${finished.get(guid)}`);
      };
      return { folder, session, done };
    })());
  const newPage = async (url, viewport, { beforeLoad, isolated } = {}) => {
    const context = isolated ? await browser.createBrowserContext() : undefined;
    const page = new PuppeteerPage(engine, await (context ?? browser).newPage(), context);
    page.browserDownloads = browserDownloads;
    await page.page.setViewport(viewport);
    await beforeLoad?.(page);
    await page.page.goto(url);
    return page;
  };
  const close = async () => {
    await browser.close();
    if (downloads) rmSync((await downloads).folder, { recursive: true, force: true });
  };
  return new Browser(engine, await browser.version(), newPage, close, browser);
}

async function launchWebKitBrowser() {
  const driver = await launchWebKit();
  try {
    // The window's decorations: the outer size minus the viewport, measured once.
    await driver.resize(1000, 800);
    const inner = await driver.innerSize();
    const chrome = { width: 1000 - inner.width, height: 800 - inner.height };
    const newPage = async (url, viewport) => {
      const page = new WebKitPage(driver, chrome);
      await page.setViewport(viewport);
      // Through about:blank, so that a URL differing only in its #hash loads anew; and WebKit's
      // navigation can return before the new document has loaded, so wait for that too.
      await driver.navigate('about:blank');
      await driver.navigate(url);
      await page.waitFor((href) => location.href === href && document.readyState === 'complete', new URL(url).href);
      return page;
    };
    return new Browser('webkit', driver.version, newPage, () => driver.close());
  } catch (error) {
    await driver.close();
    throw error;
  }
}

/** Launches `engine` ('chromium', 'firefox' or 'webkit'); resolves to { engine, version, open(), close() }. */
export function launch(engine) {
  if (!ENGINES.includes(engine)) throw new Error(`launch: unknown engine "${engine}" (known: ${ENGINES.join(', ')})`);
  return engine === 'webkit' ? launchWebKitBrowser() : launchPuppeteer(engine);
}
