// What the lesson's figures, checks and texts must agree on, in Debian's Chromium (dist/, the
// strict CSP): the scale figure shows the measurement the ranked table recomputes; the heat
// maps keep one 0-1 scale with blocked cells hatched, 16 px cells and tables, in either theme,
// and the pitfall demo shows what the core computes for each choice; widgets paint their own
// background only on a page of the other colour scheme; the trainer's status names the settings
// in its controls after a reload with a hash; exercise 2 refuses a mask that leaves a query
// nothing to attend to, and the mask it shows on request passes; exercise 3 takes the sketch's
// range; exercise 1 hints without the measurement until asked; exercise 6 is checked against the
// recorded run's curve. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeSite, openSite } from '../support/chromium.mjs';
import { loadCore } from '../../build-wasm/facade/core/index.js';

let server, browser, core;

before(async () => {
  ({ server, browser } = await openSite());
  const root = resolve(import.meta.dirname, '../..');
  core = await loadCore({ wasmBinary: readFileSync(resolve(root, 'build-wasm/facade/generated/attention_lab.wasm')) });
});
after(() => closeSite({ server, browser }));

/** The lesson at `path` (query and hash), with `tag` scrolled to and ready. */
async function openAt(path, tag) {
  const page = await browser.open(server.url + path, { width: 1280, height: 900 });
  await page.locate('html[data-lesson-ready]').waitFor();
  await page.locate(tag).scrollIntoView();
  await page.locate(`${tag}[data-ready]`).waitFor({ timeout: 20000 });
  return { page, errors: page.engineProblems };
}

test('recomputing the ranked table with more draws redraws the scale figure with them, and says how long its error bars are', async () => {
  const { page, errors } = await openAt('index.html', 'attn-scale-figure');
  const figure = page.locate('attn-scale-figure');
  const before = await figure.attribute('data-draws');
  assert.match(
    await figure.locate('[data-note="error-bars"]').text(),
    new RegExp(
      `^${before} draws per d_k\\. Error bars: ±1 standard error, at most \\d\\.\\d{4} \\(largest weight\\) and \\d\\.\\d{4} nats \\(entropy\\)`,
    ),
  );
  const table = page.locate('attn-ranked-table');
  await table.scrollIntoView();
  await page.locate('attn-ranked-table[data-ready]').waitFor();
  const more = String(Number(before) * 2);
  await table.locate('input').fill(more);
  await table.locate('::-p-aria([name="Recompute"][role="button"])').click();
  await page.waitFor((n) => document.querySelector('attn-scale-figure').dataset.draws === n, more);
  assert.match(await figure.locate('[data-note="error-bars"]').text(), new RegExp(`^${more} draws per d_k\\.`));
  // The figure's points are the table's numbers (its tooltips hold them to 4 decimals).
  const tableMax = await table.locate('tbody tr').first().locate('td').nth(1).text();
  const tooltips = await figure.locate('svg title').texts();
  assert.ok(
    tooltips.some((t) => t.includes(`unscaled, d_k = 4: ${tableMax.trim().slice(0, 6)}`)),
    `a point at ${tableMax} among ${tooltips.slice(0, 4)}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * In the page: what the heat maps of `tag` show, in its theme's colours. colours: the resolved
 * --attn-* colours; maps: per svg, its cells ({ weight, nan, blocked, fill, width,
 * hatch: the stroke of the blocked overlay's pattern lines }); swatch: the legend's even-weight
 * fill; background: the widget's own background and text colour.
 */
function readHeatmaps(tag) {
  const widget = document.querySelector(tag);
  const probe = widget.appendChild(document.createElement('span'));
  const colours = {};
  for (const name of ['--attn-panel', '--attn-muted', '--attn-fg', '--attn-bg']) {
    probe.style.color = `var(${name})`;
    colours[name] = getComputedStyle(probe).color;
  }
  probe.remove();
  const maps = [...widget.querySelectorAll('svg[role="img"]')].map((svg) => {
    const rects = [...svg.querySelectorAll('rect')];
    const at = (r) => `${r.getAttribute('x')},${r.getAttribute('y')}`;
    const overlays = new Map(
      rects.filter((r) => /^url\(/.test(r.closest('[fill]').getAttribute('fill'))).map((r) => [at(r), r]),
    );
    return rects
      .filter((r) => r.querySelector('title'))
      .map((r) => {
        const title = r.querySelector('title').textContent;
        const overlay = overlays.get(at(r));
        const pattern = overlay && svg.querySelector(overlay.closest('[fill]').getAttribute('fill').slice(4, -1));
        return {
          weight: Number(title.split(/[:,] /).at(-1)), // NaN arrives as null
          nan: title.endsWith(': NaN'),
          blocked: / blocked/.test(title),
          fill: r.closest('[fill]').getAttribute('fill'),
          width: r.getBoundingClientRect().width,
          hatch: pattern?.querySelector('line')?.getAttribute('stroke') ?? null,
        };
      });
  });
  const style = getComputedStyle(widget);
  return {
    colours,
    maps,
    swatch: widget.querySelector('[data-uniform-swatch]')?.getAttribute('fill'),
    uniform: Number(widget.querySelector('[data-uniform]')?.dataset.uniform),
    tables: widget.querySelectorAll('details.weights-table table').length,
    background: style.backgroundColor,
    color: style.color,
  };
}

/** Relative luminance (WCAG) of an rgb()/rgba() colour. */
function luminance(colour) {
  const [r, g, b] = colour
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** The heat maps' promises in one theme: fixed scale, hatched blocked cells, 16 px cells or a table. */
function checkHeatmaps(seen, theme, what) {
  const { colours } = seen;
  const panel = luminance(colours['--attn-panel']);
  assert.ok(seen.maps.length > 0, `${what}: heat maps drawn`);
  assert.equal(seen.tables, seen.maps.length, `${what}: each map has its table of weights`);
  for (const cells of seen.maps) {
    const finite = cells.filter((c) => Number.isFinite(c.weight));
    assert.ok(finite.length > 3, `${what}: cells with weights`);
    // Cells 16 px apart at 360 px (drawn 1 px narrower: a half-pixel gap each side).
    for (const c of cells) assert.ok(c.width + 1 >= 15.99, `${what}: a cell ${c.width} px wide`);
    // More weight, further from the panel in lightness (the ramp runs panel → accent → text).
    const sorted = [...finite].sort((a, b) => a.weight - b.weight);
    for (let i = 1; i < sorted.length; i++)
      assert.ok(
        Math.abs(luminance(sorted[i].fill) - panel) >= Math.abs(luminance(sorted[i - 1].fill) - panel) - 1e-3,
        `${what} (${theme}): weight ${sorted[i].weight} no closer to the panel than ${sorted[i - 1].weight}`,
      );
    // Blocked: the panel's colour (weight 0) under lines in the muted colour, which stand out from it.
    for (const c of cells.filter((c) => c.blocked)) {
      assert.equal(c.hatch, colours['--attn-muted'], `${what} (${theme}): blocked cells are hatched`);
      if (c.weight === 0) assert.equal(c.fill, colours['--attn-panel']);
    }
    for (const c of cells.filter((c) => !c.blocked)) assert.equal(c.hatch, null, `${what}: open cells are not hatched`);
  }
  if (seen.maps.flat().some((c) => c.blocked))
    assert.ok(contrast(colours['--attn-muted'], colours['--attn-panel']) > 3, `${what} (${theme}): the hatch shows`);
}

test('heat maps in both themes at 360 px: a fixed 0–1 scale with even weight marked, blocked cells hatched, cells of 16 px and a table; the pitfall demo shows what the core computes', async () => {
  const page = await browser.open(
    server.url + 'index.html',
    { width: 360, height: 740 },
    {
      beforeLoad: (p) => p.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]),
    },
  );
  const errors = page.engineProblems;
  await page.locate('html[data-lesson-ready]').waitFor();
  const tags = ['attn-mask-figure', 'attn-heads-figure', 'attn-pitfall-demo'];
  for (const tag of tags) {
    await page.locate(tag).scrollIntoView();
    await page.locate(`${tag}[data-ready]`).waitFor({ timeout: 20000 });
  }
  const half = core.halfPrecisionPitfall();
  const n = half.positions;
  /** Picks a pitfall case and resolves to what the widget read off it, its map drawn. */
  const pick = (precision, constant) =>
    page.run(
      async ([precision, constant]) => {
        const widget = document.querySelector('attn-pitfall-demo');
        for (const [name, value] of [
          ['precision', precision],
          ['constant', constant],
        ]) {
          const select = widget.querySelector(`select[name="${name}"]`);
          select.value = value;
          select.dispatchEvent(new Event('change'));
        }
        const label = widget.querySelector('select[name="constant"]').selectedOptions[0].textContent;
        for (let i = 0; i < 200; i++) {
          const map = widget.querySelector('.pitfall-map svg[role="img"]');
          if (map?.getAttribute('aria-label').includes(`${precision} with the constant ${label}`)) break;
          await new Promise((done) => setTimeout(done, 25));
        }
        const result = widget.querySelector('.pitfall-result');
        return { ...result.dataset, text: result.textContent };
      },
      [precision, constant],
    );

  // Two edits in a row: the maps and the last change event are the later edit's, whichever
  // drawing finishes first.
  const edited = await page.run(async () => {
    const mask = document.querySelector('attn-mask-figure');
    const changes = [];
    mask.addEventListener('attn-change', (event) => changes.push(event.detail.positions));
    const [positions] = mask.querySelectorAll('input');
    for (const value of ['6', '7']) {
      positions.value = value;
      positions.dispatchEvent(new Event('change'));
    }
    const rows = () => [...mask.querySelectorAll('[data-mask] .weights-table tbody tr')].length;
    for (let frames = 0; (rows() !== 3 * 7 || changes.length === 0) && frames < 600; frames++)
      await new Promise((done) => requestAnimationFrame(done));
    await new Promise((done) => setTimeout(done, 300)); // an older drawing, had it been kept, lands by then
    return { rows: rows(), changes };
  });
  assert.deepEqual(edited, { rows: 3 * 7, changes: [7] }, 'the mask figure shows and reports the later of two edits');

  // An edit, then a theme's redraw in the same task: the redraw's maps are shown, and the edit
  // still says attn-change.
  const themed = await page.run(async () => {
    const mask = document.querySelector('attn-mask-figure');
    const changes = [];
    mask.addEventListener('attn-change', (event) => changes.push(event.detail.positions));
    const [positions] = mask.querySelectorAll('input');
    positions.value = '8';
    positions.dispatchEvent(new Event('change'));
    mask.setAttribute('theme', 'light');
    const rows = () => [...mask.querySelectorAll('[data-mask] .weights-table tbody tr')].length;
    for (let frames = 0; (rows() !== 3 * 8 || changes.length === 0) && frames < 600; frames++)
      await new Promise((done) => requestAnimationFrame(done));
    mask.removeAttribute('theme');
    await new Promise((done) => setTimeout(done, 300)); // the redraw for the page's theme lands by then
    return { rows: rows(), changes };
  });
  assert.deepEqual(themed, { rows: 3 * 8, changes: [8] }, 'an edit redrawn for a theme still reports itself');

  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') {
      await page.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await page.waitFor(() => {
        const mask = document.querySelector('attn-mask-figure');
        const probe = mask.appendChild(document.createElement('span'));
        probe.style.color = 'var(--attn-muted)';
        const muted = getComputedStyle(probe).color;
        probe.remove();
        return mask.querySelector('svg pattern line')?.getAttribute('stroke') === muted;
      });
    }
    // Our own page: the widgets' scheme is the page's, so they paint no background of their own.
    assert.equal(await page.run(() => document.documentElement.dataset.attnPageScheme), theme);
    const masks = await page.run(readHeatmaps, 'attn-mask-figure');
    checkHeatmaps(masks, theme, 'mask figure');
    assert.equal(masks.background, 'rgba(0, 0, 0, 0)');
    // Fixed scale: a weight of 1 (the causal mask's first row) is the scale's end, the text colour.
    const one = masks.maps[0].find((c) => c.weight === 1);
    assert.equal(one.fill, masks.colours['--attn-fg']);

    const heads = await page.run(readHeatmaps, 'attn-heads-figure');
    checkHeatmaps(heads, theme, 'heads figure');
    // Near-even weights look near-even: no head's largest weight is nearer the end of the scale than the even mark.
    const far = (c) => Math.abs(luminance(c) - luminance(heads.colours['--attn-panel']));
    const largest = heads.maps.flat().reduce((a, b) => (b.weight > a.weight ? b : a));
    assert.ok(largest.weight < 0.3);
    assert.ok(far(largest.fill) < (far(heads.colours['--attn-fg']) + far(heads.swatch)) / 2);

    // The pitfall: every choice gives what the core computed for it.
    for (const c of half.cases) {
      const shown = await pick(c.precision, c.constant);
      const masked = Array.from(half.fullyMaskedRows).flatMap((r) => Array.from(c.weights.slice(r * n, r * n + n)));
      const expected = c.fullyMaskedRowsNan
        ? 'nan'
        : masked.every((w) => Math.abs(w - 1 / n) < 2e-3)
          ? 'uniform'
          : 'other';
      assert.equal(shown.maskedRows, expected, `${c.precision} ${c.constant}: ${shown.text}`);
      assert.equal(shown.otherRows, c.blockedExactlyZero ? 'right' : 'wrong', `${c.precision} ${c.constant}`);
      assert.match(shown.text, c.overflowed ? /stored as −∞/ : /is stored as −\d/);
    }
    assert.equal((await pick('float16', '-1e9')).maskedRows, 'nan');
    assert.equal((await pick('float32', '-1e9')).maskedRows, 'uniform');
    // A uniform row takes the legend's even-weight colour: the fully masked rows of float16 with -1e4.
    await pick('float16', '-1e4');
    const pitfall = await page.run(readHeatmaps, 'attn-pitfall-demo');
    checkHeatmaps(pitfall, theme, 'pitfall demo');
    assert.equal(pitfall.uniform, 1 / n);
    const fullyMasked = pitfall.maps[0].filter((_, i) => half.fullyMaskedRows.includes(Math.floor(i / n)));
    assert.ok(fullyMasked.length >= n);
    for (const cell of fullyMasked) assert.equal(cell.fill, pitfall.swatch);
    await pick('float16', '-1e9');
    const nan = await page.run(readHeatmaps, 'attn-pitfall-demo');
    assert.equal(nan.maps[0].filter((c) => c.nan).length, n * half.fullyMaskedRows.length);
  }

  // A light-only page (as an author's may be) and a reader who prefers dark: the widgets turn
  // dark and paint their own background, their text readable on it.
  await page.run(() => {
    document.documentElement.style.colorScheme = 'light';
  });
  await page.waitFor(() => document.documentElement.dataset.attnPageScheme === 'light');
  for (const tag of tags) {
    const seen = await page.run(readHeatmaps, tag);
    assert.equal(seen.background, seen.colours['--attn-bg'], `${tag} paints its background`);
    assert.ok(contrast(seen.color, seen.background) > 7, `${tag}: text readable on it`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a reload with #cue.seed=7 the trainer says seed 7 is not trained yet; Show recorded run takes the recorded settings', async () => {
  const { page, errors } = await openAt('index.html#cue.seed=7', 'attn-cue-trainer');
  const trainer = page.locate('attn-cue-trainer');
  assert.equal(await trainer.locate('::-p-aria(seed)').value(), '7');
  const status = trainer.locate('.trainer-status');
  await page.waitFor(() => /recorded run/.test(document.querySelector('attn-cue-trainer .trainer-status').textContent));
  assert.match(
    await status.text(),
    /Trained by the native core at build time: seed 3, 1 head per block, 30 epochs\. Your settings \(seed 7, 1 head per block, 30 epochs\) are not trained yet/,
  );
  assert.equal(await trainer.locate('::-p-aria([name="Pause"][role="button"])').disabled(), true);
  await trainer.locate('::-p-aria([name="Show recorded run"][role="button"])').click();
  await page.waitFor(
    () => !/not trained yet/.test(document.querySelector('attn-cue-trainer .trainer-status').textContent),
  );
  assert.equal(await trainer.locate('::-p-aria(seed)').value(), '3');
  assert.match(await page.run(() => location.href), /cue\.seed=3/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("exercise 2 refuses a half mask that leaves a query no key; exercise 3 takes the sketch's range; exercises 1 and 6 hint, then show", async () => {
  const { page, errors } = await openAt('index.html', 'attn-exercises');
  const mask = page.locate('attn-exercises [data-exercise="build-mask"]');
  const setCells = async (on) => {
    for (const button of await mask.locate('.mask-builder button').all()) {
      const [q, k] = (await button.attribute('aria-label')).match(/\d+/g).map(Number);
      if (((await button.attribute('aria-pressed')) === 'true') !== on(q, k)) await button.click();
    }
    await mask.locate('::-p-aria([name="Check"][role="button"])').click();
    return mask.locate('.result').text();
  };
  // Causal, 18 of 36 pairs: the lower triangle (21) without query 1's only key and two of query 6's.
  const emptyFirst = await setCells((q, k) => k <= q && q > 1 && !(q === 6 && k <= 2));
  assert.match(
    emptyFirst,
    /^Not yet\. Your mask allows 0\.5000 of the pairs, no query sees a later key, but leaves query 1 with no key to attend to\.$/,
  );
  const everyRow = await setCells((q, k) => k <= q && !(q === 6 && k <= 3));
  assert.match(everyRow, /^Correct\. .*every query has a key to attend to\.$/);

  const aim = page.locate('attn-exercises [data-exercise="aim-query"]');
  assert.match(await aim.locate('p').first().text(), /between −3 and 3 \(the sketch’s range\)/);
  await aim.locate('::-p-aria(x)').fill('3.1');
  await aim.locate('::-p-aria(y)').fill('0');
  await aim.locate('::-p-aria([name="Check"][role="button"])').click();
  assert.match(await aim.locate('.result').text(), /x must be a number from -3 to 3, got "3\.1"/);

  /** The result of exercise `id` once it reads as `pattern` (a check or a reveal may answer after a moment). */
  const resultOf = (id, pattern) =>
    page.waitFor(
      ({ id, source }) => {
        const text = document.querySelector(`[data-exercise="${id}"] .result`).textContent;
        return new RegExp(source).test(text) && text;
      },
      { id, source: pattern.source },
    );

  // Asked after a right check, the answer is shown alone (the task stays right) and its mask passes.
  await mask.locate('.attn-show-answer').click();
  await resultOf('build-mask', /^One mask that passes is now in the grid: .* until 18 of the 36 pairs are allowed\.$/);
  await mask.locate('::-p-aria([name="Check"][role="button"])').click();
  await resultOf('build-mask', /^Correct\. .*every query has a key to attend to\.$/);

  // Exercise 1: a wrong guess is told its side, not the measurement; Show the answer gives it.
  const predict = page.locate('attn-exercises [data-exercise="predict-saturation"]');
  await page.run(() => (document.querySelector('[data-exercise="predict-saturation"] select').value = '8'));
  await predict.locate('::-p-aria(your guess)').fill('0.99');
  await predict.locate('::-p-aria([name="Check"][role="button"])').click();
  const hint = await resultOf('predict-saturation', /^Not yet\. Your guess is too high for d_k = 8\. /);
  assert.doesNotMatch(hint, /0\.\d{4}/);
  await predict.locate('.attn-show-answer').click();
  await resultOf('predict-saturation', /^Answer shown, .* The core measured 0\.\d{4} at d_k = 8\.$/);

  // Exercise 6: the first epoch the recorded 8-head one-block run reaches 0.5, read from its file.
  const { history } = JSON.parse(
    readFileSync(new URL('../../web/src/generated/runs/one-block-heads8.json', import.meta.url), 'utf8'),
  );
  const first = history.findIndex((e) => e.validationAccuracy >= 0.5) + 1;
  const climb = page.locate('attn-exercises [data-exercise="one-block-climb"]');
  await climb.locate('::-p-aria(epoch)').fill(String(first + 20));
  await climb.locate('::-p-aria([name="Check"][role="button"])').click();
  const late = await resultOf('one-block-climb', /^Not yet\. Too late\. Train with 8 heads per block and 150 epochs/);
  assert.doesNotMatch(late, new RegExp(`\\b${first}\\b`));
  await climb.locate('::-p-aria(epoch)').fill(String(first));
  await climb.locate('::-p-aria([name="Check"][role="button"])').click();
  await resultOf(
    'one-block-climb',
    new RegExp(`^Correct\\. The recorded run first reaches 0\\.5 at epoch ${first} \\(0\\.\\d{3}\\)\\.$`),
  );
  assert.deepEqual(errors, []);
  await page.close();
});
