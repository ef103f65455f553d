// <attn-cue-probe> in each engine (tests/support/engines.mjs), on the widget page
// (tests/engines/widget-page/widgets.html, the build's files next to it, strict CSP):
//   - for the recorded run, both models' predictions, probabilities and every heat-map cell
//     equal the native command's probe of the same weights (`attention-lab probe --json`; the
//     weights are read bit for bit, so the attention is compared exactly);
//   - the keyboard: the slider moves the cue (the symbol it lands on takes the cue's old place),
//     a position's menu picks a symbol, and the 2-block model's prediction follows the cue to
//     the new answer; each edit's answer time (from the edit to both answers shown) is printed;
//   - with a trainer on the page, probes go to the trainer's Worker, and after a live run the
//     probe of "your run" equals the native probe of the same run trained natively;
//   - screenshots at 1280 and 360 px, light and dark (Chromium): build/screenshots/.
// Run after `npm run build`: node --test tests/engines/cue-probe.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { widgetPageSuites, widgetScreenshots } from './widget-page/suite.mjs';

const root = resolve(import.meta.dirname, '../..');
const CLI = resolve(root, 'build/cli/attention-lab');
const CUE = 7;
const LIVE_EPOCHS = 2;
/** The native command's example: the answer is the 5 after the cue. */
const EXAMPLE = '3,1,CUE,5,0,6,2,2,4';
let scratch;

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'attn-probe-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The native command's probe of `tokens` by the model of `blocks` blocks whose weights are in `file`. */
const nativeProbe = (file, blocks, tokens, extra = []) =>
  JSON.parse(
    execFileSync(
      CLI,
      ['probe', '--json', '--blocks', String(blocks), ...extra, '--weights', file, '--tokens', tokens.join(',')],
      { encoding: 'utf8' },
    ),
  );
const recordedWeights = (blocks) => resolve(root, `web/src/generated/cue-${blocks}block.weights.bin`);

/** Puts fresh widgets on the page (tag -> attributes), every attn-change of the probe recorded; resolves once the probe has answered (or said why not). */
async function place(page, widgets, theme) {
  await page.run(
    ({ widgets, theme }) => {
      history.replaceState(null, '', location.pathname);
      if (theme) document.documentElement.dataset.attnTheme = theme;
      window.changes = [];
      document.getElementById('stage').replaceChildren(
        ...Object.entries(widgets).map(([tag, attrs]) => {
          const widget = document.createElement(tag);
          for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
          return widget;
        }),
      );
      const probe = document.querySelector('attn-cue-probe');
      probe.addEventListener('attn-change', (event) => window.changes.push(event.detail));
      probe.scrollIntoView();
    },
    { widgets, theme },
  );
  await page.waitFor(() => document.querySelector('attn-cue-probe .probe-status')?.textContent, undefined, {
    timeout: 30000,
  });
}

/** What the probe shows per model: its prediction, its probabilities (as shown) and every heat map's cells. */
const shown = (page) =>
  page.run(() =>
    [...document.querySelectorAll('attn-cue-probe .probe-model')].map((model) => ({
      blocks: Number(model.dataset.blocks),
      prediction: Number(model.querySelector('[data-prediction]').dataset.prediction),
      probabilities: [...model.querySelectorAll('.probe-classes tbody tr td:first-of-type')].map(
        (td) => td.textContent,
      ),
      maps: [...model.querySelectorAll('table.probe-heat')].map((t) =>
        [...t.querySelectorAll('td[data-weight]')].map((td) => Number(td.dataset.weight)),
      ),
    })),
  );

/** Checks what the probe shows against the native probes of both models (weights files per blocks). */
function assertNative(models, tokens, files, extra = []) {
  assert.deepEqual(
    models.map((m) => m.blocks),
    [1, 2],
  );
  for (const model of models) {
    const native = nativeProbe(files[model.blocks], model.blocks, tokens, extra);
    assert.equal(model.prediction, native.prediction, `${model.blocks} blocks: prediction`);
    assert.deepEqual(
      model.probabilities,
      native.probabilities.map((p) => p.toFixed(4)),
      `${model.blocks} blocks: probabilities`,
    );
    assert.deepEqual(model.maps, native.attention.flat(), `${model.blocks} blocks: every block's and head's attention`);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

widgetPageSuites((context, engine) => {
  test("the recorded models' answers equal the native probe of the shipped weights", async () => {
    const { page } = context;
    await place(page, { 'attn-cue-probe': { sequence: EXAMPLE } });
    const files = { 1: recordedWeights(1), 2: recordedWeights(2) };
    assertNative(await shown(page), [3, 1, CUE, 5, 0, 6, 2, 2, 4, CUE], files);
    assert.equal(await page.run(() => document.querySelector('attn-cue-probe').dataset.answeredBy), 'own-worker');
    // Without a sequence: the CUE at position 2, symbol (3p + 1) mod 7 elsewhere (the task's 10 tokens, 7 symbols).
    await place(page, { 'attn-cue-probe': {} });
    const body = Array.from({ length: 9 }, (_, p) => (p === 2 ? CUE : (3 * p + 1) % 7));
    assertNative(await shown(page), [...body, CUE], files);
    assert.deepEqual(await page.problems(), []);
  });

  test('the keyboard moves the cue and picks symbols; the 2-block prediction follows the cue; answer times printed', async (t) => {
    const { page } = context;
    await place(page, { 'attn-cue-probe': { sequence: EXAMPLE } });
    const files = { 1: recordedWeights(1), 2: recordedWeights(2) };
    const before = (await shown(page))[1].prediction;
    assert.equal(before, 5, 'the recorded 2-block model reads the 5 after the cue');
    // The cue moves right onto the 5, which takes the cue's old place: the answer is now 0.
    await page.press(['ArrowRight'], 'attn-cue-probe input[type=range]');
    await page.waitFor(() => window.changes.length === 1);
    let change = await page.run(() => window.changes[0]);
    assert.deepEqual(change.tokens, [3, 1, 5, CUE, 0, 6, 2, 2, 4, CUE]);
    assert.equal(
      await page.run(() => document.querySelector('attn-cue-probe input[type=range]').getAttribute('aria-valuetext')),
      'CUE at position 3, answer 0',
    );
    const models = await shown(page);
    assertNative(models, change.tokens, files);
    assert.equal(models[1].prediction, 0, 'the 2-block model follows the cue to the new answer');
    assert.deepEqual(
      change.predictions,
      models.map((m) => m.prediction),
    );
    // A symbol picked from a position's menu with the keyboard: position 4 (the answer) 0 -> 1.
    await page.press(['ArrowDown'], 'attn-cue-probe select[aria-label="symbol at position 4"]');
    await page.waitFor(() => window.changes.length === 2);
    change = await page.run(() => window.changes[1]);
    assert.deepEqual(change.tokens, [3, 1, 5, CUE, 1, 6, 2, 2, 4, CUE]);
    assertNative(await shown(page), change.tokens, files);
    // Answer times: the cue moved back and forth, each edit waited for; the replies' share of it too.
    const replies = [],
      forward = [];
    for (let edit = 0; edit < 12; edit++) {
      await page.press([edit % 2 ? 'ArrowRight' : 'ArrowLeft'], 'attn-cue-probe input[type=range]');
      await page.waitFor((n) => window.changes.length === n, edit + 3);
      const probe = await page.run(() => ({ ...document.querySelector('attn-cue-probe').dataset }));
      replies.push(Number(probe.answerMs));
      forward.push(...probe.forwardMs.split(' ').map(Number));
    }
    const times = await page.run(() => window.changes.slice(2).map((c) => c.latencyMs));
    t.diagnostic(
      `${engine}: probe answer times from the edit to both answers shown (ms): median ${median(times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}; all: ${times.map((x) => x.toFixed(1)).join(' ')} (shared machine: noisy)`,
    );
    console.log(
      `# ${engine} probe latency (ms), edit to both answers shown: median ${median(times).toFixed(1)}, max ${Math.max(...times).toFixed(1)} over ${times.length} edits; edit to both Worker replies in: median ${median(replies).toFixed(1)}, max ${Math.max(...replies).toFixed(1)}; one forward pass in the Worker: median ${median(forward).toFixed(2)}`,
    );
    assert.deepEqual(await page.problems(), []);
  });

  test('beside a trainer, the probe asks the trainer\'s Worker; "your run" is the live run, equal to the native run', async () => {
    const { page } = context;
    await place(page, {
      'attn-cue-trainer': { epochs: String(LIVE_EPOCHS) },
      'attn-cue-probe': { source: 'live', sequence: EXAMPLE },
    });
    // Before any live run, the probe says what to do.
    await page
      .waitFor(
        () => /No run of yours yet/.test(document.querySelector('attn-cue-probe .probe-status').textContent),
        undefined,
        { timeout: 30000 },
      )
      .catch(async () =>
        assert.fail(await page.run(() => document.querySelector('attn-cue-probe .probe-status').textContent)),
      );
    await page.run(() => {
      window.finished = 0;
      document.querySelector('attn-cue-trainer').addEventListener('attn-train-finished', () => (window.finished += 1));
    });
    await page.waitFor(() => document.querySelector('attn-cue-trainer[data-ready]') !== null, undefined, {
      timeout: 30000,
    });
    await page.click('attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child');
    await page.waitFor(() => window.finished === 2, undefined, { timeout: 120000 });
    // Ask again: move the cue.
    await page.press(['ArrowRight'], 'attn-cue-probe input[type=range]');
    await page.waitFor(() => window.changes.length >= 1, undefined, { timeout: 30000 });
    assert.equal(await page.run(() => document.querySelector('attn-cue-probe').dataset.answeredBy), 'trainer');
    const change = await page.run(() => window.changes.at(-1));
    const files = {};
    for (const blocks of [1, 2]) {
      files[blocks] = join(scratch, `live-${blocks}.bin`);
      execFileSync(
        CLI,
        ['cue', '--blocks', String(blocks), '--epochs', String(LIVE_EPOCHS), '--save-weights', files[blocks]],
        { stdio: 'ignore' },
      );
    }
    assertNative(await shown(page), change.tokens, files, ['--epochs', String(LIVE_EPOCHS)]);
    assert.deepEqual(await page.problems(), []);
  });

  test(
    'screenshots at 1280 and 360 px, light and dark',
    { skip: engine !== 'chromium' && 'Chromium only' },
    async () => {
      await widgetScreenshots(context, 'cue-probe', (page, theme) => place(page, { 'attn-cue-probe': {} }, theme));
      assert.deepEqual(await context.page.problems(), []);
    },
  );
});
