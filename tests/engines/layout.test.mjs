// Every widget of the lesson at a phone's width and a desktop's, in the light and the dark
// theme, and in other languages (modesFor), in each engine (tests/support/engines.mjs), as a
// reader sees it, folded parts open:
//   - no text under MIN_TEXT_PX: HTML text, SVG text at the size its figure is scaled to, the
//     soft lookup's canvas labels (the sketch lists the boxes and sizes of what it draws in
//     data-labels) and the flowchart image's smallest text (its size in the image, measured at
//     build time in web/src/generated/flowcharts.json, times the scale the image is shown at);
//   - no two text boxes overlap, canvas labels included; every canvas label lies inside its
//     canvas and every SVG text inside its figure, unless the figure lets it show past its edge;
//   - no element reaches past the viewport unless a scrolling box of the widget holds it, every
//     box that scrolls sideways shows a cue (its edge shadows), and the page does not scroll
//     sideways;
//   - every aria-describedby and aria-labelledby names an element that exists;
//   - no Observable Plot warning: none shown (Plot marks a figure that logged one with a ⚠️) and
//     none logged by any figure since the page opened (the watcher's problems, which also catch
//     one that a later drawing replaced);
//   - text contrast meets WCAG AA (axe-core's color-contrast rule, as tests/web/a11y.test.mjs uses it).
//   - in the pseudo-locales, no text that did not come from a message catalog (untranslatedTexts).
// Screenshots of each widget in each mode: build/layout/<engine>-<width>-<theme>-<lang>-<widget>.png.
// Run after `npm run build`: ATTN_ENGINES=chromium node --test tests/engines/layout.test.mjs
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { enginesToRun, launch, serveSite, DIST } from '../support/engines.mjs';

const root = resolve(import.meta.dirname, '../..');
const AXE = dirname(createRequire(import.meta.url).resolve('axe-core/axe.min.js'));
const FLOWCHARTS = JSON.parse(readFileSync(resolve(root, 'web/src/generated/flowcharts.json'), 'utf8'));
const SHOTS = resolve(root, 'build/layout');
const MIN_TEXT_PX = 11;
// 360 px, but 480 px in WebKit: MiniBrowser's window cannot be narrower than 447 px here.
const narrowest = (engine) => (engine === 'webkit' ? 480 : 360);
/**
 * The modes each engine is measured in: in English, both widths in both themes in Chromium, and
 * each width and each theme once elsewhere (the narrowest light, the widest dark: the themes'
 * colours are the same CSS in every engine); at the narrowest width (where longer words break a
 * layout first) the pseudo-locale en-XA (every message 40% longer) in every engine, and Spanish,
 * Chinese and the right-to-left pseudo-locale in Chromium.
 */
function modesFor(engine) {
  const widths = [narrowest(engine), 1280];
  const english = widths
    .flatMap((width) => ['light', 'dark'].map((theme) => ({ width, theme, lang: 'en' })))
    .filter(({ width, theme }) => engine === 'chromium' || (width === 1280) === (theme === 'dark'));
  const languages = engine === 'chromium' ? ['es', 'zh-CN', 'en-XA', 'ar-XB'] : ['en-XA'];
  return [...english, ...languages.map((lang) => ({ width: narrowest(engine), theme: 'light', lang }))];
}
const PSEUDO = ['en-XA', 'ar-XB'];

/**
 * In the page: every widget's layout problems, as readable lines, and the page's own. The
 * widgets are numbered (data-layout-id) for the screenshots.
 */
function measureLayout({ minPx, flowcharts }) {
  const viewport = document.documentElement.clientWidth;
  const widgets = [...document.querySelectorAll('body *')].filter((n) => n.localName.startsWith('attn-'));
  const short = (text) => JSON.stringify(text.trim().replace(/\s+/g, ' ').slice(0, 40));
  const shown = (node) => {
    if (node.closest('.visually-hidden, select, [hidden]')) return false;
    const closed = node.closest('details:not([open])');
    return !closed || node.closest('summary')?.parentElement === closed;
  };
  const scrolls = (node) => ['auto', 'scroll'].includes(getComputedStyle(node).overflowX);
  const clips = (node) => scrolls(node) || ['hidden', 'clip'].includes(getComputedStyle(node).overflowX);

  /** The text a reader sees in `widget`: [{text, px, box, source}], box in viewport pixels. */
  function textsOf(widget) {
    const texts = [];
    const walker = document.createTreeWalker(widget, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent.trim() || !parent || !shown(parent)) continue;
      if (parent.closest('svg')) {
        if (parent.localName === 'title') continue; // a tooltip
        // SVG text: its font size times the scale its figure is drawn at.
        const text = parent.closest('text');
        const scale = text.getScreenCTM()?.a ?? 1;
        const box = text.getBoundingClientRect(),
          frame = text.ownerSVGElement.getBoundingClientRect();
        const past = {
          left: frame.left - box.left,
          top: frame.top - box.top,
          right: box.right - frame.right,
          bottom: box.bottom - frame.bottom,
        };
        const cut =
          getComputedStyle(text.ownerSVGElement).overflow === 'visible'
            ? ''
            : Object.entries(past)
                .filter(([, by]) => by > 0.5)
                .map(([edge, by]) => `${edge} by ${by.toFixed(1)} px`)
                .join(', ');
        texts.push({
          text: node.textContent,
          px: parseFloat(getComputedStyle(text).fontSize) * scale,
          boxes: [clipped(box, text, widget)].filter(Boolean),
          source: 'svg',
          cut,
        });
        continue;
      }
      const range = document.createRange();
      range.selectNodeContents(node);
      // Scrolled out of its box, text is not seen (nor can it overlap what is).
      const boxes = [...range.getClientRects()]
        .filter((b) => b.width > 0 && b.height > 0)
        .map((b) => clipped(b, node, widget))
        .filter(Boolean);
      if (boxes.length)
        texts.push({
          text: node.textContent,
          px: parseFloat(getComputedStyle(parent).fontSize),
          boxes,
          source: 'html',
        });
    }
    // Text on a canvas: the sketch lists what it drew, in the canvas's CSS pixels.
    for (const host of widget.querySelectorAll('[data-labels]')) {
      const canvas = host.querySelector('canvas');
      const frame = canvas.getBoundingClientRect();
      const scale = frame.width / (parseFloat(canvas.style.width) || canvas.width);
      for (const label of JSON.parse(host.dataset.labels)) {
        const box = {
          left: frame.left + label.x * scale,
          top: frame.top + label.y * scale,
          width: label.width * scale,
          height: label.height * scale,
        };
        box.right = box.left + box.width;
        box.bottom = box.top + box.height;
        const outside =
          box.left < frame.left - 0.5 ||
          box.top < frame.top - 0.5 ||
          box.right > frame.right + 0.5 ||
          box.bottom > frame.bottom + 0.5;
        texts.push({ text: label.text, px: label.px * scale, boxes: [box], source: 'canvas', outside });
      }
    }
    // Text inside the flowchart's image: its smallest size in the image, times the image's scale.
    for (const image of widget.querySelectorAll('img[data-route]')) {
      const size = flowcharts[image.dataset.size];
      texts.push({
        text: `flowchart ${image.dataset.route}-${image.dataset.theme}`,
        px: (size.fontSize * image.clientWidth) / size.width,
        boxes: [],
        source: 'image',
      });
    }
    return texts;
  }

  /** `box` cut to what the boxes that clip `node`'s content (scrolling ones) let show; null when nothing shows. */
  const clipped = (box, node, widget) => {
    let { left, top, right, bottom } = box;
    for (let holder = node.parentElement; holder && holder !== widget.parentElement; holder = holder.parentElement) {
      if (!clips(holder)) continue;
      const frame = holder.getBoundingClientRect();
      left = Math.max(left, frame.left + holder.clientLeft);
      right = Math.min(right, frame.left + holder.clientLeft + holder.clientWidth);
      top = Math.max(top, frame.top);
      bottom = Math.min(bottom, frame.bottom);
    }
    return right - left > 0 && bottom - top > 0 ? { left, top, right, bottom } : null;
  };
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;

  const report = widgets.map((widget, index) => {
    widget.dataset.layoutId = String(index);
    const problems = [];
    const texts = textsOf(widget);
    for (const t of texts) {
      if (t.px < minPx - 0.01) problems.push(`${t.source} text ${short(t.text)} at ${t.px.toFixed(1)} px`);
      if (t.outside) problems.push(`canvas label ${short(t.text)} drawn outside its canvas`);
      if (t.cut) problems.push(`svg text ${short(t.text)} reaches past its figure's edge, which cuts it (${t.cut})`);
    }
    for (let i = 0; i < texts.length; i++)
      for (let j = i + 1; j < texts.length; j++)
        if (texts[i].boxes.some((a) => texts[j].boxes.some((b) => overlap(a, b))))
          problems.push(
            `${texts[i].source} text ${short(texts[i].text)} overlaps ${texts[j].source} text ${short(texts[j].text)}`,
          );
    for (const node of [widget, ...widget.querySelectorAll('*')]) {
      const box = node.getBoundingClientRect();
      if (box.width === 0 || !shown(node)) continue;
      if (box.right > viewport + 0.5 || box.left < -0.5) {
        // Fine inside a box of the widget that scrolls (or clips) and itself fits.
        let holder = node.parentElement;
        while (holder && holder !== widget.parentElement && !clips(holder)) holder = holder.parentElement;
        const held =
          holder && holder !== widget.parentElement && holder.getBoundingClientRect().right <= viewport + 0.5;
        if (!held)
          problems.push(
            `<${node.localName}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ')[0]}` : ''}> spans ${box.left.toFixed(0)} to ${box.right.toFixed(0)} px in a ${viewport} px viewport`,
          );
      }
      if (
        scrolls(node) &&
        node.scrollWidth > node.clientWidth + 1 &&
        !getComputedStyle(node).backgroundImage.includes('gradient')
      )
        problems.push(`<${node.localName}.${node.className}> scrolls sideways without a cue`);
      for (const attribute of ['aria-describedby', 'aria-labelledby'])
        for (const id of (node.getAttribute(attribute) ?? '').split(/\s+/).filter(Boolean))
          if (!document.getElementById(id))
            problems.push(`${attribute}="${id}" on <${node.localName}> names no element`);
    }
    for (const text of widget.querySelectorAll('svg text'))
      if (text.textContent.includes('\u26a0'))
        problems.push(
          `a figure shows Observable Plot's warning sign: ${text.querySelector('title')?.textContent ?? ''}`,
        );
    return { tag: widget.localName, index, texts: texts.length, problems };
  });
  const page =
    document.documentElement.scrollWidth > viewport
      ? [`the page is ${document.documentElement.scrollWidth} px wide in a ${viewport} px viewport`]
      : [];
  return { widgets: report, page };
}

/**
 * In a pseudo-locale page: every text a reader sees or hears that did not come through a message
 * catalog, i.e. holds a word of plain ASCII letters (the pseudo-locale accents every letter).
 * Not checked: formulas (KaTeX), code, what is marked translate="no" (symbols), or marked with a
 * language of its own (English on purpose, a language's own name in the switcher).
 */
function untranslatedTexts() {
  // Exempt: what is not words (formulas, code, symbols marked translate="no"), what the reader's
  // browser never shows (noscript), and what is marked as being in another language on purpose
  // (the language switcher's names, prose a language lacks, author data).
  const exempt = (node) =>
    node.closest('.katex, code, pre, [translate="no"], svg title, script, style, noscript') ||
    node.closest('[lang]') !== document.documentElement;
  // A word of plain letters with a small one: not a symbol (CUE, PAD), a name with digits
  // (float16) or NaN, which numbers are written with.
  const word = /\b(?!NaN\b)(?=[A-Za-z]{2})[A-Za-z]*[a-z][A-Za-z]*\b/;
  const found = [];
  const say = (where, text) => found.push(`${where}: ${JSON.stringify(text.trim().replace(/\s+/g, ' ').slice(0, 60))}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || exempt(parent) || parent.closest('[hidden]') || !word.test(node.textContent)) continue;
    const owner = parent.closest('[data-layout-id]')?.localName ?? 'page';
    say(`${owner} <${parent.localName}>`, node.textContent);
  }
  for (const node of document.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-description]'))
    for (const name of ['aria-label', 'title', 'alt', 'placeholder', 'aria-description']) {
      const value = node.getAttribute(name);
      if (value && word.test(value) && !exempt(node))
        say(`${node.closest('[data-layout-id]')?.localName ?? 'page'} <${node.localName} ${name}>`, value);
    }
  if (word.test(document.title)) say('<title>', document.title);
  return found;
}

/** axe-core's color-contrast rule over the page: one line per node that fails, naming its widget. */
async function contrastFailures() {
  if (!window.axe) {
    const script = document.createElement('script');
    script.src = '/axe.min.js';
    await new Promise((loaded, failed) => {
      script.onload = loaded;
      script.onerror = () => failed(new Error('axe.min.js did not load'));
      document.head.append(script);
    });
  }
  const result = await window.axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => {
      const node = document.querySelector(n.target[0]);
      const widget = node?.closest('[data-layout-id]')?.localName ?? 'page';
      return `${widget}: ${n.target.join(' ')}: ${n.any[0]?.message ?? v.help}`;
    }),
  );
}

/** Resolves once what the DOM does not show yet is drawn: the sketch's labels, the flowchart's image, the trainer's chart. */
function drawn() {
  const lookups = [...document.querySelectorAll('attn-soft-lookup')].every((w) => w.querySelector('[data-labels]'));
  const images = [...document.querySelectorAll('attn-flowchart img')].every(
    (image) => image.complete && image.naturalWidth > 0,
  );
  const charts = [...document.querySelectorAll('attn-cue-trainer')].every((w) => w.querySelector('svg'));
  return lookups && images && charts;
}

const site = await serveSite({ roots: [DIST, AXE] });
for (const engine of enginesToRun()) {
  test(`layout in ${engine}: every widget at a phone's and a desktop's width, light and dark, and in other languages`, async (t) => {
    const browser = await launch(engine);
    t.after(() => browser.close());
    const failures = [];
    for (const { width, theme, lang } of modesFor(engine)) {
      const mode = `${width} px, ${theme}${lang === 'en' ? '' : `, ${lang}`}`;
      const page = await browser.open(`${site.url}index.html?theme=${theme}&lang=${lang}`, { width, height: 900 });
      await page.waitFor(() => document.documentElement.dataset.lessonReady);
      await page.startWidgets();
      await page.waitFor(drawn);
      // Folded parts (the heat maps' weight tables) are measured open.
      await page.run(() => document.querySelectorAll('main details').forEach((d) => (d.open = true)));
      const { widgets, page: pageProblems } = await page.run(measureLayout, {
        minPx: MIN_TEXT_PX,
        flowcharts: FLOWCHARTS,
      });
      failures.push(...pageProblems.map((p) => `${mode}: ${p}`));
      for (const w of widgets) {
        t.diagnostic(`${mode}: ${w.tag}: ${w.texts} text boxes, ${w.problems.length} problems`);
        failures.push(...w.problems.map((p) => `${mode}: ${w.tag}: ${p}`));
      }
      await page.screenshotsOf(
        widgets.map((w) => [
          `[data-layout-id="${w.index}"]`,
          `${SHOTS}/${engine}-${width}-${theme}-${lang}-${w.tag}.png`,
        ]),
      );
      if (PSEUDO.includes(lang))
        failures.push(...(await page.run(untranslatedTexts)).map((p) => `${mode}: not from a catalog: ${p}`));
      failures.push(...(await page.run(contrastFailures)).map((p) => `${mode}: contrast: ${p}`));
      failures.push(...(await page.problems()).map((p) => `${mode}: ${p}`));
    }
    writeFileSync(`${SHOTS}/${engine}-failures.txt`, failures.join('\n') + '\n');
    assert.deepEqual(failures, [], `the list is in build/layout/${engine}-failures.txt`);
  });
}
after(() => site.close());
