// The lesson in each engine a learner may use: Chromium, Firefox and WebKit (Safari's engine),
// through tests/support/engines.mjs, on the built site (dist/) under the strict CSP. Chromium
// runs first: the numbers the others show must equal its numbers. Full-page screenshots, light
// and dark, go to build/engines/. Run after `npm run build`: node --test tests/engines/
// (ATTN_ENGINES=webkit runs Chromium and WebKit only).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describeEngines, serveSite } from '../support/engines.mjs';

const root = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(root, 'build/engines');
/** A query the soft lookup holds still (its animation stops), so its readout is comparable. */
const PINNED = 'lookup.q=0.7,-1.3';
const EPOCHS = 3;
/** What Chromium showed, for the other engines to equal. */
const reference = {};

/** What is compared of an epoch: the CLI writes doubles in full, so equality is exact. */
const epochFigures = ({ epoch, trainLoss, trainAccuracy, validationLoss, validationAccuracy }) => ({
  epoch,
  trainLoss,
  trainAccuracy,
  validationLoss,
  validationAccuracy,
});

/**
 * The native command's cue run: its seed and, per epoch, the figures the trainer's
 * attn-train-epoch events carry. The one place that reads the CLI's JSON keys.
 */
function nativeCue(blocks) {
  const run = JSON.parse(
    execFileSync(
      resolve(root, 'build/cli/attention-lab'),
      ['cue', '--blocks', String(blocks), '--epochs', String(EPOCHS), '--json'],
      { encoding: 'utf8' },
    ),
  );
  return { seed: run.config.seed, epochs: run.history.map(epochFigures) };
}

/**
 * Every number the lesson shows: the live numbers in the prose (by key), every table cell,
 * the soft-lookup readout, and every number in the text of <main> in page order (figure
 * labels, axis ticks and tables included).
 */
function shownNumbers() {
  const text = (node) => node.textContent.replace(/\s+/g, ' ').trim();
  const main = document.querySelector('main');
  const numbers = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    numbers.push(...(node.textContent.match(/-?\d[\d,.]*(?:e[+-]?\d+)?/g) ?? []));
  return {
    live: [...main.querySelectorAll('.live[data-key]')].map((node) => [node.dataset.key, text(node)]),
    missing: [...main.querySelectorAll('.live[data-missing]')].map((node) => node.dataset.key),
    tables: [...main.querySelectorAll('table')].map((table) => [...table.rows].map((row) => [...row.cells].map(text))),
    lookup: text(document.querySelector('attn-soft-lookup [aria-live]')),
    numbers,
  };
}

let site;
before(async () => {
  site = await serveSite();
});
after(() => site?.close());

describeEngines((session) => {
  test("the lesson loads with no console error, failed request or CSP violation; every widget becomes ready; every number equals Chromium's", async () => {
    const page = await session.browser.open(`${site.url}index.html#${PINNED}`);
    await page.waitFor(() => document.documentElement.dataset.lessonReady);
    const tags = await page.startWidgets();
    for (const tag of [
      'attn-soft-lookup',
      'attn-attention-steps',
      'attn-ranked-table',
      'attn-scale-figure',
      'attn-mask-figure',
      'attn-heads-figure',
      'attn-cue-trainer',
      'attn-flowchart',
      'attn-pitfall-demo',
      'attn-quiz',
      'attn-exercises',
      'attn-cue-probe',
    ])
      assert.ok(tags.includes(tag), `${tag} is on the page`);
    const shown = await page.run(shownNumbers);
    assert.deepEqual(shown.missing, [], 'every live number in the prose was computed');
    assert.match(shown.lookup, /^Query at \(0\.7, -1\.3\)\. Weights key 1: \d\.\d\d/);
    assert.ok(
      shown.tables.length > 0 && shown.numbers.length > 500,
      `${shown.tables.length} tables, ${shown.numbers.length} numbers`,
    );
    // Numbers only, so no tolerance: fonts and widths differ between engines, the figures do not.
    if (session.engine === 'chromium') reference.shown = shown;
    else assert.deepEqual(shown, reference.shown);
    assert.deepEqual(await page.problems(), []);
  });

  test('the soft lookup answers the keyboard', async () => {
    const page = await session.browser.open(`${site.url}index.html#${PINNED}`);
    await page.startWidgets();
    await page.press(
      ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'Shift+ArrowUp'],
      'attn-soft-lookup [role=application]',
    );
    // 5 steps of 0.1 right, one of 0.5 (Shift) up; the readout settles 400 ms after the last key.
    const readout = await page.waitFor(() => {
      const text = document.querySelector('attn-soft-lookup [aria-live]').textContent;
      return text.startsWith('Query at (1.2, -0.8)') && text;
    });
    assert.match(await page.run(() => location.hash), /lookup\.q=1\.20,-0\.80/);
    if (session.engine === 'chromium') reference.moved = readout;
    else assert.equal(readout, reference.moved);
    assert.deepEqual(await page.problems(), []);
  });

  test('the quiz answers a click', async () => {
    const page = await session.browser.open(`${site.url}index.html`);
    await page.startWidgets();
    await page.run(() => {
      window.answered = [];
      document
        .querySelector('attn-quiz')
        .addEventListener('attn-quiz-answered', (event) => window.answered.push(event.detail));
    });
    const first = 'attn-quiz fieldset:first-of-type';
    await page.click(`${first} input[value="0"]`);
    await page.click(`${first} .attn-controls button:first-child`);
    assert.match(
      await page.waitFor((q) => document.querySelector(`${q} .feedback`).textContent, first),
      /^Not quite\./,
    );
    await page.click(`${first} input[value="1"]`);
    await page.click(`${first} .attn-controls button:first-child`);
    assert.match(
      await page.waitFor((q) => document.querySelector(`${q} .feedback`).textContent.match(/^Correct\..*/)?.[0], first),
      /^Correct\./,
    );
    assert.match(
      await page.run(() => document.querySelector('attn-quiz .score').textContent),
      /Score: 1 of 5 questions correct/,
    );
    assert.equal(await page.run(() => window.answered.at(-1).score), 1);
    assert.deepEqual(await page.problems(), []);
  });

  test(`a ${EPOCHS}-epoch cue training gives the native command's per-epoch losses and accuracies`, async () => {
    const native = { 1: nativeCue(1), 2: nativeCue(2) };
    assert.equal(native[1].seed, native[2].seed);
    const page = await session.browser.open(`${site.url}index.html#cue.seed=${native[1].seed}&cue.epochs=${EPOCHS}`);
    await page.startWidgets();
    await page.run(() => {
      window.trained = [];
      const trainer = document.querySelector('attn-cue-trainer');
      for (const type of ['attn-train-epoch', 'attn-train-finished'])
        trainer.addEventListener(type, (event) => window.trained.push({ type, ...event.detail }));
    });
    await page.click('attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child'); // Train both
    const events = await page.waitFor(
      () => window.trained.filter((e) => e.type === 'attn-train-finished').length === 2 && window.trained,
      undefined,
      { timeout: 120000 },
    );
    for (const blocks of [1, 2]) {
      const browserEpochs = events.filter((e) => e.type === 'attn-train-epoch' && e.model === blocks).map(epochFigures);
      assert.deepEqual(browserEpochs, native[blocks].epochs, `${blocks} block(s)`);
    }
    assert.deepEqual(await page.problems(), []);
  });

  test('a phone-sized screen shows the lesson without horizontal scrolling', async () => {
    // 360 px, but 480 px in WebKit: MiniBrowser's window cannot be narrower than 447 px here.
    // Firefox's classic scrollbar takes 12 px of the width, the others' overlay scrollbars none.
    const width = session.engine === 'webkit' ? 480 : 360;
    const page = await session.browser.open(`${site.url}index.html`, { width, height: 740 });
    await page.startWidgets();
    const { scroll, client } = await page.run(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    assert.ok(scroll <= client, `at ${width} px the page is ${scroll - client} px wider than the screen`);
    assert.deepEqual(await page.problems(), []);
  });

  test("?theme=light and ?theme=dark force the colours, the canvas's too; a widget's theme attribute wins; full-page screenshots in Chromium", async () => {
    const COLOURS = {
      light: { bg: 'rgb(253, 253, 251)', fg: 'rgb(29, 31, 33)' },
      dark: { bg: 'rgb(21, 23, 26)', fg: 'rgb(230, 231, 233)' },
    };
    for (const [theme, other] of [
      ['light', 'dark'],
      ['dark', 'light'],
    ]) {
      const page = await session.browser.open(`${site.url}index.html?theme=${theme}#${PINNED}`);
      // The whole lesson drawn for Chromium's full-page screenshot; elsewhere the lookup alone
      // (the layout test screenshots every widget in every engine).
      const fullPage = session.engine === 'chromium';
      if (fullPage) await page.startWidgets();
      else
        await page.waitFor(() => {
          const lookup = document.querySelector('attn-soft-lookup');
          lookup?.scrollIntoView({ block: 'center' });
          return lookup?.hasAttribute('data-ready');
        });
      const colours = () => {
        const lookup = document.querySelector('attn-soft-lookup');
        const canvas = lookup.querySelector('canvas');
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        // Opaque canvas pixels by colour: the output dot and the labels are drawn in --attn-fg.
        const counts = {};
        for (let i = 0; i < pixels.length; i += 4) {
          if (pixels[i + 3] !== 255) continue;
          const key = `rgb(${pixels[i]}, ${pixels[i + 1]}, ${pixels[i + 2]})`;
          counts[key] = (counts[key] ?? 0) + 1;
        }
        return {
          page: getComputedStyle(document.body).backgroundColor,
          text: getComputedStyle(lookup).color,
          panel: getComputedStyle(lookup.querySelector('.attn-panel')).backgroundColor,
          counts,
        };
      };
      // The canvas is drawn by data-ready; wait for its pixels all the same.
      await page.waitFor(() => {
        const canvas = document.querySelector('attn-soft-lookup canvas');
        return (
          canvas?.width > 0 &&
          canvas
            .getContext('2d')
            .getImageData(0, 0, canvas.width, canvas.height)
            .data.some((v, i) => i % 4 === 3 && v === 255)
        );
      });
      const seen = await page.run(colours);
      assert.equal(seen.page, COLOURS[theme].bg, `${theme} page background`);
      assert.equal(seen.text, COLOURS[theme].fg, `${theme} widget text`);
      assert.ok(
        seen.counts[COLOURS[theme].fg] >= 50,
        `the canvas draws in the ${theme} text colour (${seen.counts[COLOURS[theme].fg]} pixels)`,
      );
      assert.equal(seen.counts[COLOURS[other].fg], undefined, `no ${other} text colour on the canvas`);
      if (fullPage) await page.screenshot(resolve(SHOTS, `${session.engine}-lesson-${theme}.png`));

      // The widget's own attribute wins over the page's theme, and its canvas redraws.
      await page.run((other) => document.querySelector('attn-soft-lookup').setAttribute('theme', other), other);
      const flipped = await page.run(() => getComputedStyle(document.querySelector('attn-soft-lookup')).color);
      assert.equal(flipped, COLOURS[other].fg, `theme="${other}" in a ${theme} page`);
      const after = await page.run(colours);
      assert.equal(after.page, COLOURS[theme].bg, 'the page keeps its theme');
      assert.ok(after.counts[COLOURS[other].fg] >= 50, `the canvas redrew in the ${other} text colour`);
      assert.equal(after.counts[COLOURS[theme].fg], undefined, `no ${theme} text colour left on the canvas`);
      // A value that is not a theme: a warning that names it, and the widget follows the page again.
      const refused = await page.run(() => {
        const warnings = [],
          warn = console.warn;
        console.warn = (...parts) => warnings.push(parts.join(' '));
        document.querySelector('attn-soft-lookup').setAttribute('theme', 'purple');
        console.warn = warn;
        return { warnings, text: getComputedStyle(document.querySelector('attn-soft-lookup')).color };
      });
      assert.deepEqual(refused.warnings, [
        '<attn-soft-lookup theme>: theme must be light, dark or auto, got "purple"; ignored',
      ]);
      assert.equal(refused.text, COLOURS[theme].fg);
      // theme="auto": the reader's preference, whatever the page forces (light: how the engines start here).
      await page.run(() => document.querySelector('attn-soft-lookup').setAttribute('theme', 'auto'));
      assert.equal(
        await page.run(() => getComputedStyle(document.querySelector('attn-soft-lookup')).color),
        COLOURS.light.fg,
      );
      assert.deepEqual(await page.problems(), []);
    }
  });
});
