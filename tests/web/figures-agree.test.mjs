// What the lesson's figures, checks and texts must agree on, in Debian's Chromium (dist/, the
// strict CSP): the scale figure shows the measurement the ranked table recomputes; the heat
// maps' colour grows with the weight in either theme; the trainer's status names the settings
// in its controls after a reload with a hash; exercise 2 refuses a mask that leaves a query
// nothing to attend to; exercise 3 takes the sketch's range. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSite, openSite, watchErrors } from '../support/chromium.mjs';

let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

/** The lesson at `path` (query and hash), with `tag` scrolled to and ready. */
async function openAt(path, tag) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = watchErrors(page);
  await page.goto(server.url + path);
  await page.waitForSelector('html[data-lesson-ready]');
  await page.locator(tag).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${tag}[data-ready]`, { timeout: 20000 });
  return { page, errors };
}

test('recomputing the ranked table with more draws redraws the scale figure with them, and says how long its error bars are', async () => {
  const { page, errors } = await openAt('index.html', 'attn-scale-figure');
  const figure = page.locator('attn-scale-figure');
  const before = await figure.getAttribute('data-draws');
  assert.match(await figure.locator('[data-note="error-bars"]').textContent(), new RegExp(`^${before} draws per d_k\\. Error bars: ±1 standard error, at most \\d\\.\\d{4} \\(largest weight\\) and \\d\\.\\d{4} nats \\(entropy\\)`));
  const table = page.locator('attn-ranked-table');
  await table.scrollIntoViewIfNeeded();
  await page.waitForSelector('attn-ranked-table[data-ready]');
  const more = String(Number(before) * 2);
  await table.locator('input').fill(more);
  await table.getByRole('button', { name: 'Recompute' }).click();
  await page.waitForFunction((n) => document.querySelector('attn-scale-figure').dataset.draws === n, more);
  assert.match(await figure.locator('[data-note="error-bars"]').textContent(), new RegExp(`^${more} draws per d_k\\.`));
  // The figure's points are the table's numbers (its tooltips hold them to 4 decimals).
  const tableMax = await table.locator('tbody tr').first().locator('td').nth(1).textContent();
  const tooltips = await figure.locator('svg title').allTextContents();
  assert.ok(tooltips.some((t) => t.includes(`unscaled, d_k = 4: ${tableMax.trim().slice(0, 6)}`)), `a point at ${tableMax} among ${tooltips.slice(0, 4)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const theme of ['light', 'dark']) {
  test(`heat maps in the ${theme} theme: one colour, the theme's accent, fuller with more weight`, async () => {
    const { page, errors } = await openAt(`index.html?theme=${theme}`, 'attn-mask-figure');
    const { accent, cells } = await page.evaluate(() => {
      const figure = document.querySelector('attn-mask-figure');
      const probe = figure.appendChild(document.createElement('span'));
      probe.style.color = 'var(--attn-accent)';
      const accent = getComputedStyle(probe).color;
      probe.remove();
      const cells = [...figure.querySelectorAll('[data-mask="causal"] svg rect')].filter((r) => r.querySelector('title'))
        .map((r) => ({ fill: r.closest('[fill]').getAttribute('fill'), opacity: Number(r.getAttribute('fill-opacity')), weight: Number(r.querySelector('title').textContent.split(': ').at(-1)) }));
      return { accent, cells };
    });
    assert.ok(cells.length > 10);
    for (const cell of cells) assert.equal(cell.fill, accent);
    const sorted = [...cells].sort((a, b) => a.weight - b.weight);
    for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i].opacity >= sorted[i - 1].opacity, 'more weight, fuller colour');
    assert.ok(sorted.at(-1).opacity > sorted[0].opacity + 0.5);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('after a reload with #cue.seed=7 the trainer says seed 7 is not trained yet; Show recorded run takes the recorded settings', async () => {
  const { page, errors } = await openAt('index.html#cue.seed=7', 'attn-cue-trainer');
  const trainer = page.locator('attn-cue-trainer');
  assert.equal(await trainer.getByLabel('seed').inputValue(), '7');
  const status = trainer.locator('.trainer-status');
  await page.waitForFunction(() => /recorded run/.test(document.querySelector('attn-cue-trainer .trainer-status').textContent));
  assert.match(await status.textContent(), /Trained by the native core at build time: seed 3, 1 head per block, 30 epochs\. Your settings \(seed 7, 1 head per block, 30 epochs\) are not trained yet/);
  assert.equal(await trainer.getByRole('button', { name: 'Pause' }).isDisabled(), true);
  await trainer.getByRole('button', { name: 'Show recorded run' }).click();
  await page.waitForFunction(() => !/not trained yet/.test(document.querySelector('attn-cue-trainer .trainer-status').textContent));
  assert.equal(await trainer.getByLabel('seed').inputValue(), '3');
  assert.match(page.url(), /cue\.seed=3/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('exercise 2 refuses a half mask that leaves a query no key; exercise 3 takes the sketch\'s range', async () => {
  const { page, errors } = await openAt('index.html', 'attn-exercises');
  const mask = page.locator('attn-exercises [data-exercise="build-mask"]');
  const setCells = async (on) => {
    for (const button of await mask.locator('.mask-builder button').all()) {
      const [q, k] = (await button.getAttribute('aria-label')).match(/\d+/g).map(Number);
      if ((await button.getAttribute('aria-pressed') === 'true') !== on(q, k)) await button.click();
    }
    await mask.getByRole('button', { name: 'Check' }).click();
    return mask.locator('.result').textContent();
  };
  // Causal, 18 of 36 pairs: the lower triangle (21) without query 1's only key and two of query 6's.
  const emptyFirst = await setCells((q, k) => k <= q && q > 1 && !(q === 6 && k <= 2));
  assert.match(emptyFirst, /^Not yet\. Your mask allows 0\.5000 of the pairs, no query sees a later key, but leaves query 1 with no key to attend to\.$/);
  const everyRow = await setCells((q, k) => k <= q && !(q === 6 && k <= 3));
  assert.match(everyRow, /^Correct\. .*every query has a key to attend to\.$/);

  const aim = page.locator('attn-exercises [data-exercise="aim-query"]');
  assert.match(await aim.locator('p').first().textContent(), /between −3 and 3 \(the sketch’s range\)/);
  await aim.getByLabel('x').fill('3.1');
  await aim.getByLabel('y').fill('0');
  await aim.getByRole('button', { name: 'Check' }).click();
  assert.match(await aim.locator('.result').textContent(), /x must be a number from -3 to 3, got "3\.1"/);
  assert.deepEqual(errors, []);
  await page.close();
});
