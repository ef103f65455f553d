// What the lesson's figures, checks and texts must agree on, in Debian's Chromium (dist/, the
// strict CSP): the scale figure shows the measurement the ranked table recomputes; the heat
// maps' colour grows with the weight in either theme; the trainer's status names the settings
// in its controls after a reload with a hash; exercise 2 refuses a mask that leaves a query
// nothing to attend to, and the mask it shows on request passes; exercise 3 takes the sketch's
// range; exercise 1 hints without the measurement until asked; exercise 6 is checked against the
// recorded run's curve. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { closeSite, openSite } from '../support/chromium.mjs';

let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
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

for (const theme of ['light', 'dark']) {
  test(`heat maps in the ${theme} theme: one colour, the theme's accent, fuller with more weight`, async () => {
    const { page, errors } = await openAt(`index.html?theme=${theme}`, 'attn-mask-figure');
    const { accent, cells } = await page.run(() => {
      const figure = document.querySelector('attn-mask-figure');
      const probe = figure.appendChild(document.createElement('span'));
      probe.style.color = 'var(--attn-accent)';
      const accent = getComputedStyle(probe).color;
      probe.remove();
      const cells = [...figure.querySelectorAll('[data-mask="causal"] svg rect')]
        .filter((r) => r.querySelector('title'))
        .map((r) => ({
          fill: r.closest('[fill]').getAttribute('fill'),
          opacity: Number(r.getAttribute('fill-opacity')),
          weight: Number(r.querySelector('title').textContent.split(': ').at(-1)),
        }));
      return { accent, cells };
    });
    assert.ok(cells.length > 10);
    for (const cell of cells) assert.equal(cell.fill, accent);
    const sorted = [...cells].sort((a, b) => a.weight - b.weight);
    for (let i = 1; i < sorted.length; i++)
      assert.ok(sorted[i].opacity >= sorted[i - 1].opacity, 'more weight, fuller colour');
    assert.ok(sorted.at(-1).opacity > sorted[0].opacity + 0.5);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

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
