// The widgets' contracts, held against what the widgets do, in each engine
// (tests/support/engines.mjs). The attributes and events under test are read from the built
// dist/custom-elements.json, which is generated from the contracts: an attribute or event a
// contract lists that has no case below fails, and so does one the widget does not honour.
//   - every declared attribute, changed after the widget has started, changes what it shows
//     (activity-id: the learning records it sends);
//   - every declared event is raised by a real interaction (clicks, keys), with exactly the
//     declared detail fields; the quiz's and the exercises' xAPI statements pass Learning
//     Locker's statement validation;
//   - every widget moved, removed and added again works.
// The page is tests/engines/widget-page/widgets.html, the build's files next to it, under the
// strict CSP. Run after `npm run build`: node --test tests/engines/contract.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import xapiValidation from 'xapi-validation';
import { DIST } from '../support/engines.mjs';
import { widgetPageSuites } from './widget-page/suite.mjs';
const manifest = JSON.parse(readFileSync(resolve(DIST, 'custom-elements.json'), 'utf8'));
const DECLARED = manifest.modules[0].declarations;
const validateStatement = xapiValidation.default; // Learning Locker's statement validator (CommonJS)
const ACTIVITY = 'https://example.com/course/attention/check';

// Per widget: the attributes it starts with, then each attribute's new value (null removes it;
// `prep`: attributes set first; `hash`: the URL hash set first; `observe: 'statement'`: look at
// the learning records instead of the display), then the interaction that raises each event.
const answerQuiz = [
  ['click', 'attn-quiz fieldset:nth-of-type(1) .option:nth-of-type(2) input'],
  ['click', 'attn-quiz fieldset:nth-of-type(1) .attn-controls button:first-child'],
  ['click', 'attn-quiz fieldset:nth-of-type(2) .option:nth-of-type(1) input'],
  ['click', 'attn-quiz fieldset:nth-of-type(2) .attn-controls button:first-child'],
];
const checkExercise = [
  ['press', ['2', '8', '8'], 'attn-exercises input'],
  ['click', 'attn-exercises .attn-controls button'],
];
const CASES = {
  'attn-soft-lookup': {
    base: { query: '1, 1', theme: 'light' },
    changes: [
      { attr: 'keys', value: '[[1,0],[0,1],[-1,0],[0,-1],[1,1]]' },
      { attr: 'values', value: '[[0,1],[1,0],[0,-1],[-1,0],[2,2]]' },
      { attr: 'query', value: '-1, 0.5' },
      { attr: 'scale', value: 'off' },
      { attr: 'temperature', value: '4' },
      { attr: 'state-key', value: 'k', hash: 'k.q=-2.00,-2.00' },
      { attr: 'theme', value: 'dark' },
    ],
    events: { 'attn-change': [['press', ['ArrowLeft'], 'attn-soft-lookup [role=application]']] },
  },
  'attn-attention-steps': {
    base: { tokens: '4', theme: 'light' },
    changes: [
      { attr: 'tokens', value: '5' },
      { attr: 'dk', value: '2' },
      { attr: 'dv', value: '3' },
      { attr: 'causal', value: 'true' },
      { attr: 'scale', value: 'false' },
      { attr: 'seed', value: '9' },
      { attr: 'state-key', value: 's', hash: 's.n=3' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {
      'attn-change': [
        ['press', ['Enter', '3', 'Enter'], 'attn-attention-steps table[data-matrix="key"] td[tabindex="0"]'],
      ],
    },
  },
  'attn-ranked-table': {
    base: { src: 'table-a.json', theme: 'light' },
    changes: [
      { attr: 'src', value: 'table-b.json' },
      { attr: 'sort', value: 'score' },
      { attr: 'order', value: 'descending' },
      { attr: 'state-key', value: 't', hash: 't.dir=ascending' },
      { attr: 'theme', value: 'dark' },
      { attr: 'draws', value: '20', prep: { src: null, sort: null } },
    ],
    events: { 'attn-change': [['click', 'attn-ranked-table th:nth-of-type(2) button']] },
  },
  'attn-scale-figure': {
    base: { dk: '4,16', draws: '40', theme: 'light' },
    changes: [
      { attr: 'dk', value: '8,32' },
      { attr: 'draws', value: '60' },
      { attr: 'tokens', value: '20' },
      { attr: 'seed', value: '5' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {},
  },
  'attn-mask-figure': {
    base: { positions: '6', real: '4', theme: 'light' },
    changes: [
      { attr: 'positions', value: '8' },
      { attr: 'real', value: '3' },
      { attr: 'seed', value: '4' },
      { attr: 'state-key', value: 'm', hash: 'm.n=5' },
      { attr: 'theme', value: 'dark' },
    ],
    events: { 'attn-change': [['press', ['End', 'Backspace', 'Backspace', '7', 'Tab'], 'attn-mask-figure input']] },
  },
  'attn-heads-figure': {
    base: { 'd-model': '16', heads: '2', tokens: '4', theme: 'light' },
    changes: [
      { attr: 'd-model', value: '32' },
      { attr: 'heads', value: '4' },
      { attr: 'tokens', value: '5' },
      { attr: 'seed', value: '3' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {},
  },
  'attn-pitfall-demo': { base: { theme: 'light' }, changes: [{ attr: 'theme', value: 'dark' }], events: {} },
  'attn-flowchart': {
    base: { theme: 'light', route: 'cue-position' },
    changes: [
      { attr: 'route', value: 'answer-position' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {},
  },
  'attn-quiz': {
    base: { src: 'quiz-a.json', theme: 'light' },
    changes: [
      { attr: 'src', value: 'quiz-b.json' },
      { attr: 'theme', value: 'dark' },
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement', prep: { src: 'quiz-a.json' } },
    ],
    events: { 'attn-quiz-answered': answerQuiz, 'attn-quiz-completed': answerQuiz },
  },
  'attn-exercises': {
    base: { src: 'exercises-a.json', theme: 'light' },
    changes: [
      { attr: 'src', value: 'exercises-b.json' },
      { attr: 'theme', value: 'dark' },
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement', prep: { src: 'exercises-a.json' } },
    ],
    events: { 'attn-exercise-checked': checkExercise, 'attn-exercises-completed': checkExercise },
  },
  'attn-cue-trainer': {
    base: { epochs: '1', theme: 'light' },
    changes: [
      { attr: 'seed', value: '7' },
      { attr: 'heads', value: '4' },
      { attr: 'epochs', value: '2' },
      { attr: 'state-key', value: 'c', hash: 'c.seed=11' },
      { attr: 'theme', value: 'dark' },
    ],
    events: Object.fromEntries(
      ['attn-train-progress', 'attn-train-epoch', 'attn-train-finished', 'attn-run-shown'].map((name) => [
        name,
        [['click', 'attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child']],
      ]),
    ),
  },
  'attn-cue-probe': {
    base: { theme: 'light' },
    changes: [
      { attr: 'sequence', value: '0,CUE,4,1,1,2,3,5,6' },
      { attr: 'intervention', value: 'knock-out' },
      { attr: 'ablation', value: 'mean' },
      { attr: 'block', value: '2' },
      { attr: 'head', value: '2' },
      { attr: 'pattern', value: 'first-cue', prep: { intervention: 'pattern', block: '1', head: '1' } },
      { attr: 'patch-positions', value: '3', prep: { intervention: 'patch', head: '0' } },
      { attr: 'patch-into', value: '0,CUE,5,1,1,2,3,5,6' },
      { attr: 'source', value: 'live' },
      { attr: 'state-key', value: 'p', hash: 'p.seq=1,1,1,1,1,1,CUE,2,1', prep: { source: 'recorded' } },
      { attr: 'theme', value: 'dark' },
    ],
    events: { 'attn-change': [['press', ['ArrowRight'], 'attn-cue-probe input[type=range]']] },
  },
};

/** The detail field names a manifest event declares ("CustomEvent<{ a: T; b: U }>" -> ["a", "b"]). */
const detailFields = (event) => [...event.type.text.matchAll(/(\w+): /g)].map((m) => m[1]).sort();

/**
 * Puts a fresh `tag` with `attrs` on the page (the hash cleared, every widget event recorded in
 * window.events) and waits until it has drawn itself. Resolves to its error text, or ''.
 */
async function create(page, tag, attrs) {
  await page.run(
    ({ tag, attrs, names }) => {
      history.replaceState(null, '', location.pathname);
      window.events = [];
      const widget = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
      for (const name of names)
        widget.addEventListener(name, (event) =>
          window.events.push({ name, detail: JSON.parse(JSON.stringify(event.detail)) }),
        );
      document.getElementById('stage').replaceChildren(widget);
      document.getElementById('elsewhere').replaceChildren();
    },
    { tag, attrs, names: [...new Set(DECLARED.flatMap((d) => d.events.map((e) => e.name)))] },
  );
  return waitDrawn(page, 1);
}

/** Waits for the widget's `count`-th attn-ready (or an error in it); resolves to the error text or ''. */
function waitDrawn(page, count) {
  return page
    .waitFor((count) => {
      const widget = document.querySelector('#stage > *, #elsewhere > *');
      const error = widget.querySelector(':scope > .attn-error');
      if (error) return { error: error.textContent };
      return window.events.filter((e) => e.name === 'attn-ready').length >= count && { error: '' };
    }, count)
    .then((r) => r.error);
}

/** What the widget shows: its text, its controls' values, its colour. */
const snapshot = (page) =>
  page.run(() => {
    const widget = document.querySelector('#stage > *, #elsewhere > *');
    const controls = [...widget.querySelectorAll('input, select')].map((i) =>
      i.type === 'radio' || i.type === 'checkbox' ? i.checked : i.value,
    );
    return JSON.stringify([
      widget.textContent,
      controls,
      getComputedStyle(widget).color,
      widget.querySelectorAll('canvas').length,
      [...widget.querySelectorAll('img')].map((image) => [image.getAttribute('src'), image.alt]),
    ]);
  });

/** Sets (or, for null, removes) attributes on the widget. */
const setAttributes = (page, attrs) =>
  page.run((attrs) => {
    const widget = document.querySelector('#stage > *');
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null) widget.removeAttribute(name);
      else widget.setAttribute(name, value);
    }
  }, attrs);

const readyCount = (page) => page.run(() => window.events.filter((e) => e.name === 'attn-ready').length);

/** Does each step of an interaction: ['click', selector] or ['press', keys, selector]. */
async function interact(page, steps) {
  for (const [kind, ...args] of steps) {
    if (kind === 'click') await page.click(...args);
    else await page.press(...args);
  }
}

/** Checks a statement against the xAPI rules (Learning Locker's validator) and ours; returns it. */
function checkStatement(statement, verb) {
  assert.equal(statement.verb.id, `http://adlnet.gov/expapi/verbs/${verb}`);
  assert.match(statement.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'ISO 8601, UTC');
  assert.ok(statement.result.score.scaled >= 0 && statement.result.score.scaled <= 1, 'scaled in [0, 1]');
  assert.equal(typeof statement.result.success, 'boolean');
  for (const id of [statement.object.id, ...(statement.context?.contextActivities.parent ?? []).map((p) => p.id)])
    assert.match(new URL(id).href, /^https?:\/\//, `${id} is an absolute IRI`);
  // A statement without an actor is complete once the LMS adds the learner, as it would.
  const stored = statement.actor
    ? statement
    : { ...statement, actor: { objectType: 'Agent', mbox: 'mailto:learner@example.com' } };
  assert.deepEqual(
    validateStatement(stored).map((w) => `${w.path.join('.')}: ${w.name}`),
    [],
    JSON.stringify(statement),
  );
  return statement;
}

widgetPageSuites((context) => {
  test('every test case names a declared widget, attribute and event, and every declared one has a case', () => {
    assert.deepEqual(Object.keys(CASES).sort(), DECLARED.map((d) => d.tagName).sort());
    for (const d of DECLARED) {
      assert.deepEqual(
        [...new Set(CASES[d.tagName].changes.map((c) => c.attr))].sort(),
        d.attributes.map((a) => a.name).sort(),
        `${d.tagName}: attributes`,
      );
      assert.deepEqual(
        [...Object.keys(CASES[d.tagName].events), 'attn-ready'].sort(),
        d.events.map((e) => e.name).sort(),
        `${d.tagName}: events`,
      );
    }
  });

  for (const declared of DECLARED) {
    const tag = declared.tagName;
    const { base, changes, events } = CASES[tag];

    test(`<${tag}>: each attribute changed after it started changes what it shows`, async () => {
      const { page } = context;
      assert.equal(await create(page, tag, base), '', 'it starts');
      for (const change of changes) {
        if (change.prep) {
          const before = await readyCount(page);
          await setAttributes(page, change.prep);
          assert.equal(await waitDrawn(page, before + 1), '', `${change.attr}: prepared`);
        }
        if (change.hash) await page.run((hash) => history.replaceState(null, '', `#${hash}`), change.hash);
        if (change.observe === 'statement') {
          const drawn = await readyCount(page);
          await setAttributes(page, { [change.attr]: change.value });
          assert.equal(await waitDrawn(page, drawn + 1), '');
          await page.run(() => (window.events = []));
          await interact(page, events[Object.keys(events)[0]]);
          const sent = await page.waitFor(() => window.events.find((e) => e.detail?.statement)?.detail.statement);
          assert.ok(
            sent.object.id.startsWith(`${ACTIVITY}/`),
            `${tag} ${change.attr}: the records name the new activity (${sent.object.id})`,
          );
          continue;
        }
        const before = await snapshot(page);
        await setAttributes(page, { [change.attr]: change.value });
        // The widget draws itself again (theme only restyles): wait until what it shows has changed.
        const changed = await page
          .waitFor(
            (before) => {
              const widget = document.querySelector('#stage > *');
              if (widget.querySelector(':scope > .attn-error')) return { error: widget.textContent };
              const controls = [...widget.querySelectorAll('input, select')].map((i) =>
                i.type === 'radio' || i.type === 'checkbox' ? i.checked : i.value,
              );
              const now = JSON.stringify([
                widget.textContent,
                controls,
                getComputedStyle(widget).color,
                widget.querySelectorAll('canvas').length,
                [...widget.querySelectorAll('img')].map((image) => [image.getAttribute('src'), image.alt]),
              ]);
              return now !== before && { error: '' };
            },
            before,
            { timeout: 15000 },
          )
          .catch(() => ({ error: 'nothing it shows changed' }));
        assert.equal(changed.error, '', `<${tag} ${change.attr}="${change.value}">`);
      }
      assert.deepEqual(await page.problems(), []);
    });

    test(
      `<${tag}>: each event is raised by a real interaction, with the declared detail`,
      { skip: Object.keys(events).length ? false : 'no events besides attn-ready' },
      async () => {
        const { page } = context;
        for (const event of declared.events) {
          if (event.name === 'attn-ready') {
            assert.equal(await create(page, tag, base), '');
            assert.deepEqual(
              await page.run(() => window.events.filter((e) => e.name === 'attn-ready').map((e) => e.detail)),
              [null],
            );
            continue;
          }
          assert.equal(await create(page, tag, base), '');
          await interact(page, events[event.name]);
          const detail = await page.waitFor((name) => window.events.find((e) => e.name === name)?.detail, event.name, {
            timeout: 60000,
          });
          assert.deepEqual(Object.keys(detail).sort(), detailFields(event), `${tag} ${event.name}: detail fields`);
          if (detail.statement)
            checkStatement(detail.statement, event.name.endsWith('completed') ? 'completed' : 'answered');
        }
        assert.deepEqual(await page.problems(), []);
      },
    );

    test(`<${tag}>: moved, removed and added again, it works`, async () => {
      const { page } = context;
      assert.equal(await create(page, tag, base), '');
      const shown = await snapshot(page);
      // A move (out and in within one task) keeps it as it is, its canvas included.
      await page.run(() => document.getElementById('elsewhere').append(document.querySelector('#stage > *')));
      await page.run(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.equal(await snapshot(page), shown, 'unchanged after a move');
      assert.equal(await readyCount(page), 1, 'not drawn again after a move');
      // Removed, then added again later: it draws itself anew.
      await page.run(async () => {
        const widget = document.querySelector('#elsewhere > *');
        widget.remove();
        await new Promise((done) => setTimeout(done, 50));
        document.getElementById('stage').append(widget);
      });
      assert.equal(await waitDrawn(page, 2), '', 'drawn again after being added again');
      assert.equal(await snapshot(page), shown, 'it shows what it showed');
      const [name, steps] = Object.entries(events)[0] ?? [];
      if (name) {
        await interact(page, steps);
        await page.waitFor((name) => window.events.some((e) => e.name === name), name, { timeout: 60000 });
      }
      assert.deepEqual(await page.problems(), []);
    });
  }

  test('the quiz and the exercises carry the actor the host page sets', async () => {
    const { page } = context;
    const actor = { objectType: 'Agent', name: 'A learner', mbox: 'mailto:learner@example.com' };
    for (const [tag, steps] of [
      ['attn-quiz', answerQuiz.slice(0, 2)],
      ['attn-exercises', checkExercise],
    ]) {
      assert.equal(await create(page, tag, CASES[tag].base), '');
      await page.run((actor) => (document.querySelector('#stage > *').actor = actor), actor);
      await interact(page, steps);
      const statement = await page.waitFor(() => window.events.find((e) => e.detail?.statement)?.detail.statement);
      assert.deepEqual(checkStatement(statement, 'answered').actor, actor, tag);
    }
  });

  test('<attn-cue-probe> removed while it draws, then added again: ready once, for the drawing it shows', async () => {
    const { page } = context;
    // The probe draws its controls, then waits for the models' answers (from a Worker) before it
    // is ready: removed the moment its slider appears, it is removed mid-drawing.
    const readyWhenRemoved = await page.run(
      () =>
        new Promise((removed) => {
          window.events = [];
          const widget = document.createElement('attn-cue-probe');
          widget.addEventListener('attn-ready', () => window.events.push({ name: 'attn-ready' }));
          new MutationObserver((_, observer) => {
            if (!widget.querySelector('input[type=range]')) return;
            observer.disconnect();
            widget.remove();
            window.removedProbe = widget;
            removed(widget.dataset.ready !== undefined);
          }).observe(widget, { childList: true, subtree: true });
          document.getElementById('elsewhere').replaceChildren();
          document.getElementById('stage').replaceChildren(widget);
        }),
    );
    assert.equal(readyWhenRemoved, false, 'removed before it was ready');
    await page.run(
      () =>
        new Promise((done) =>
          setTimeout(() => {
            document.getElementById('stage').append(window.removedProbe);
            done();
          }, 50),
        ),
    );
    // Ready once the models have answered the drawing it shows; an attn-ready from the
    // interrupted drawing would have come before (the new drawing waits for it to end).
    await page.waitFor(() => {
      const widget = document.querySelector('#stage > attn-cue-probe');
      return (
        widget?.dataset.ready !== undefined &&
        /^The recorded run: /.test(widget.querySelector('.probe-status').textContent)
      );
    });
    assert.equal(await readyCount(page), 1, 'one attn-ready: none from the drawing it was removed during');
    assert.deepEqual(await page.problems(), []);
  });
});
