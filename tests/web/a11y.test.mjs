// Accessibility in Debian's Chromium: axe-core (npm) over the lesson with every widget started
// and over embed.html framing each widget, a keyboard walk through one widget of each kind
// with controls, and the soft-lookup sketch's text readout of its weights.
//
// The site is served without its CSP here: axe is injected as a script, which the CSP would
// (rightly) refuse. tests/web/csp.test.mjs covers the CSP. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { closeSite, openSite, startLesson } from '../support/chromium.mjs';
import { loadCore } from '../../build-wasm/facade/core/index.js';

const root = resolve(import.meta.dirname, '../..');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDGETS = [
  'attn-soft-lookup',
  'attn-attention-steps',
  'attn-ranked-table',
  'attn-scale-figure',
  'attn-mask-figure',
  'attn-heads-figure',
  'attn-pitfall-demo',
  'attn-flowchart',
  'attn-quiz',
  'attn-exercises',
  'attn-cue-trainer',
  'attn-cue-probe',
];
const BLOCKING = ['serious', 'critical'];
const button = (name) => `::-p-aria([name="${name}"][role="button"])`;
let server, browser, core;

before(async () => {
  ({ server, browser } = await openSite({ csp: false }));
  core = await loadCore({ wasmBinary: readFileSync(resolve(root, 'build-wasm/facade/generated/attention_lab.wasm')) });
});
after(() => closeSite({ server, browser }));

/** axe's violations on the page: [{id, impact, help, nodes: [{target, widget}]}]. */
async function audit(page) {
  await page.addScript(axePath);
  return page.run(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => {
        const node = document.querySelector(n.target[0]);
        return { target: n.target.join(' '), widget: node?.closest('[data-ready]')?.localName ?? 'page' };
      }),
    }));
  });
}

/** "serious 0, critical 0, moderate 2 (heading-order), minor 0" */
function summary(violations) {
  return ['critical', 'serious', 'moderate', 'minor']
    .map((impact) => {
      const hits = violations.filter((v) => v.impact === impact);
      const count = hits.reduce((n, v) => n + v.nodes.length, 0);
      return `${impact} ${count}${hits.length ? ` (${hits.map((v) => v.id).join(', ')})` : ''}`;
    })
    .join(', ');
}

function blocking(violations) {
  return violations
    .filter((v) => BLOCKING.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target).join('; ')}`);
}

async function openLesson() {
  const page = await startLesson(browser, server.url, { width: 1280, height: 900 });
  return { page, errors: page.engineProblems };
}

async function openFramed(tag) {
  const page = await browser.open(server.url + `embed.html?widget=${tag}`, { width: 1000, height: 900 });
  await page.locate(`${tag}[data-ready]`).waitFor({ timeout: 20000 });
  return { page, errors: page.engineProblems };
}

test('axe: the lesson with every widget started, and after answering, has no serious or critical violation', async (t) => {
  const { page, errors } = await openLesson();
  const started = await audit(page);
  t.diagnostic(`lesson (all widgets started): ${summary(started)}`);
  for (const tag of WIDGETS) {
    const mine = started
      .map((v) => ({ ...v, nodes: v.nodes.filter((n) => n.widget === tag) }))
      .filter((v) => v.nodes.length);
    t.diagnostic(`  on the lesson, ${tag}: ${summary(mine)}`);
  }
  // States that only exist after use: quiz feedback, exercise results, an invalid input.
  const quiz = page.locate('attn-quiz');
  await quiz.locate('input[type=radio]').first().check();
  await quiz.locate(button('Check')).first().click();
  await quiz.locate(button('Show solution')).nth(1).click();
  const exercises = page.locate('attn-exercises');
  for (const check of await exercises.locate(button('Check')).all()) await check.click();
  await page.locate('attn-mask-figure input').first().fill('99');
  await page.locate('attn-mask-figure input').first().press('Tab');
  await page.locate('details').evaluateAll((list) => list.forEach((d) => (d.open = true)));
  const used = await audit(page);
  t.diagnostic(`lesson (after answering, a refused input, weight tables open): ${summary(used)}`);
  assert.deepEqual(blocking(started), []);
  assert.deepEqual(blocking(used), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe: the embedding guide and each widget framed alone have no serious or critical violation', async (t) => {
  const guide = await browser.open(server.url + 'embed.html', { width: 1280, height: 720 });
  // The configurator (its preview started) comes first; the example quiz starts once scrolled to.
  await guide.locate('.configurator-preview > [data-ready]').waitFor();
  await guide.locate('#example-quiz attn-quiz').scrollIntoView();
  await guide.locate('#example-quiz attn-quiz[data-ready]').waitFor();
  const guideViolations = await audit(guide);
  t.diagnostic(`embed.html (guide): ${summary(guideViolations)}`);
  assert.deepEqual(blocking(guideViolations), []);
  await guide.close();
  const failures = {};
  for (const tag of WIDGETS) {
    const { page, errors } = await openFramed(tag);
    const violations = await audit(page);
    t.diagnostic(`embed.html?widget=${tag}: ${summary(violations)}`);
    if (blocking(violations).length) failures[tag] = blocking(violations);
    assert.deepEqual(errors, [], tag);
    await page.close();
  }
  assert.deepEqual(failures, {});
});

test('axe: a course page embedding two of every widget has no serious or critical violation (ids stay unique)', async (t) => {
  const page = await browser.open(server.url + 'embed.html', { width: 1000, height: 900 });
  const errors = page.engineProblems;
  await page.run((tags) => {
    const host = document.createElement('section');
    host.setAttribute('aria-label', 'two of each');
    // The quiz and the exercises show an author's data only: a question of text, the schema's example tasks.
    const question = {
      id: 'rows',
      prompt: 'What does each row of attention weights add up to?',
      options: [
        { text: 'The number of keys', correct: false, feedback: 'The softmax normalises each row.' },
        { text: 'Exactly 1', correct: true, feedback: 'Each row is a distribution over the keys.' },
      ],
    };
    for (const tag of tags)
      for (let copy = 0; copy < 2; copy++) {
        const widget = host.appendChild(document.createElement(tag));
        if (tag === 'attn-exercises') widget.setAttribute('src', 'schemas/examples/exercises.example.json');
        if (tag !== 'attn-quiz') continue;
        const data = widget.appendChild(document.createElement('script'));
        data.type = 'application/json';
        data.textContent = JSON.stringify({ questions: [question] });
      }
    document.getElementById('guide').prepend(host);
    // Each kind is defined from its own chunk once it is on the page: scroll once all are, as a
    // reader would, so that each widget sees itself come into view.
    return Promise.all(tags.map((tag) => customElements.whenDefined(tag)));
  }, WIDGETS);
  for (let y = 0; y < 60; y++) {
    await page.wheel(800);
    await new Promise((ok) => setTimeout(ok, 30));
  }
  await page.waitFor(
    (n) => document.querySelectorAll('section[aria-label="two of each"] > [data-ready]').length === n,
    2 * WIDGETS.length,
    { timeout: 30000 },
  );
  const violations = await audit(page);
  t.diagnostic(`two of each widget on one page: ${summary(violations)}`);
  assert.deepEqual(blocking(violations), []);
  // A label or description pointing at an id that two widgets use names the wrong control.
  const duplicates = await page.locate('[id]').evaluateAll((nodes) => {
    const seen = new Map();
    for (const n of nodes) seen.set(n.id, (seen.get(n.id) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  });
  assert.deepEqual(duplicates, [], 'every id is unique');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Presses Tab from the top of a framed widget until focus leaves it; returns what was focused,
 * in order, and the controls that should be reachable (document order, one per radio group).
 */
async function tabWalk(page, tag) {
  await page.run((name) => {
    const widget = document.querySelector(name);
    const selector =
      'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]';
    const groups = new Set();
    let i = 0;
    for (const node of widget.querySelectorAll(selector)) {
      if (node.tabIndex < 0 || !node.checkVisibility()) continue; // false inside a closed <details>
      if (node.type === 'radio') {
        if (groups.has(node.name)) continue;
        groups.add(node.name);
      }
      node.dataset.walk = String(i++);
    }
    document.activeElement?.blur();
  }, tag);
  const expected = await page
    .locate(`${tag} [data-walk]`)
    .evaluateAll((nodes) => nodes.map((n) => Number(n.dataset.walk)));
  const positive = await page
    .locate(`${tag} [tabindex]`)
    .evaluateAll((nodes) => nodes.filter((n) => n.tabIndex > 0).length);
  const seen = [];
  for (let i = 0; i < expected.length + 5; i++) {
    await page.press('Tab');
    const at = await page.run((name) => {
      const a = document.activeElement;
      if (!a || !document.querySelector(name).contains(a)) return null;
      const box = a.getBoundingClientRect();
      const label = a.getAttribute('aria-label') ?? a.closest('label')?.textContent ?? a.textContent;
      return {
        walk: a.dataset.walk === undefined ? -1 : Number(a.dataset.walk),
        tag: a.localName,
        label: label.trim().slice(0, 40),
        top: box.top + scrollY,
        left: box.left,
      };
    }, tag);
    if (at === null) {
      if (seen.length) break; // left the widget after visiting it
      continue;
    }
    seen.push(at);
  }
  return { seen, expected, positive };
}

test('keyboard: every control of each kind of widget is reached by Tab, once, in reading order, and works', async (t) => {
  const checks = {
    'attn-soft-lookup': async (page) => {
      const sketch = page.locate('attn-soft-lookup');
      const pause = sketch.locate(`${button('Pause')}, ${button('Play')}`);
      const before = await pause.text();
      await pause.focus();
      await page.press('Enter');
      assert.notEqual(await pause.text(), before, 'Enter on Pause/Play toggles it');
      const box = sketch.locate('::-p-aria([role="checkbox"])');
      const checked = await box.checked();
      await box.focus();
      await page.press('Space');
      assert.equal(await box.checked(), !checked, 'Space toggles the scale');
      const select = sketch.locate('select');
      const value = await select.value();
      await select.focus();
      await page.press('ArrowDown');
      assert.notEqual(await select.value(), value, 'arrow keys pick a temperature');
    },
    'attn-ranked-table': async (page) => {
      const header = page.locate('attn-ranked-table th').nth(2);
      await header.locate('button').focus();
      await page.press('Enter');
      assert.equal(await header.attribute('aria-sort'), 'ascending');
      await page.press('Space'); // focus stays on the header after the re-render
      assert.equal(await header.attribute('aria-sort'), 'descending');
    },
    'attn-scale-figure': async (page) => {
      const csv = page.locate('attn-scale-figure').locate(button('Download CSV'));
      await csv.focus();
      const download = await page.download(() => page.press('Enter'));
      assert.equal(download.suggestedFilename, 'scale-sweep.csv');
    },
    'attn-mask-figure': async (page) => {
      const positions = page.locate('attn-mask-figure input').first();
      await positions.focus();
      await page.press('Control+A');
      await page.type('6');
      await page.press('Tab');
      await page.waitFor(() =>
        /of 6 queries/.test(document.querySelector('attn-mask-figure svg[role=img]').getAttribute('aria-label')),
      );
      // The causal panel's weights as text, opened with the keyboard.
      await page.locate('attn-mask-figure summary').first().focus();
      await page.press('Space');
      const cells = await page.locate('attn-mask-figure details').first().locate('tbody td').texts();
      const causal = core.maskDemo({ positions: 6, real: 6, seed: 0 }).cases.find((c) => c.name === 'causal');
      assert.deepEqual(
        cells,
        Array.from(causal.weights, (w, i) => (causal.allowed[i] ? w.toFixed(3) : 'blocked')),
      );
    },
    'attn-heads-figure': async (page) => {
      // Each head's weights, as text: the folded table opens from the keyboard and holds the core's numbers.
      const summary = page.locate('attn-heads-figure summary').nth(1);
      await summary.focus();
      await page.press('Enter');
      const cells = await page.locate('attn-heads-figure details').nth(1).locate('tbody td').texts();
      const demo = core.headsDemo({ dModel: 64, numHeads: 4, tokens: 8, seed: 0 });
      assert.deepEqual(
        cells,
        Array.from(demo.multi.weights[1], (w) => w.toFixed(3)),
        "head 2's weights",
      );
    },
    'attn-quiz': async (page) => {
      const quiz = page.locate('attn-quiz');
      await quiz.locate('input[type=radio]').first().focus();
      await page.press('ArrowDown');
      assert.equal(await quiz.locate('input[type=radio]').nth(1).checked(), true, 'arrow keys choose an option');
      await page.press('Tab');
      assert.equal(
        await page.run(() => document.activeElement.textContent),
        'Check',
        'Tab leaves the group for its Check button',
      );
      await page.press('Enter');
      assert.match(await quiz.locate('.feedback').first().text(), /^(Correct|Not quite)\./);
    },
    'attn-exercises': async (page) => {
      // The mask grid is one Tab stop; arrow keys move inside it, Space switches a cell.
      const cells = page.locate('attn-exercises .mask-builder button');
      await cells.first().focus();
      await page.press('ArrowRight');
      await page.press('ArrowDown');
      await page.press('Space');
      assert.equal(await cells.nth(7).attribute('aria-pressed'), 'true', 'query 2, key 2 switched on');
      await page.press('End');
      await page.press('ArrowDown');
      await page.press('Enter');
      assert.equal(await cells.nth(17).attribute('aria-pressed'), 'true', 'query 3, key 6 switched on');
      assert.equal(
        await cells.evaluateAll((list) => list.filter((b) => b.tabIndex === 0).length),
        1,
        'still one Tab stop',
      );
      await page.press('Tab');
      assert.equal(
        await page.run(() => document.activeElement.textContent),
        'Check',
        'Tab leaves the grid for its Check button',
      );
      const guess = page.locate('attn-exercises [data-exercise] input').first();
      await guess.focus();
      await page.type('0.5');
      const check = page.locate('attn-exercises [data-exercise]').first().locate(button('Check'));
      await check.focus();
      await page.press('Enter');
      // Checked: right (the measurement) or a hint (which side of it), whichever 0.5 is at the first width.
      assert.match(
        await page.locate('attn-exercises .result').first().text(),
        /^(Correct\. The core measured|Not yet\. Your guess is too (high|low))/,
      );
    },
    'attn-attention-steps': async (page) => {
      // Each matrix is one Tab stop; arrow keys move inside it, and the focused cell explains itself.
      const steps = page.locate('attn-attention-steps');
      await steps.locate('table[data-matrix="scores"] td[tabindex="0"]').focus();
      await page.press('ArrowDown');
      await page.press('ArrowRight');
      assert.match(await steps.locate('.steps-explain').text(), /^Q Kᵀ \[1, 1\]: q1 · k1 = /);
      assert.equal(await steps.locate('table[data-matrix="scores"] td[tabindex="0"]').count(), 1, 'still one Tab stop');
      // Enter edits a cell of Q; the weights are the core's for the new cells.
      await steps.locate('table[data-matrix="query"] td[tabindex="0"]').focus();
      await page.press('Enter');
      await page.type('1');
      await page.press('Enter');
      const drawn = core.attentionSteps({});
      const query = Float32Array.from(drawn.query.data);
      query[0] = 1;
      const expected = core.attentionSteps(
        {},
        { query: { ...drawn.query, data: query }, key: drawn.key, value: drawn.value },
      );
      const weights = await steps
        .locate('table[data-matrix="weights"] td[data-row]')
        .evaluateAll((cells) => cells.map((td) => Number(td.dataset.value)));
      assert.deepEqual(weights, Array.from(expected.weights.data));
    },
    'attn-cue-probe': async (page) => {
      // The default sequence is 1,4,CUE,3,6,2,5,1,4: the slider moves the cue onto the 3, whose old
      // place it takes, and the recorded 2-block model now answers 6, the symbol after the cue.
      const probe = page.locate('attn-cue-probe');
      await probe.locate('::-p-aria(cue position)').focus();
      await page.press('ArrowRight');
      await page.waitFor(
        () => document.querySelector('attn-cue-probe [data-blocks="2"] [data-prediction]').dataset.prediction === '6',
      );
      // Each heat map is a table: its row and column headers name the tokens, its cells hold the weights as text.
      const map = probe.locate('table.probe-heat').last();
      assert.deepEqual(await map.locate('thead th').texts(), ['1', '4', '3', 'CUE', '6', '2', '5', '1', '4', 'CUE']);
      assert.equal(await map.locate('tbody tr').last().locate('th').text(), 'query CUE');
      assert.equal(await map.locate('tbody td').count(), 100);
      assert.match(await map.locate('tbody td').first().text(), /^\d\.\d{3}$/);
    },
    'attn-cue-trainer': async (page) => {
      const trainer = page.locate('attn-cue-trainer');
      await trainer.locate('::-p-aria(epochs)').focus();
      await page.press('Control+A');
      await page.type('0');
      await trainer.locate(button('Train both')).focus();
      await page.press('Enter');
      assert.match(await trainer.locate('#cue-epochs-error').text(), /Epochs must be/);
    },
  };
  for (const [tag, operate] of Object.entries(checks)) {
    const { page, errors } = await openFramed(tag);
    const { seen, expected, positive } = await tabWalk(page, tag);
    t.diagnostic(
      `${tag}: ${seen.length} stops: ${seen.map((s) => `${s.tag}${s.label ? ` "${s.label}"` : ''}`).join(' → ')}`,
    );
    assert.equal(positive, 0, `${tag}: no positive tabindex`);
    assert.ok(expected.length > 0, `${tag} has controls`);
    assert.deepEqual(
      seen.map((s) => s.walk),
      expected,
      `${tag}: each control once, in document order`,
    );
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      const sameLine = Math.abs(b.top - a.top) < 12;
      assert.ok(
        b.top > a.top || (sameLine && b.left > a.left),
        `${tag}: stop ${i} "${b.label}" (${b.left}, ${b.top}) comes after "${a.label}" (${a.left}, ${a.top}) in reading order`,
      );
    }
    await operate(page);
    assert.deepEqual(errors, [], tag);
    await page.close();
  }
});

/** The readout's weights, parsed from its text. */
const readWeights = (text) => [...text.matchAll(/key (\d+): (-?\d+\.\d+)/g)].map((m) => Number(m[2]));

test('the soft-lookup sketch tells screen readers its current query, weights and output', async () => {
  const { page, errors } = await openFramed('attn-soft-lookup');
  const sketch = page.locate('attn-soft-lookup');
  const readout = sketch.locate('.visually-hidden[aria-live]');
  const keys = { rows: 5, cols: 2, data: Float32Array.from([2, 0.4, 0.9, 2, -1.8, 1.1, -1.2, -1.9, 1.3, -1.7]) };
  const values = { rows: 5, cols: 2, data: Float32Array.from([1.6, 1.6, -0.4, 2.4, -2.3, -0.2, 0.2, -2.4, 2.4, -0.6]) };
  const expectText = (query, scale = true) => {
    const r = core.attention({ rows: 1, cols: 2, data: Float32Array.from(query) }, keys, values, { scale });
    return {
      weights: Array.from(r.weights.data, (w) => Number(w.toFixed(2))),
      output: Array.from(r.output.data, (v) => v.toFixed(2)),
    };
  };
  const check = async (what, scale = true) => {
    const text = await readout.text();
    const detail = await page.run(() => window.lastLookup);
    const query = text
      .match(/Query at \((-?[\d.]+), (-?[\d.]+)\)/)
      .slice(1)
      .map(Number);
    assert.ok(
      Math.abs(query[0] - detail.query[0]) < 0.051 && Math.abs(query[1] - detail.query[1]) < 0.051,
      `${what}: the query in "${text}"`,
    );
    const want = expectText(detail.query, scale);
    assert.deepEqual(readWeights(text), want.weights, `${what}: the weights in "${text}"`);
    assert.match(text, new RegExp(`key ${want.weights.indexOf(Math.max(...want.weights)) + 1} weighs most`));
    assert.ok(text.includes(`Output at (${want.output[0]}, ${want.output[1]})`), `${what}: the output in "${text}"`);
  };
  await page.run(() =>
    document.querySelector('attn-soft-lookup').addEventListener('attn-change', (e) => (window.lastLookup = e.detail)),
  );

  // Animating (the query circles once the reader does something: here the pointer moves over
  // the page): the text is there and current, but not announced.
  await page.puppeteer.mouse.move(5, 5);
  await page.puppeteer.mouse.move(40, 30, { steps: 4 });
  await page.waitFor(() => window.lastLookup !== undefined, undefined, { timeout: 10000 });
  assert.equal(await readout.attribute('aria-live'), 'off', 'no announcements while the query moves by itself');
  assert.ok(readWeights(await readout.text()).length === 5, 'five weights in the readout');

  // Stopped: announced, and exactly the state on screen.
  await sketch.locate(button('Pause')).click();
  assert.equal(await readout.attribute('aria-live'), 'polite');

  // Moved by keyboard: the readout follows once the query settles.
  await sketch.locate('[role="application"]').focus();
  for (const key of ['ArrowLeft', 'ArrowLeft', 'Shift+ArrowUp', 'ArrowUp']) await page.press(key);
  await page.waitFor(() => {
    const t = document.querySelector('attn-soft-lookup .visually-hidden[aria-live]').textContent;
    const q = window.lastLookup.query;
    return t.includes(`Query at (${q[0].toFixed(1)}, ${q[1].toFixed(1)})`);
  });
  await check('after the arrow keys');
  assert.equal(await readout.attribute('aria-live'), 'polite');

  // Without the scale the weights change, and so does the text.
  const before = readWeights(await readout.text());
  await sketch.locate('::-p-aria([role="checkbox"])').uncheck();
  await page.waitFor(
    (old) => {
      const t = document.querySelector('attn-soft-lookup .visually-hidden[aria-live]').textContent;
      return [...t.matchAll(/key \d+: (-?\d+\.\d+)/g)].map((m) => m[1]).join() !== old;
    },
    before.map((w) => w.toFixed(2)).join(),
  );
  await check('without the scale', false);
  assert.deepEqual(errors, []);
  await page.close();
});
