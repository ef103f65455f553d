// The interventions of <attn-cue-probe> in each engine (tests/support/engines.mjs), on the widget
// page (tests/engines/widget-page/widgets.html, the build's files next to it, strict CSP), for the
// recorded weights: interventions chosen with the keyboard in the widget's fieldset, and every
// number the results table shows equal to the native command's (`attention-lab intervene --json`
// of the same weights, run here): the cell's text as the widget formats it, and the full-precision
// value (the cell's data-value and the attn-change detail) exactly. Covered: a zero and a mean
// knock-out, each ideal pattern, a patch of block 1's output at one position, block 2 (which the
// 1-block model does not have) and a head the models do not have (named in place, the widget
// working on). Screenshots of a patch at 1280 and 360 px, light and dark (Chromium):
// build/screenshots/cue-interventions-*.png.
// Run after `npm run build`: node --test tests/engines/cue-interventions.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { widgetPageSuites, widgetScreenshots } from './widget-page/suite.mjs';

const root = resolve(import.meta.dirname, '../..');
const CLI = resolve(root, 'build/cli/attention-lab');
const CUE = 7;
/** The native command's example: the answer is the 5 after the cue. */
const EXAMPLE = '3,1,CUE,5,0,6,2,2,4';
const TOKENS = [3, 1, CUE, 5, 0, 6, 2, 2, 4, CUE];
const generated = (blocks, ext) => resolve(root, `web/src/generated/cue-${blocks}block.${ext}`);
const recordedConfig = (blocks) => JSON.parse(readFileSync(generated(blocks, 'json'), 'utf8')).config;

/** The native command's intervention on the recorded model of `blocks` blocks. */
function nativeIntervene(blocks, iv, tokens) {
  const c = recordedConfig(blocks);
  const flags = [
    '--blocks',
    c.blocks,
    '--heads',
    c.heads,
    '--seed',
    c.seed,
    '--weights',
    generated(blocks, 'weights.bin'),
  ];
  flags.push('--action', iv.action, '--ablation', iv.ablation, '--pattern', iv.pattern);
  flags.push('--block', iv.block, '--head', iv.head, '--tokens', tokens.join(','));
  if (iv.positions.length) flags.push('--positions', iv.positions.join(','));
  if (iv.patchInto.length) flags.push('--corrupted', iv.patchInto.join(','));
  return JSON.parse(execFileSync(CLI, ['intervene', '--json', ...flags.map(String)], { encoding: 'utf8' }));
}

/** A fresh probe with `attrs`, its attn-change details recorded; resolves once it has answered. */
async function place(page, attrs, theme) {
  await page.run(
    ({ attrs, theme }) => {
      history.replaceState(null, '', location.pathname);
      if (theme) document.documentElement.dataset.attnTheme = theme;
      window.changes = [];
      const probe = document.createElement('attn-cue-probe');
      for (const [name, value] of Object.entries(attrs)) probe.setAttribute(name, value);
      probe.addEventListener('attn-change', (event) => window.changes.push(event.detail));
      document.getElementById('stage').replaceChildren(probe);
      probe.scrollIntoView();
    },
    { attrs, theme },
  );
  await page.waitFor(
    () => document.querySelector('attn-cue-probe[data-answer-ms] .probe-status')?.textContent,
    undefined,
    {
      timeout: 30000,
    },
  );
}

/** Presses keys in a control of the fieldset and waits for the change's answer; resolves to its attn-change detail. */
async function choose(page, keys, selector) {
  const before = await page.run(() => window.changes.length);
  await page.press(keys, `attn-cue-probe ${selector}`);
  await page.waitFor((n) => window.changes.length > n, before, { timeout: 30000 });
  // keys pressed together answer once each; the last one is what is shown
  await page.waitFor(() => document.querySelector('attn-cue-probe').dataset.busy === undefined);
  return page.run(() => window.changes.at(-1));
}

/** The results table as shown: per row, its model, status, and each cell's text and data-value. */
const table = (page) =>
  page.run(() => ({
    caption: document.querySelector('attn-cue-probe table.probe-effects caption')?.textContent,
    said: document.querySelector('attn-cue-probe .probe-said').textContent,
    rows: [...document.querySelectorAll('attn-cue-probe table.probe-effects tbody tr')].map((tr) => ({
      blocks: Number(tr.dataset.blocks),
      status: tr.dataset.status,
      texts: [...tr.querySelectorAll('td')].map((td) => td.textContent),
      values: [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.dataset.value)),
    })),
  }));

const label = (c) => (c === CUE ? 'CUE' : c === CUE + 1 ? 'PAD' : String(c));

/** Checks the table and the event's detail against the native command, model by model. */
async function assertNative(page, change, { notApplicable = [] } = {}) {
  const iv = change.intervention;
  const patch = iv.action === 'patch';
  const { rows } = await table(page);
  assert.deepEqual(
    rows.map((r) => r.blocks),
    [1, 2],
  );
  for (const [i, row] of rows.entries()) {
    const detail = change.results[i];
    assert.equal(detail.blocks, row.blocks);
    if (notApplicable.includes(row.blocks)) {
      assert.equal(row.status, 'not-applicable', `${row.blocks} blocks: not applicable`);
      assert.match(row.texts[0], /^Does not apply: the 1-block model has no block 2/);
      continue;
    }
    assert.equal(row.status, 'changed', `${row.blocks} blocks: ${row.texts.join(' ')}`);
    const native = nativeIntervene(row.blocks, iv, change.tokens);
    const expected = [native.unchangedPrediction, native.prediction, native.cleanAccuracy, native.accuracy];
    if (patch) expected.push(native.restoredFraction, native.sequenceRestoredFraction);
    assert.deepEqual(row.values, expected, `${row.blocks} blocks: full-precision values`);
    assert.deepEqual(
      row.texts,
      [label(native.unchangedPrediction), label(native.prediction), ...expected.slice(2).map((x) => x.toFixed(3))],
      `${row.blocks} blocks: the cells' text`,
    );
    for (const key of ['accuracy', 'loss', 'cleanAccuracy', 'cleanLoss', 'restoredFraction', 'prediction'])
      assert.equal(detail[key], native[key], `${row.blocks} blocks: detail ${key}`);
    assert.deepEqual(detail.probabilities, native.probabilities, `${row.blocks} blocks: probabilities`);
    assert.deepEqual(detail.unchangedProbabilities, native.unchangedProbabilities);
  }
}

widgetPageSuites((context, engine) => {
  test('knock-outs (zero, mean) chosen with the keyboard equal the native command; block 2 does not apply to the 1-block model', async () => {
    const { page } = context;
    await place(page, { sequence: EXAMPLE });
    assert.equal(await page.run(() => document.querySelector('attn-cue-probe table.probe-effects')), null);
    // none -> knock out a head (zero, block 1, head 1)
    let change = await choose(page, ['ArrowDown'], 'select[aria-label="what to change"]');
    assert.deepEqual(change.tokens, TOKENS);
    assert.equal(change.intervention.action, 'knock-out');
    assert.equal(change.intervention.ablation, 'zero');
    await assertNative(page, change);
    const shown = await table(page);
    assert.match(shown.caption, /^Knocked out block 1, head 1 \(its output set to zero\)/);
    const r = change.results;
    assert.equal(
      shown.said,
      `Knocked out block 1, head 1 (its output set to zero): the 1-block model now answers ${label(r[0].prediction)} (validation accuracy ${r[0].accuracy.toFixed(3)}); the 2-block model now answers ${label(r[1].prediction)} (validation accuracy ${r[1].accuracy.toFixed(3)}).`,
    );
    // zero -> mean
    change = await choose(page, ['ArrowDown'], 'select[aria-label="knock out to"]');
    assert.equal(change.intervention.ablation, 'mean');
    await assertNative(page, change);
    // block 1 -> 2: the 1-block model has none
    change = await choose(page, ['ArrowDown'], 'select[aria-label="block"]');
    assert.equal(change.intervention.block, 2);
    await assertNative(page, change, { notApplicable: [1] });
    assert.deepEqual(await page.problems(), []);
  });

  test('each ideal pattern, stepped through with the keyboard, equals the native command; the state is kept in the hash', async () => {
    const { page } = context;
    await place(page, { sequence: EXAMPLE, intervention: 'pattern', 'state-key': 'pr' });
    let change;
    const seen = [];
    for (let step = 0; step < 4; step++) {
      change = await choose(page, ['ArrowDown'], 'select[aria-label="pattern"]');
      seen.push(change.intervention.pattern);
      await assertNative(page, change);
    }
    // previous was the start; the first change above is next
    const first = await (async () => {
      await place(page, { sequence: EXAMPLE, intervention: 'pattern' });
      return page.run(() => document.querySelector('attn-cue-probe select[aria-label="pattern"]').value);
    })();
    assert.equal(first, 'previous');
    await place(page, { sequence: EXAMPLE, intervention: 'knock-out' });
    change = await choose(page, ['ArrowDown'], 'select[aria-label="what to change"]'); // knock-out -> pattern (previous)
    assert.equal(change.intervention.pattern, 'previous');
    await assertNative(page, change);
    assert.deepEqual(seen, ['next', 'self', 'uniform', 'first-cue']);
    // The hash keeps the choice: a new probe with the same state-key starts from it.
    await place(page, { sequence: EXAMPLE, intervention: 'pattern', 'state-key': 'pr' });
    await choose(page, ['ArrowDown', 'ArrowDown'], 'select[aria-label="pattern"]');
    // The hash is written at most four times a second, the last change always.
    await page.waitFor(() => /pr\.(.*&)?pat=self/.test(decodeURIComponent(location.hash)));
    await page.run(() => {
      const probe = document.createElement('attn-cue-probe');
      probe.setAttribute('state-key', 'pr');
      probe.setAttribute('intervention', 'pattern'); // the hash keeps what the reader changed: the pattern
      window.restored = probe;
      document.getElementById('stage').replaceChildren(probe);
    });
    await page.waitFor(() => window.restored.querySelector('table.probe-effects caption')?.textContent, undefined, {
      timeout: 30000,
    });
    assert.match(
      await page.run(() => window.restored.querySelector('table.probe-effects caption').textContent),
      /^Replaced the pattern of block 1, head 1 by itself/,
    );
    assert.deepEqual(await page.problems(), []);
  });

  test("a patch of block 1's output at one position equals the native command (restored fraction too)", async () => {
    const { page } = context;
    await place(page, { sequence: EXAMPLE, intervention: 'patch', head: '0', 'patch-positions': '3,4' });
    // Position 4 unchecked with the keyboard: only the CUE's position 3 is copied.
    const change = await choose(page, [' '], '.probe-positions input[value="4"]');
    assert.deepEqual(change.intervention.positions, [3]);
    assert.equal(change.intervention.head, 0);
    await assertNative(page, change);
    assert.match(
      (await table(page)).caption,
      /^Patched block 1's output at position 3 into your sequence with its answer moved/,
    );
    // A second sequence given: the answer after the CUE is 0 instead of 5.
    await page.run(() => {
      const input = document.querySelector('attn-cue-probe input[aria-label="sequence patched into"]');
      input.value = '3,1,CUE,0,0,6,2,2,4';
      window.before = window.changes.length;
      input.dispatchEvent(new Event('change'));
    });
    await page.waitFor(() => window.changes.length > window.before, undefined, { timeout: 30000 });
    const given = await page.run(() => window.changes.at(-1));
    assert.deepEqual(given.intervention.patchInto, [3, 1, CUE, 0, 0, 6, 2, 2, 4, CUE]);
    await assertNative(page, given);
    assert.deepEqual(await page.problems(), []);
  });

  test('a head the models do not have is named in place, and the widget works on', async () => {
    const { page } = context;
    await place(page, { sequence: EXAMPLE, intervention: 'knock-out' });
    let change = await choose(page, ['ArrowUp'], 'input[aria-label="head"]');
    assert.equal(change.intervention.head, 2);
    const { rows, said } = await table(page);
    for (const row of rows) {
      assert.equal(row.status, 'error');
      assert.match(row.texts[0], /^Error: head must be in 1\.\.heads = 1/);
    }
    assert.match(said, /error, head must be in 1\.\.heads = 1/);
    assert.equal(change.results[0].status, 'error');
    // The probe still answers, and head 1 again gives the native numbers.
    assert.match(
      await page.run(() => document.querySelector('attn-cue-probe .probe-status').textContent),
      /^The recorded run: /,
    );
    change = await choose(page, ['ArrowDown'], 'input[aria-label="head"]');
    await assertNative(page, change);
    assert.deepEqual(await page.problems(), []);
  });

  test(
    'screenshots of a patch at 1280 and 360 px, light and dark',
    { skip: engine !== 'chromium' && 'Chromium only' },
    async () => {
      await widgetScreenshots(context, 'cue-interventions', (page, theme) =>
        place(page, { intervention: 'patch', head: '0', 'patch-positions': '2' }, theme).then(() =>
          page.waitFor(() => document.querySelector('attn-cue-probe table.probe-effects')),
        ),
      );
      assert.deepEqual(await context.page.problems(), []);
    },
  );
});
