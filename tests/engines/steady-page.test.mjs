// The lesson holds still as it loads and as it is read, in Chromium, in one browser launch:
// - scrolled top to bottom at a phone's viewport (Lighthouse's mobile, 412x823) and a desktop's
//   (1350x940), its layout shifts without recent input (the Layout Instability API's CLS, from a
//   PerformanceObserver given the buffered entries since the page began) add up to at most 0.01,
//   and every widget, drawn, fits the height the page reserved for it
//   (web/src/pages/lesson/widget-heights.json), in English and, at the phone's, in Spanish;
// - each of its fragments (the contents' links), opened in a fresh page, lands on its target,
//   once the widgets around it have drawn; a contents link clicked as the page loads lands too.
// ATTN_WRITE_WIDGET_HEIGHTS=1 measures each widget at the table's widths in each shipped language and writes the table
// (after a widget changed its size). Run after `npm run build`: node --test tests/engines/steady-page.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launch, serveSite } from '../support/engines.mjs';

const HEIGHTS_FILE = resolve(import.meta.dirname, '../../web/src/pages/lesson/widget-heights.json');
const PRESETS = [
  { name: 'mobile', width: 412, height: 823, language: 'en' },
  { name: 'desktop', width: 1350, height: 940, language: 'en' },
  { name: 'mobile in Spanish', width: 412, height: 823, language: 'es' },
];
/** The languages the table holds (the shipped ones: language.ts SHIPPED). */
const LANGUAGES = ['en', 'es', 'zh-CN'];
/**
 * The viewports whose content widths the table holds: 24 px apart from the narrowest page (320
 * px) to the column's widest (46rem), and the two presets', measured exactly.
 */
const MEASURED_VIEWPORTS = [...Array.from({ length: 17 }, (_, i) => 320 + 24 * i), 768, 412].sort((a, b) => a - b);
const MAX_CLS = 0.01;
/** How far (CSS px) a fragment's target may be from where it lands (its scroll-margin below the viewport's top). */
const LANDING = 4;
const WRITE = process.env.ATTN_WRITE_WIDGET_HEIGHTS === '1';

let site, browser;
before(async () => {
  site = await serveSite();
  browser = await launch('chromium');
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** Sums the page's layout shifts without recent input from its start (run before it loads). */
function watchShifts() {
  window.__shifts = [];
  // The page's frame as the HTML lays it out, before the script fills it in.
  document.addEventListener('DOMContentLoaded', () => {
    window.__frame = {
      header: document.querySelector('.page-header').getBoundingClientRect().height,
      footer: document.querySelector('.page-footer').getBoundingClientRect().top,
    };
  });
  /** The node, and the widget or section it is in. */
  const where = (node) => {
    const element = node?.nodeType === Node.ELEMENT_NODE ? node : node?.parentElement;
    let within = element;
    while (within && !within.localName.startsWith('attn-') && !within.id) within = within.parentElement;
    const name = element ? `${element.localName}${element.className ? `.${element.className}` : ''}` : '?';
    return `${node?.nodeType === Node.TEXT_NODE ? 'text in ' : ''}${name} in ${within ? within.id || within.localName : 'the page'}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput)
        window.__shifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          scrollY,
          moved: entry.sources.map(
            (s) =>
              `${where(s.node)}: (${s.previousRect.x}, ${s.previousRect.y}) ${s.previousRect.width}x${s.previousRect.height} -> (${s.currentRect.x}, ${s.currentRect.y}) ${s.currentRect.width}x${s.currentRect.height}`,
          ),
        });
  }).observe({ type: 'layout-shift', buffered: true });
}

const open = (path, { width, height }, options) =>
  browser.open(`${site.url}${path}`, { width, height }, options).then(async (page) => {
    await page.waitFor(() => document.documentElement.dataset.lessonReady, undefined, { timeout: 30000 });
    return page;
  });

/** Each widget's tag, the content width, its drawn height without its reservation, and the reservation. */
const widgetSizes = () =>
  [...document.querySelectorAll('#lesson figure.widget > :first-child')].map((widget) => {
    const reserved = widget.style.minHeight;
    widget.style.minHeight = '';
    const drawn = widget.getBoundingClientRect().height;
    widget.style.minHeight = reserved;
    return { tag: widget.localName, width: widget.parentElement.clientWidth, drawn, reserved: parseFloat(reserved) };
  });

/** Waits until every widget of the lesson has drawn. */
const allReady = (page) =>
  page.waitFor(
    () =>
      [...document.querySelectorAll('#lesson figure.widget > :first-child')].every(
        (w) => w.dataset.ready !== undefined,
      ),
    undefined,
    {
      timeout: 60000,
    },
  );

/** Two frames: what the last change laid out has been painted (and any shift reported). */
const settle = (page) =>
  page.run(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

test(
  'the widgets measured at the table widths, and the table written',
  { skip: !WRITE && 'ATTN_WRITE_WIDGET_HEIGHTS=1 measures' },
  async () => {
    let widths;
    const heights = {};
    for (const language of LANGUAGES) {
      widths = [];
      heights[language] = {};
      for (const width of MEASURED_VIEWPORTS) {
        const page = await open(`index.html?lang=${language}`, { width, height: 900 });
        await page.startWidgets();
        await allReady(page);
        await settle(page);
        const sizes = await page.run(widgetSizes);
        await page.close();
        widths.push(sizes[0].width);
        for (const { tag, drawn } of sizes) (heights[language][tag] ??= []).push(Math.ceil(drawn));
      }
    }
    const json = JSON.stringify({ widths, heights }, null, 2).replace(
      /\[\s+([\d,\s]+?)\s+\]/g,
      (_, list) => `[${list.split(/,\s*/).join(', ')}]`,
    );
    writeFileSync(HEIGHTS_FILE, `${json}\n`);
  },
);

for (const preset of PRESETS)
  test(
    `at ${preset.name} (${preset.width}x${preset.height}), scrolled top to bottom: CLS <= ${MAX_CLS}, every widget within its reservation`,
    { skip: WRITE },
    async (t) => {
      const page = await open(`index.html?lang=${preset.language}`, preset, {
        beforeLoad: (page) => page.puppeteer.evaluateOnNewDocument(watchShifts),
      });
      // Half a viewport a step, as a reader would read: on to the next once the widgets in view
      // have drawn (in view, so that whatever their drawing moves is seen).
      await page.run(async () => {
        const frame = () => new Promise((done) => requestAnimationFrame(done));
        const drawing = () =>
          [...document.querySelectorAll('#lesson figure.widget > :first-child')].some((widget) => {
            const box = widget.getBoundingClientRect();
            return box.bottom > 0 && box.top < innerHeight && widget.dataset.ready === undefined;
          });
        for (let top = 0; top < document.documentElement.scrollHeight - innerHeight; top += innerHeight / 2) {
          scrollTo({ top, behavior: 'instant' });
          await frame();
          while (drawing()) await frame();
          await frame();
        }
      });
      await allReady(page);
      await settle(page);
      const shifts = await page.run(() => window.__shifts);
      const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
      t.diagnostic(`CLS ${cls.toFixed(4)} (${shifts.length} shifts)`);
      assert.ok(cls <= MAX_CLS, `CLS ${cls.toFixed(4)}: ${JSON.stringify(shifts, null, 1)}`);
      const frame = await page.run(() => ({
        ...window.__frame,
        now: document.querySelector('.page-header').getBoundingClientRect().height,
      }));
      // The HTML's header is in English: in another language its words, and so its height, are
      // the script's (before the first paint: the CLS above counts any move it causes).
      if (preset.language === 'en')
        assert.equal(frame.now, frame.header, 'the header keeps the height it had before the script ran');
      assert.ok(frame.footer >= preset.height, `the footer starts at ${frame.footer} px, in the first screen`);
      const outgrown = (await page.run(widgetSizes)).filter(({ drawn, reserved }) => !(drawn <= reserved + 0.5));
      assert.deepEqual(
        outgrown,
        [],
        'widgets taller than their reservation (ATTN_WRITE_WIDGET_HEIGHTS=1 measures them again)',
      );
      assert.deepEqual(await page.problems(), []);
    },
  );

/**
 * How far (px) the element `id` names is from the viewport's top, once the widgets near the view
 * have drawn (those within 500 px: widgets start within 600 px of the view).
 */
const landing = (id) => {
  const target = document.getElementById(id);
  const near = [...document.querySelectorAll('#lesson figure.widget > :first-child')].filter((widget) => {
    const box = widget.getBoundingClientRect();
    return box.bottom > -500 && box.top < innerHeight + 500;
  });
  if (!target || near.some((widget) => widget.dataset.ready === undefined)) return null;
  return { top: target.getBoundingClientRect().top - parseFloat(getComputedStyle(target).scrollMarginTop), scrollY };
};

test('each fragment of the contents, opened in a fresh page, lands on its target', { skip: WRITE }, async () => {
  const [mobile] = PRESETS;
  let page = await open('index.html', mobile);
  const ids = await page.run(() =>
    [...document.querySelectorAll('#toc a[href^="#"]')].map((a) => a.getAttribute('href').slice(1)),
  );
  assert.ok(ids.length >= 8, `the contents link ${ids.length} sections`);
  const missed = [];
  for (const [i, id] of ids.entries()) {
    // The first one with a widget's setting after it, as a copied link carries them.
    page = await open(`index.html#${id}${i === 0 ? '&lookup.q=0.7,-1.3' : ''}`, mobile);
    const landed = await page.waitFor(landing, id, { timeout: 30000 });
    if (Math.abs(landed.top) > LANDING) missed.push(`#${id}: ${landed.top} px from where it lands`);
  }
  assert.deepEqual(missed, []);
});

test('a contents link clicked while the widgets draw lands on its section', { skip: WRITE }, async () => {
  const page = await open('index.html', PRESETS[1]);
  const id = await page.run(() => document.querySelector('#toc li:last-child a').getAttribute('href').slice(1));
  await page.click(`#toc a[href="#${id}"]`);
  await page.waitFor(landing, id, { timeout: 30000 });
  // The smooth scroll has ended: the page has not scrolled for ten frames.
  await page.waitFor(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    const from = scrollY;
    for (let i = 0; i < 10; i++) await frame();
    return scrollY === from;
  });
  const { top } = await page.waitFor(landing, id);
  assert.ok(Math.abs(top) <= LANDING, `#${id} is ${top} px from where it lands`);
});
