// The built lesson (dist/) in Debian's Chromium, served with the strict Content-Security-Policy
// the project promises. Run after `npm run build`: node --test tests/web/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeSite, openSite, startLesson } from '../support/chromium.mjs';
import { loadCore } from '../../build-wasm/facade/core/index.js';

const root = resolve(import.meta.dirname, '../..');
const shots = resolve(root, 'build/screenshots');

const CHECK = '::-p-aria([name="Check"][role="button"])';
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
let server, browser, core;

before(async () => {
  mkdirSync(shots, { recursive: true });
  ({ server, browser } = await openSite());
  core = await loadCore({ wasmBinary: readFileSync(resolve(root, 'build-wasm/facade/generated/attention_lab.wasm')) });
});

after(() => closeSite({ server, browser }));

/** Opens the lesson, scrolls through it so every widget starts, and waits until all are ready. */
async function openLesson(viewport = { width: 1280, height: 900 }) {
  const page = await startLesson(browser, server.url, viewport);
  return { page, errors: page.engineProblems };
}

test('the lesson loads under the strict CSP with no console errors, and every widget renders', async () => {
  const { page, errors } = await openLesson();
  const widgetTags = await page
    .locate('main figure.widget > :first-child')
    .evaluateAll((nodes) => nodes.map((n) => n.localName));
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
    assert.ok(widgetTags.includes(tag), `${tag} is on the page`);
  const empty = await page
    .locate('main figure.widget > :first-child')
    .evaluateAll((nodes) =>
      nodes.filter((n) => !n.querySelector('canvas, svg, table, img, form, section, p')).map((n) => n.localName),
    );
  assert.deepEqual(empty, [], 'every widget drew something');
  const missing = await page.locate('.live[data-missing]').evaluateAll((nodes) => nodes.map((n) => n.dataset.key));
  assert.deepEqual(missing, [], 'every live number in the text was computed');
  assert.deepEqual(errors, []);
  await page.screenshot(resolve(shots, 'lesson-desktop.png'));
  await page.close();
});

test("numbers in the text are the core's", async () => {
  const { page } = await openLesson();
  const shown = await page
    .locate('.live[data-key]')
    .evaluateAll((nodes) => nodes.map((n) => [n.dataset.key, n.textContent]));
  const sweep = core.scaleSweep({ dks: [4, 16, 64, 256], draws: 200, tokens: 12, seed: 0 });
  const expected = {
    'sweep.maxUnscaled.256': sweep.rows[3].unscaled.maxWeight.mean.toFixed(4),
    'sweep.maxUnscaled.4': sweep.rows[0].unscaled.maxWeight.mean.toFixed(4),
    'sweep.entropyUnscaled.256': sweep.rows[3].unscaled.entropy.mean.toFixed(4),
    'masks.causal': core.allowedFraction(core.causalMask(10)).toFixed(4),
    'masks.padding': core.allowedFraction(core.paddingMask(10, 10, 6)).toFixed(4),
    'masks.both': core.allowedFraction(core.combineMasks(core.causalMask(10), core.paddingMask(10, 10, 6))).toFixed(4),
  };
  for (const [key, text] of Object.entries(expected)) {
    const seen = shown.filter(([k]) => k === key).map(([, t]) => t);
    assert.ok(seen.length > 0, `${key} is shown`);
    for (const t of seen) assert.equal(t, text, key);
  }
  assert.equal(expected['masks.causal'], '0.5500');
  await page.close();
});

test('dragging the query and pressing arrow keys move the bars, which sum to 1', async () => {
  const { page } = await openLesson();
  const lookup = page.locate('attn-soft-lookup');
  await lookup.scrollIntoView();
  const events = [];
  await page.puppeteer.exposeFunction('recordLookup', (detail) => events.push(detail));
  await page.run(() =>
    document.querySelector('attn-soft-lookup').addEventListener('attn-change', (e) => window.recordLookup(e.detail)),
  );
  const canvas = lookup.locate('canvas');
  const box = await canvas.box();
  // The canvas shows [-3.2, 3.2]^2 in its top-left square (the bars beside it or below it);
  // drag the query towards key 3 (upper left).
  const side = Math.min(box.width, box.height);
  await page.drag(
    { x: box.x + side * 0.7, y: box.y + side * 0.3 },
    { x: box.x + side * 0.2, y: box.y + side * 0.3 },
    { steps: 8 },
  );
  // The last step's event may still be on its way from the page.
  for (
    let waited = 0;
    waited < 2000 && events.at(-1)?.weights.indexOf(Math.max(...events.at(-1).weights)) !== 2;
    waited += 50
  )
    await sleep(50);
  assert.ok(events.length >= 2, 'drag emitted attn-change');
  const dragged = events.at(-1);
  assert.ok(Math.abs(dragged.weights.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  assert.equal(dragged.weights.indexOf(Math.max(...dragged.weights)), 2, 'key 3 wins when the query points at it');
  // The weights are the core's for that query.
  const keys = { rows: 5, cols: 2, data: Float32Array.from([2, 0.4, 0.9, 2, -1.8, 1.1, -1.2, -1.9, 1.3, -1.7]) };
  const again = core.attention({ rows: 1, cols: 2, data: Float32Array.from(dragged.query) }, keys, keys);
  dragged.weights.forEach((w, i) => assert.ok(Math.abs(w - again.weights.data[i]) < 1e-6));

  await lookup.locate('[role="application"]').focus();
  const before = events.length;
  for (let i = 0; i < 5; i++) await page.press('ArrowRight');
  assert.ok(events.length >= before + 5, 'arrow keys emitted attn-change');
  const moved = events.at(-1);
  assert.ok(
    Math.abs(moved.query[0] - dragged.query[0] - 0.5) < 1e-6 || moved.query[0] === 3,
    'the query moved right by 5 steps (or reached the edge, 3)',
  );
  assert.notDeepEqual(moved.weights, dragged.weights);
  assert.ok(Math.abs(moved.weights.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  const readout = await lookup.locate('[aria-live]').text({ timeout: 2000 });
  await page.waitFor(() => /key 1: \d/.test(document.querySelector('attn-soft-lookup [aria-live]').textContent));
  assert.ok(readout !== null);
  await page.close();
});

test('clicking each column re-ranks the table; highest and lowest follow the data', async () => {
  const { page } = await openLesson();
  const table = page.locate('attn-ranked-table');
  await table.scrollIntoView();
  const headers = await table.locate('th').count();
  for (let c = 0; c < headers; c++) {
    for (const direction of ['ascending', 'descending']) {
      const header = table.locate('th').nth(c);
      if (direction === 'descending') await header.locate('button').click();
      else if (c > 0) await header.locate('button').click();
      assert.equal(await header.attribute('aria-sort'), direction);
      const column = await table
        .locate('tbody tr')
        .evaluateAll((rows, c) => rows.map((r) => parseFloat(r.children[c].textContent)), c);
      const sorted = [...column].sort((a, b) => (direction === 'ascending' ? a - b : b - a));
      assert.deepEqual(column, sorted, `column ${c} ${direction}`);
      if (c > 0) {
        const marks = await table
          .locate('tbody td[data-mark]:not([data-mark=""])')
          .evaluateAll((cells) => cells.map((td) => [td.dataset.mark, parseFloat(td.textContent)]));
        assert.deepEqual(marks.find(([m]) => m === 'highest')[1], Math.max(...column));
        assert.deepEqual(marks.find(([m]) => m === 'lowest')[1], Math.min(...column));
      }
    }
  }
  // Keyboard: Enter on a focused header sorts too.
  await table.locate('th').nth(1).locate('button').focus();
  await page.press('Enter');
  assert.equal(await table.locate('th').nth(1).attribute('aria-sort'), 'ascending');
  await page.close();
});

test('quiz: right and wrong answers get their feedback, the score counts, keyboard alone works', async () => {
  const { page } = await openLesson();
  const quiz = page.locate('attn-quiz');
  await quiz.scrollIntoView();
  const answered = [];
  await page.puppeteer.exposeFunction('recordQuiz', (d) => answered.push(d));
  await page.run(() =>
    document.querySelector('attn-quiz').addEventListener('attn-quiz-answered', (e) => window.recordQuiz(e.detail)),
  );
  const first = quiz.locate('fieldset').first();
  // Options are shown shuffled: they are picked by the author's index (the radio's value).
  await first.locate('input[type=radio][value="0"]').check();
  await first.locate(CHECK).click();
  assert.match(await first.locate('.feedback').text(), /^Not quite\./);
  assert.equal(await first.locate('.option:has(input[value="0"])').attribute('data-result'), 'wrong');
  await first.locate('input[type=radio][value="1"]').check();
  await first.locate(CHECK).click();
  assert.match(await first.locate('.feedback').text(), /^Correct\./);
  // The explanation quotes the core's measured number, not the lesson's.
  const sweep = core.scaleSweep({ dks: [256], draws: 200, tokens: 12, seed: 0 });
  assert.ok((await first.locate('.feedback').text()).includes(sweep.rows[0].unscaled.maxWeight.mean.toFixed(4)));
  assert.match(await quiz.locate('.score').text(), /Score: 1 of 5 questions correct/);
  assert.equal(answered.at(-1).score, 1);

  // Keyboard only: to the second question's radios, arrows to the author's option B, Tab to Check, Space.
  const second = quiz.locate('fieldset').nth(1);
  await second.locate('input[type=radio]').first().focus();
  const onB = () => page.run(() => document.activeElement.value === '1');
  if (await onB()) await page.press('Space');
  for (let press = 0; press < 4 && !(await onB()); press++) await page.press('ArrowDown');
  await page.press('Tab');
  await page.press('Space');
  assert.match(await second.locate('.feedback').text(), /^Correct\./);
  assert.equal(await second.locate('.feedback').attribute('aria-live'), 'polite');
  assert.match(await quiz.locate('.score').text(), /Score: 2 of 5 questions correct/);
  // Retry clears the question and the score follows.
  await second.locate('::-p-aria([name="Retry"][role="button"])').click();
  assert.match(await quiz.locate('.score').text(), /Score: 1 of 5 questions correct/);
  await page.close();
});

test('a phone-sized screen (360 px) shows the lesson without horizontal scrolling', async () => {
  const { page, errors } = await openLesson({ width: 360, height: 740 });
  const overflow = await page.run(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot(resolve(shots, 'lesson-360.png'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('settings in the URL hash reopen the same view, and changing them updates the hash', async () => {
  const page = await browser.open(
    server.url + 'index.html#masks.n=8&masks.real=5&table.draws=50&table.sort=maxScaled&table.dir=descending',
    { width: 1280, height: 900 },
  );
  await page.locate('html[data-lesson-ready]').waitFor();
  const masks = page.locate('attn-mask-figure');
  await masks.scrollIntoView();
  await page.locate('attn-mask-figure[data-ready]').waitFor();
  assert.equal(await masks.locate('::-p-aria(positions)').value(), '8');
  const both = core.allowedFraction(core.combineMasks(core.causalMask(8), core.paddingMask(8, 8, 5))).toFixed(4);
  assert.match(await masks.locate('[data-mask="both"]').text(), new RegExp(`allowed: ${both}`));
  const table = page.locate('attn-ranked-table');
  await table.scrollIntoView();
  await page.locate('attn-ranked-table[data-ready]').waitFor();
  assert.equal(await table.locate('input').value(), '50');
  assert.equal(await table.locate('th[data-key="maxScaled"]').attribute('aria-sort'), 'descending');
  await masks.locate('::-p-aria(positions)').fill('12');
  await masks.locate('::-p-aria(positions)').press('Tab');
  await page.waitFor(() => location.hash.includes('masks.n=12'));
  await page.close();
});

test('figures offer their data as CSV and themselves as SVG', async () => {
  const { page } = await openLesson();
  for (const [tag, files] of [
    ['attn-scale-figure', ['scale-sweep.csv', 'scale-sweep-maxWeight.svg']],
    ['attn-mask-figure', ['masks.csv', 'masks.svg']],
    ['attn-heads-figure', ['heads.csv', 'heads.svg']],
    ['attn-cue-trainer', ['cue-task-curves.csv', 'cue-task-curves.svg']],
  ]) {
    const buttons = page.locate(`${tag} .attn-download button`);
    const names = [];
    for (let i = 0; i < (await buttons.count()); i++) {
      const download = await page.download(() => buttons.nth(i).click());
      names.push(download.suggestedFilename);
      const text = readFileSync(download.path, 'utf8');
      if (download.suggestedFilename.endsWith('.svg'))
        assert.match(text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      else assert.ok(text.split('\n').length > 3, `${download.suggestedFilename} has rows`);
    }
    for (const f of files) assert.ok(names.includes(f), `${tag} offers ${f} (got ${names.join(', ')})`);
  }
  await page.close();
});

test('a 320 px screen shows the lesson without horizontal scrolling', async () => {
  const { page } = await openLesson({ width: 320, height: 640 });
  const overflow = await page.run(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.close();
});
