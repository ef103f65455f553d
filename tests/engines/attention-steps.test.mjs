// <attn-attention-steps> in each engine (tests/support/engines.mjs), on the widget page
// (tests/engines/widget-page/widgets.html, the build's files next to it, strict CSP):
//   - every cell of every matrix holds the core's number: exactly the WebAssembly core's in node
//     (core.attentionSteps), and the native command's (`attention-lab steps --json`): the drawn
//     Q, K, V exactly, the products within float32 rounding (Eigen sums in another order
//     natively, as tests/wasm/steps.test.mjs says); with and without the causal mask;
//   - a focused cell marks the cells it came from, and its sum is written out with those numbers;
//   - the keyboard: arrow keys between cells, Enter edits a cell of Q, K or V, and the new steps
//     equal the core's for the edited cells (the WebAssembly core in node), with attn-change; the
//     settings (Space on "causal mask");
//   - a value out of range is refused with a message naming the cell;
//   - screenshots at 1280 and 360 px, light and dark (Chromium): build/screenshots/.
// Run after `npm run build`: node --test tests/engines/attention-steps.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { widgetPageSuites, widgetScreenshots } from './widget-page/suite.mjs';
import { loadCore } from '../../build-wasm/facade/core/index.js';

const root = resolve(import.meta.dirname, '../..');
const MATRICES = ['query', 'key', 'value', 'scores', 'scaled', 'masked', 'weights', 'output'];
const ATTRS = { tokens: '5', dk: '3', dv: '2', causal: 'true', seed: '7' };
const CLI_ARGS = ['--tokens', '5', '--dk', '3', '--dv', '2', '--causal', '--seed', '7'];
const core = await loadCore({
  wasmBinary: readFileSync(resolve(root, 'build-wasm/facade/generated/attention_lab.wasm')),
});

/** The native command's steps for `args`: every matrix as a flat list. */
const nativeSteps = (args) =>
  JSON.parse(
    execFileSync(resolve(root, 'build/cli/attention-lab'), ['steps', '--json', ...args], { encoding: 'utf8' }),
  );

/** Puts a fresh widget with `attrs` on the page, every attn-change recorded; resolves once it is ready. */
async function place(page, attrs, theme) {
  await page.run(
    ({ attrs, theme }) => {
      history.replaceState(null, '', location.pathname);
      if (theme) document.documentElement.dataset.attnTheme = theme;
      window.changes = [];
      const widget = document.createElement('attn-attention-steps');
      for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
      widget.addEventListener('attn-change', (event) => window.changes.push(event.detail));
      document.getElementById('stage').replaceChildren(widget);
    },
    { attrs, theme },
  );
  await page.waitFor(() => document.querySelector('attn-attention-steps[data-ready]') !== null);
}

/** Every shown matrix, in page order: id -> its cells' values (data-value, the core's number in full), row by row. */
const shownMatrices = async (page) =>
  Object.fromEntries(
    await page.run(() =>
      [...document.querySelectorAll('attn-attention-steps table[data-matrix]')].map((t) => [
        t.dataset.matrix,
        [...t.querySelectorAll('td[data-row]')].map((td) => Number(td.dataset.value)),
      ]),
    ),
  );

/** Which cells are marked: { self: ['scores 1 1'], source: [...] }, and the written-out sum. */
const marks = (page) =>
  page.run(() => {
    const of = (kind) =>
      [...document.querySelectorAll(`attn-attention-steps td[data-mark="${kind}"]`)]
        .map((td) => `${td.closest('table').dataset.matrix} ${td.dataset.row} ${td.dataset.col}`)
        .sort();
    return {
      self: of('self'),
      source: of('source'),
      explain: document.querySelector('attn-attention-steps .steps-explain').textContent,
    };
  });

const fmt = (v, digits) => v.toFixed(digits).replace('-', '−');
const factor = (v, digits = 2) => (v < 0 ? `(${fmt(v, digits)})` : fmt(v, digits));

widgetPageSuites((context, engine) => {
  test("every matrix holds the core's numbers, with and without the causal mask", async () => {
    const { page } = context;
    await place(page, ATTRS);
    for (const causal of [true, false]) {
      const shown = await shownMatrices(page);
      const mine = core.attentionSteps({ tokens: 5, dK: 3, dV: 2, causal, seed: 7 });
      const native = nativeSteps(CLI_ARGS.filter((a) => causal || a !== '--causal'));
      // Without the mask, its matrix is not shown and the softmax reads the scaled scores.
      const ids = MATRICES.filter((id) => causal || id !== 'masked');
      assert.deepEqual(Object.keys(shown), ids);
      for (const id of ids) {
        assert.deepEqual(shown[id], Array.from(mine[id].data), `${id} (causal ${causal}): the WebAssembly core's`);
        if (['query', 'key', 'value'].includes(id)) assert.deepEqual(shown[id], native[id], `${id}: the native draw`);
        else
          shown[id].forEach((v, i) =>
            assert.ok(
              Math.abs(v - native[id][i]) <= 1e-6 * Math.max(1, Math.abs(v)),
              `${id}[${i}]: ${v} vs native ${native[id][i]}`,
            ),
          );
      }
      await page.run(() => document.querySelector('attn-attention-steps').setAttribute('causal', 'false'));
      await page.waitFor(() => !document.querySelector('attn-attention-steps table[data-matrix="masked"]'));
    }
    assert.deepEqual(await page.problems(), []);
  });

  test("a focused cell marks where it came from and writes out its sum with the core's numbers", async () => {
    const { page } = context;
    await place(page, ATTRS);
    const steps = core.attentionSteps({ tokens: 5, dK: 3, dV: 2, causal: true, seed: 7 });
    const s = Object.fromEntries(MATRICES.map((id) => [id, Array.from(steps[id].data)]));
    const at = (m, cols, i, j) => s[m][i * cols + j];
    // Q Kᵀ [1, 2]: from row 1 of Q and row 2 of K, the dot product as its terms.
    await page.press(
      ['ArrowDown', 'ArrowRight', 'ArrowRight'],
      'attn-attention-steps table[data-matrix="scores"] td[tabindex="0"]',
    );
    let m = await marks(page);
    assert.deepEqual(m.self, ['scores 1 2']);
    assert.deepEqual(m.source, ['key 2 0', 'key 2 1', 'key 2 2', 'query 1 0', 'query 1 1', 'query 1 2']);
    const terms = [0, 1, 2].map((c) => `${factor(at('query', 3, 1, c))} × ${factor(at('key', 3, 2, c))}`).join(' + ');
    assert.equal(m.explain, `Q Kᵀ [1, 2]: q1 · k2 = ${terms} = ${fmt(at('scores', 5, 1, 2), 4)}`);
    // The weights [3, 1]: the softmax of row 3 of the masked scores.
    await page.press(
      ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight'],
      'attn-attention-steps table[data-matrix="weights"] td[tabindex="0"]',
    );
    m = await marks(page);
    assert.deepEqual(m.self, ['weights 3 1']);
    assert.deepEqual(
      m.source,
      [0, 1, 2, 3, 4].map((k) => `masked 3 ${k}`),
    );
    const exps = [0, 1, 2, 3, 4].map((k) => {
      const v = at('masked', 5, 3, k);
      return `exp(${Math.abs(v) >= 1e6 ? '−1e9' : fmt(v, 4)})`;
    });
    assert.equal(m.explain, `softmax [3, 1]: ${exps[1]} / (${exps.join(' + ')}) = ${fmt(at('weights', 5, 3, 1), 4)}`);
    assert.match(m.explain, /exp\(−1e9\)/, 'the blocked keys after query 3 enter as −1e9');
    // The output [2, 1]: row 2 of the weights times column 1 of V.
    await page.press(
      ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight'],
      'attn-attention-steps table[data-matrix="output"] td[tabindex="0"]',
    );
    m = await marks(page);
    assert.deepEqual(m.self, ['output 2 1']);
    assert.deepEqual(
      m.source,
      [...[0, 1, 2, 3, 4].map((k) => `value ${k} 1`), ...[0, 1, 2, 3, 4].map((k) => `weights 2 ${k}`)].sort(),
    );
    const sum = [0, 1, 2, 3, 4]
      .map((k) => `${fmt(at('weights', 5, 2, k), 4)} × ${factor(at('value', 2, k, 1))}`)
      .join(' + ');
    assert.equal(m.explain, `× V [2, 1]: ${sum} = ${fmt(at('output', 2, 2, 1), 4)}`);
    // A blocked cell of the mask says so.
    await page.press(['ArrowRight'], 'attn-attention-steps table[data-matrix="masked"] td[tabindex="0"]');
    assert.match(
      (await marks(page)).explain,
      /^causal mask \[0, 1\]: key 1 comes after query 0: blocked, its score set to −1e9/,
    );
    // The pointer does the same as focus.
    await page.run(() =>
      document
        .querySelector('attn-attention-steps table[data-matrix="scaled"] td[data-row="2"][data-col="0"]')
        .dispatchEvent(new PointerEvent('pointerover', { bubbles: true })),
    );
    m = await marks(page);
    assert.deepEqual([m.self, m.source], [['scaled 2 0'], ['scores 2 0']]);
    assert.deepEqual(await page.problems(), []);
  });

  test("Enter edits a cell of K; the steps are the core's for the edited cells, and attn-change tells", async () => {
    const { page } = context;
    await place(page, ATTRS);
    await page.press(['ArrowRight', 'Enter'], 'attn-attention-steps table[data-matrix="key"] td[tabindex="0"]');
    await page.waitFor(() => document.activeElement?.matches('attn-attention-steps td input'));
    await page.press(['2', '.', '5', 'Enter']);
    await page.waitFor(() => window.changes.length === 1);
    const shown = await shownMatrices(page);
    const native = nativeSteps(CLI_ARGS);
    const key = Float32Array.from(native.key);
    key[1] = 2.5;
    const mat = (data, cols) => ({ rows: 5, cols, data: Float32Array.from(data) });
    const expected = core.attentionSteps(
      { causal: true },
      { query: mat(native.query, 3), key: mat(key, 3), value: mat(native.value, 2) },
    );
    for (const id of MATRICES) assert.deepEqual(shown[id], Array.from(expected[id].data), id);
    assert.notDeepEqual(shown.weights, native.weights, 'the edit changed the weights');
    const detail = await page.run(() => window.changes[0]);
    assert.deepEqual(detail, {
      causal: true,
      scale: true,
      weights: Array.from(expected.weights.data),
      output: Array.from(expected.output.data),
    });
    // Focus is back on the edited cell, which the arrow keys leave as before.
    assert.equal(
      await page.run(
        () => document.activeElement.closest('table').dataset.matrix + ' ' + document.activeElement.dataset.col,
      ),
      'key 1',
    );
    // Out of range: refused, named, and Escape keeps the value.
    await page.press(['Enter', '9', '9', 'Enter']);
    const error = await page.waitFor(() => document.querySelector('attn-attention-steps .attn-error').textContent);
    assert.equal(error, 'K row 0, column 1 must be a number from −10 to 10, got "99".');
    await page.press(['Escape']);
    assert.deepEqual((await shownMatrices(page)).key, Array.from(expected.key.data));
    assert.equal(await page.run(() => window.changes.length), 1);
    assert.deepEqual(await page.problems(), []);
  });

  test('the settings answer the keyboard too: Space on "causal mask" masks the scores, and attn-change tells', async () => {
    const { page } = context;
    await place(page, { tokens: '4', causal: 'false' });
    await page.press([' '], 'attn-attention-steps input[name=causal]');
    await page.waitFor(() => window.changes.length === 1);
    const expected = core.attentionSteps({ tokens: 4, causal: true });
    assert.deepEqual(await page.run(() => window.changes[0]), {
      causal: true,
      scale: true,
      weights: Array.from(expected.weights.data),
      output: Array.from(expected.output.data),
    });
    assert.deepEqual((await shownMatrices(page)).masked, Array.from(expected.masked.data));
    assert.deepEqual(await page.problems(), []);
  });

  test(
    'screenshots at 1280 and 360 px, light and dark',
    { skip: engine !== 'chromium' && 'Chromium only' },
    async () => {
      await widgetScreenshots(context, 'attention-steps', async (page, theme) => {
        await place(page, { causal: 'true', tokens: '6', dk: '4' }, theme);
        await page.press(
          ['ArrowDown', 'ArrowRight'],
          'attn-attention-steps table[data-matrix="weights"] td[tabindex="0"]',
        );
      });
      assert.deepEqual(await context.page.problems(), []);
    },
  );
});
