// The lesson's first screen as HTML made at build time (web/src/pages/lesson/first-screen.ts,
// scripts/vite-lesson-first-screen.ts), in Debian's Chromium under the strict CSP: it is what the
// page's script renders itself, the script keeps it and is requested only after it has been
// painted, it reads without a script, and a reader of another language never sees it; the first
// load leaves the core and the widgets' code to a Worker and to the reader's scrolling. Run after
// `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST } from '../support/engines.mjs';
import { CSP, launchChromium } from '../support/chromium.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const built = readFileSync(join(DIST, 'index.html'), 'utf8');
/** The built page with its first screen taken out: the script then renders the contents and the first section itself. */
const unrendered = built
  .replace(/ data-prerendered="en"/, '')
  .replace(/(<ol id="toc">)[\s\S]*?(<\/ol>)/, '$1$2')
  .replace(/<section id="replaces"[\s\S]*?<\/section>/, '');
const spanish = JSON.parse(readFileSync(new URL('../../web/src/messages/es/lesson.json', import.meta.url), 'utf8'));

let server, browser;
before(async () => {
  server = await serveStatic(DIST, {
    csp: CSP,
    replace: (path) => (path === '/unrendered.html' ? unrendered : undefined),
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The contents and the first section as the page shows them once its numbers are in (attributes in name order). */
const firstScreen = () => {
  const canonical = (node) => {
    if (node.nodeType !== 1) return node.nodeType === 3 ? node.data : '';
    const attributes = [...node.attributes]
      .map((a) => ` ${a.name}="${a.value}"`)
      .sort()
      .join('');
    return `<${node.localName}${attributes}>${[...node.childNodes].map(canonical).join('')}</${node.localName}>`;
  };
  return {
    toc: canonical(document.getElementById('toc')),
    section: canonical(document.getElementById('replaces')),
    firsts: document.querySelectorAll('main > section#replaces').length,
    sections: document.querySelectorAll('main > section').length,
    links: document.querySelectorAll('#toc a').length,
  };
};

test('the built page holds the contents and the first section, the same as the script renders them', async () => {
  assert.notEqual(unrendered, built, 'the built index.html has a first screen to take out');
  assert.match(built, /<html[^>]* data-prerendered="en"/);
  assert.match(built, /<head>[\s\S]*?<script src="\.\/lesson-language\.js"><\/script>[\s\S]*?<link/, 'the gate first');
  const ready = () => document.documentElement.dataset.lessonReady !== undefined;
  let page = await browser.open(`${server.url}unrendered.html`, { width: 1280, height: 900 });
  await page.waitFor(ready);
  const rendered = await page.run(firstScreen);
  page = await browser.open(`${server.url}index.html`, { width: 1280, height: 900 });
  await page.waitFor(ready);
  const kept = await page.run(firstScreen);
  assert.equal(kept.firsts, 1);
  assert.equal(kept.toc, rendered.toc);
  assert.equal(kept.section, rendered.section);
  assert.ok(kept.sections > 10 && kept.links === kept.sections, `${kept.links} links, ${kept.sections} sections`);
  assert.deepEqual(page.engineProblems, []);
});

test("in English, the first paint shows the first screen; the lesson script and the numbers' Worker are requested after it, and the script keeps it", async () => {
  const page = await browser.open(
    `${server.url}index.html`,
    { width: 412, height: 823 },
    {
      beforeLoad: (page) =>
        page.puppeteer.evaluateOnNewDocument(() => {
          window.__removed = [];
          new MutationObserver((records) => {
            for (const record of records)
              for (const node of record.removedNodes) if (node.nodeType === 1) window.__removed.push(node.localName);
          }).observe(document, { childList: true, subtree: true });
        }),
    },
  );
  await page.waitFor(() => document.documentElement.dataset.lessonReady !== undefined);
  const timing = await page.run(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    fetched: performance
      .getEntriesByType('resource')
      .map((entry) => ({ name: new URL(entry.name).pathname, start: entry.startTime })),
    removed: window.__removed.filter((name) => ['section', 'li', 'p', 'h2'].includes(name)),
  }));
  assert.ok(timing.paint > 0, 'a first contentful paint');
  const fetched = (pattern) => {
    const entry = timing.fetched.find(({ name }) => pattern.test(name));
    assert.ok(entry, `${pattern} among ${timing.fetched.map(({ name }) => name).join(', ')}`);
    return entry;
  };
  const lesson = fetched(/\/assets\/main-[\w-]+\.js$/);
  const worker = fetched(/\/assets\/numbers-worker-[\w-]+\.js$/);
  assert.ok(
    worker.start >= timing.paint,
    `the numbers' Worker requested at ${worker.start} ms, after the first paint at ${timing.paint} ms`,
  );
  assert.ok(
    lesson.start >= timing.paint,
    `requested at ${lesson.start} ms, after the first paint at ${timing.paint} ms`,
  );
  assert.deepEqual(timing.removed, [], 'no part of the first screen replaced');
  assert.deepEqual(page.engineProblems, []);
});

test("the first load computes the numbers in a Worker and loads no widget's code until the reader nears it", async () => {
  const page = await browser.open(
    `${server.url}index.html`,
    { width: 412, height: 823 },
    {
      beforeLoad: (page) =>
        page.puppeteer.evaluateOnNewDocument(() => {
          window.__instances = 0;
          for (const name of ['instantiate', 'instantiateStreaming']) {
            const original = WebAssembly[name];
            WebAssembly[name] = function (...args) {
              window.__instances++;
              return original.apply(this, args);
            };
          }
        }),
    },
  );
  await page.waitFor(() => document.documentElement.dataset.lessonReady !== undefined);
  const widgets = () =>
    page.run(() => {
      const tags = [
        ...new Set([...document.querySelectorAll('main figure.widget > :first-child')].map((w) => w.localName)),
      ];
      return {
        defined: tags.filter((tag) => customElements.get(tag)),
        tags: tags.length,
        instances: window.__instances,
        missing: document.querySelectorAll('.live[data-missing]').length,
        live: document.querySelectorAll('.live[data-key]').length,
        worker: performance.getEntriesByType('resource').some((e) => /\/numbers-worker-[\w-]+\.js$/.test(e.name)),
        cores: performance
          .getEntriesByType('resource')
          .map((e) => /\/assets\/(attention_\w+)-[\w-]+\.wasm$/.exec(e.name)?.[1])
          .filter(Boolean),
      };
    });
  const loaded = await widgets();
  assert.ok(loaded.tags >= 10, `${loaded.tags} kinds of widget in the lesson`);
  assert.deepEqual(loaded.defined, [], 'no widget defined on the first screen, none being near it');
  assert.equal(loaded.instances, 0, 'no core compiled on the main thread');
  assert.ok(loaded.worker, 'the numbers Worker was loaded');
  assert.ok(loaded.live > 20 && loaded.missing === 0, `${loaded.live} live numbers, ${loaded.missing} missing`);
  await page.locate('attn-soft-lookup').scrollIntoView();
  await page.locate('attn-soft-lookup[data-ready]').waitFor();
  const near = await widgets();
  assert.ok(near.defined.includes('attn-soft-lookup'), 'the lookup defined once near');
  assert.ok(!near.defined.includes('attn-quiz'), 'the quiz, far below, still not');
  assert.deepEqual(loaded.cores, [], 'no core fetched by the page itself on the first load');
  assert.deepEqual(
    near.cores,
    ['attention_lab'],
    "the lookup, which needs only attention, shares the figures' whole core",
  );
  assert.deepEqual(page.engineProblems, []);
});

test('without a script the first screen reads: the title, the contents and the first section', async () => {
  const page = await browser.puppeteer.newPage();
  await page.setJavaScriptEnabled(false);
  await page.goto(`${server.url}index.html`);
  const shown = await page.evaluate(() => ({
    visible: getComputedStyle(document.body).visibility,
    h1: document.querySelector('h1').textContent,
    links: document.querySelectorAll('#toc a').length,
    paragraphs: [...document.querySelectorAll('#replaces p')].map((p) => p.textContent.length),
    formula: document.querySelector('#replaces .math-display math') !== null,
  }));
  await page.close();
  assert.equal(shown.visible, 'visible');
  assert.equal(shown.h1, 'Attention from Scratch');
  assert.ok(shown.links > 10, `${shown.links} links`);
  assert.ok(shown.paragraphs.length >= 3 && shown.paragraphs.every((n) => n > 100), shown.paragraphs.join());
  assert.ok(shown.formula, 'the formula as MathML');
});

test('a reader of Spanish never sees the English first screen: each painted frame shows the Spanish one', async () => {
  const page = await browser.open(
    `${server.url}index.html?lang=es`,
    { width: 412, height: 823 },
    {
      beforeLoad: (page) =>
        page.puppeteer.evaluateOnNewDocument(() => {
          window.__frames = [];
          document.addEventListener(
            'DOMContentLoaded',
            () => (window.__gate = document.documentElement.dataset.relocalizing),
          );
          const look = () => {
            if (document.body)
              window.__frames.push({
                visible: getComputedStyle(document.body).visibility === 'visible',
                heading: document.getElementById('replaces-title')?.textContent ?? null,
              });
            if (document.documentElement.dataset.lessonReady === undefined) requestAnimationFrame(look);
          };
          requestAnimationFrame(look);
        }),
    },
  );
  await page.waitFor(() => document.documentElement.dataset.lessonReady !== undefined);
  const { frames, gate, ...shown } = await page.run(() => ({
    frames: window.__frames,
    gate: window.__gate,
    firsts: document.querySelectorAll('main > section#replaces').length,
    sections: document.querySelectorAll('main > section').length,
    links: document.querySelectorAll('#toc a').length,
  }));
  const seen = new Set(frames.filter((frame) => frame.visible).map((frame) => frame.heading));
  assert.equal(gate, 'es', 'marked to be shown in Spanish before the page was parsed to its end');
  assert.deepEqual([...seen], [spanish.sectionReplaces]);
  assert.equal(shown.firsts, 1);
  assert.equal(shown.links, shown.sections);
  assert.deepEqual(page.engineProblems, []);
});
