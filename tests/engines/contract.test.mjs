// The widgets' contracts, held against what the widgets do, in each engine
// (tests/support/engines.mjs). The attributes and events under test are read from the built
// dist/custom-elements.json, which is generated from the contracts: an attribute or event a
// contract lists that has no case below fails, and so does one the widget does not honour.
//   - every declared attribute, changed after the widget has started, changes what it shows
//     (activity-id: the learning records it sends; persist: the settings kept come back);
//   - every declared event is raised by a real interaction (clicks, keys), with exactly the
//     declared detail fields; the quiz's and the exercises' xAPI statements pass Learning
//     Locker's statement validation;
//   - every widget moved, removed and added again works;
//   - every declared attribute's property (custom-elements.json's reflecting fields) reads the
//     attribute typed and writes it back, null removes it, and a property set on the element
//     before its class is defined is kept; a boolean attribute written without a value is true.
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
// the learning records instead of the display: the statement of `event` (else the first event)
// after `steps` (else that event's interaction) must pass `expect`), then the interaction that
// raises each event.
// The quiz's options are found by the author's index (their value), wherever they are shown:
// quiz-a.json's first question answered right, its second wrong (a score of 1 of 2).
const answerQuiz = [
  ['click', 'attn-quiz fieldset:nth-of-type(1) input[value="1"]'],
  ['click', 'attn-quiz fieldset:nth-of-type(1) .attn-controls button:first-child'],
  ['click', 'attn-quiz fieldset:nth-of-type(2) input[value="0"]'],
  ['click', 'attn-quiz fieldset:nth-of-type(2) .attn-controls button:first-child'],
];
const checkExercise = [
  ['press', ['2', '8', '8'], 'attn-exercises input'],
  ['click', 'attn-exercises .attn-controls button'],
];
// persist="on": the settings this browser kept for the widget (the next change's, saved before)
// come back when it draws.
const PERSIST = { attr: 'persist', value: 'on', observe: 'saved' };
const REGISTRATION = '0f8fad5b-d9cb-469f-a165-70867728950e';
const hasRegistration = (statement) => statement.context?.registration === REGISTRATION;
const CASES = {
  'attn-soft-lookup': {
    base: { query: '1, 1', theme: 'light' },
    changes: [
      PERSIST,
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
      PERSIST,
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
      PERSIST,
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
      PERSIST,
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
      PERSIST,
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
      PERSIST,
      { attr: 'd-model', value: '32' },
      { attr: 'heads', value: '4' },
      { attr: 'tokens', value: '5' },
      { attr: 'seed', value: '3' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {},
  },
  // Nothing the reader sets to keep: persist only draws it again.
  'attn-pitfall-demo': {
    base: { theme: 'light' },
    changes: [
      { attr: 'persist', value: 'on', observe: 'drawn' },
      { attr: 'theme', value: 'dark' },
    ],
    events: {},
  },
  'attn-flowchart': {
    base: { theme: 'light', route: 'cue-position' },
    changes: [PERSIST, { attr: 'route', value: 'answer-position' }, { attr: 'theme', value: 'dark' }],
    events: {},
  },
  'attn-quiz': {
    base: { src: 'quiz-a.json', theme: 'light' },
    changes: [
      PERSIST,
      { attr: 'src', value: 'quiz-b.json' },
      { attr: 'theme', value: 'dark' },
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement', prep: { src: 'quiz-a.json' } },
      // 1 of 2 right: success at a pass mark of 0.5 (not at the default, 1).
      {
        attr: 'pass-mark',
        value: '0.5',
        observe: 'statement',
        event: 'attn-quiz-completed',
        expect: (statement) => statement.result.success === true && statement.result.score.scaled === 0.5,
      },
      { attr: 'attempts', value: '1' },
      { attr: 'solution', value: 'off' },
      // quiz-a.json shuffled by its content shows its second question's options swapped.
      { attr: 'order', value: 'authored' },
      { attr: 'registration', value: REGISTRATION, observe: 'statement', expect: hasRegistration },
    ],
    events: { 'attn-quiz-answered': answerQuiz, 'attn-quiz-completed': answerQuiz, 'attn-progress': answerQuiz },
  },
  'attn-exercises': {
    base: { src: 'exercises-a.json', theme: 'light' },
    changes: [
      PERSIST,
      { attr: 'src', value: 'exercises-b.json' },
      { attr: 'theme', value: 'dark' },
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement', prep: { src: 'exercises-a.json' } },
      // A wrong count scores 0: success at a pass mark of 0.
      {
        attr: 'pass-mark',
        value: '0',
        observe: 'statement',
        event: 'attn-exercises-completed',
        steps: [
          ['press', ['2', '8', '7'], 'attn-exercises input'],
          ['click', 'attn-exercises .attn-controls button'],
        ],
        expect: (statement) => statement.result.success === true && statement.result.score.scaled === 0,
      },
      { attr: 'registration', value: REGISTRATION, observe: 'statement', expect: hasRegistration },
    ],
    events: {
      'attn-exercise-checked': checkExercise,
      'attn-exercises-completed': checkExercise,
      'attn-progress': checkExercise,
    },
  },
  'attn-cue-trainer': {
    base: { epochs: '1', theme: 'light' },
    changes: [
      PERSIST,
      { attr: 'seed', value: '7' },
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement', event: 'attn-train-finished' },
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
      PERSIST,
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
      { attr: 'activity-id', value: ACTIVITY, observe: 'statement' },
    ],
    events: { 'attn-change': [['press', ['ArrowRight'], 'attn-cue-probe input[type=range]']] },
  },
};
// Every widget speaks the language of its lang attribute: Spanish changes what each one says.
for (const { changes } of Object.values(CASES)) changes.push({ attr: 'lang', value: 'es' });

/** Each widget's reflecting properties (custom-elements.json): attribute, property, type, default. */
const reflecting = (declared) =>
  declared.members
    .filter((m) => m.reflects)
    .map((m) => ({
      attr: m.attribute,
      field: m.name,
      type: m.type.text.replace(/ \| undefined$/, ''),
      def: m.default,
    }));

/**
 * What a property reads for an attribute's text, from the type custom-elements.json gives it
 * (written here, not taken from the widgets' parsing).
 */
function typedValue(type, text) {
  if (type === 'boolean') return text === '' || text === 'true';
  if (type === 'number' || /^\d/.test(type)) return Number(text); // a number, or one of a list of numbers
  if (type === 'number[]' || type === '[number, number]') return text.split(',').map(Number);
  if (type === 'number[][]') return JSON.parse(text);
  return text; // text, or one of a list of strings
}

/** The attribute text a property's value writes; null: no attribute. */
function textOf(type, value, def) {
  if (type === 'boolean') return value ? '' : def === 'false' ? null : 'false';
  if (type === '[number, number]')
    return value.map((v) => (value.every(Number.isInteger) ? String(v) : v.toFixed(2))).join(',');
  if (type === 'number[]') return value.join(',');
  if (type === 'number[][]') return JSON.stringify(value);
  return String(value);
}

/** Each attribute's test values: those its cases change it to, and for a boolean both values and no value. */
function samples(tag, { attr, type }) {
  const values = CASES[tag].changes.filter((c) => c.attr === attr).map((c) => c.value);
  return type === 'boolean' ? [...new Set([...values, '', 'true', 'false'])] : values;
}

/** undefined does not cross from the page: it is sent as this. */
const UNDEFINED = '(undefined)';

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
      localStorage.clear();
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

/** Saves `settings` in localStorage as the stage's widget keeps them with persist="on" (progress-store.ts). */
function keepSettings(settings) {
  const widget = document.querySelector('#stage > *');
  const place = [...document.getElementsByTagName(widget.localName)].indexOf(widget) + 1;
  const key = `attention-lab:${location.pathname}#${widget.id || `${widget.localName}-${place}`}`;
  localStorage.setItem(key, JSON.stringify({ settings }));
}

/** The verb of each event's statement that is not "answered". */
const VERBS = {
  'attn-quiz-completed': 'completed',
  'attn-exercises-completed': 'completed',
  'attn-train-finished': 'experienced',
  'attn-change': 'interacted',
};

/**
 * Checks a statement against the xAPI rules (Learning Locker's validator) and ours; returns it.
 * A graded one (answered, completed) says success and a score; a run finished (experienced), a
 * score and a duration; an intervention tried (interacted), the sequence as its response.
 */
function checkStatement(statement, verb) {
  assert.equal(statement.verb.id, `http://adlnet.gov/expapi/verbs/${verb}`);
  assert.match(statement.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'ISO 8601, UTC');
  if (verb !== 'interacted')
    assert.ok(statement.result.score.scaled >= 0 && statement.result.score.scaled <= 1, 'scaled in [0, 1]');
  if (verb === 'answered' || verb === 'completed') assert.equal(typeof statement.result.success, 'boolean');
  if (verb === 'experienced') assert.match(statement.result.duration, /^PT\d+\.\d\dS$/);
  if (verb === 'interacted') assert.match(statement.result.response, /^\d+(,\d+)+$/);
  for (const id of [statement.object.id, ...(statement.context?.contextActivities?.parent ?? []).map((p) => p.id)])
    assert.match(new URL(id).href, /^https?:\/\//, `${id} is an absolute IRI`);
  assert.ok(statement.actor, 'every statement has an actor');
  assert.deepEqual(
    validateStatement(statement).map((w) => `${w.path.join('.')}: ${w.name}`),
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
        if (change.observe === 'drawn') {
          const drawn = await readyCount(page);
          await setAttributes(page, { [change.attr]: change.value });
          assert.equal(await waitDrawn(page, drawn + 1), '');
          continue;
        }
        if (change.observe === 'statement') {
          const drawn = await readyCount(page);
          await setAttributes(page, { [change.attr]: change.value });
          assert.equal(await waitDrawn(page, drawn + 1), '');
          await page.run(() => (window.events = []));
          // The first event's statement (change.event's), after the first event's interaction (change.steps).
          const name = change.event ?? Object.keys(events)[0];
          await interact(page, change.steps ?? events[name]);
          const sent = await page.waitFor(
            (name) => window.events.find((e) => e.name === name && e.detail?.statement)?.detail.statement,
            name,
            { timeout: 60000 },
          );
          // Without `expect`: activity-id, the records name the new activity (a question's or an
          // exercise's id is under the widget's; the trainer's and the probe's records name it).
          const expect =
            change.expect ??
            ((statement) => statement.object.id === ACTIVITY || statement.object.id.startsWith(`${ACTIVITY}/`));
          assert.ok(expect(sent), `${tag} ${change.attr}="${change.value}": ${JSON.stringify(sent)}`);
          continue;
        }
        const before = await snapshot(page);
        if (change.observe === 'saved') {
          const next = changes[changes.indexOf(change) + 1];
          assert.ok(next && !next.prep && !next.hash && !next.observe, `${tag}: a plain change follows persist`);
          await page.run(keepSettings, { [next.attr]: next.value });
        }
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
        if (change.observe === 'saved') {
          // Forgotten: drawn from its attributes again, for the next change.
          const drawn = await readyCount(page);
          await page.run(() => document.querySelector('#stage > *').forgetProgress());
          assert.equal(await waitDrawn(page, drawn + 1), '', `${tag}: drawn again once forgotten`);
          const kept = await page.run(() => Object.values({ ...localStorage }).map((v) => JSON.parse(v)));
          assert.ok(!kept.some((v) => v.settings), `${tag}: no settings kept once forgotten`);
          // persist off again: the later cases start from nothing kept.
          const again = await readyCount(page);
          await setAttributes(page, { persist: null });
          assert.equal(await waitDrawn(page, again + 1), '', `${tag}: drawn without persist`);
          await page.run(() => localStorage.clear());
        }
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
          if (detail.statement) checkStatement(detail.statement, VERBS[event.name] ?? 'answered');
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

  for (const declared of DECLARED) {
    const tag = declared.tagName;
    test(`<${tag}>: each attribute's property reads it typed, writes it, and null removes it`, async () => {
      const { page } = context;
      // Started once, so the class is defined and the core's configs are known; the element
      // tested is another one, never connected, so that it never draws.
      assert.equal(await create(page, tag, CASES[tag].base), '', 'it starts');
      const cases = reflecting(declared).flatMap((p) =>
        samples(tag, p).map((text) => ({ ...p, text, typed: typedValue(p.type, text) })),
      );
      assert.ok(cases.length >= reflecting(declared).length, 'a value for every attribute');
      const seen = await page.run(
        ({ tag, cases, UNDEFINED }) => {
          const widget = document.createElement(tag);
          const read = (field) => (widget[field] === undefined ? UNDEFINED : widget[field]);
          return cases.map(({ attr, field, text, typed }) => {
            widget.setAttribute(attr, text);
            const fromAttribute = read(field);
            widget.removeAttribute(attr);
            widget[field] = typed;
            const written = widget.getAttribute(attr);
            const readBack = read(field);
            widget[field] = null;
            const afterNull = widget.getAttribute(attr);
            const absent = read(field);
            widget[field] = typed;
            widget[field] = undefined;
            return { fromAttribute, written, readBack, afterNull, absent, afterUndefined: widget.getAttribute(attr) };
          });
        },
        { tag, cases, UNDEFINED },
      );
      cases.forEach(({ attr, field, type, def, text, typed }, i) => {
        const where = `<${tag} ${attr}="${text}">.${field}`;
        const expectedText = textOf(type, typed, def);
        assert.deepEqual(seen[i].fromAttribute, typed, `${where}: read from the attribute`);
        assert.equal(seen[i].written, expectedText, `${where} = ${JSON.stringify(typed)}: the attribute written`);
        assert.deepEqual(seen[i].readBack, typed, `${where}: read back`);
        assert.equal(seen[i].afterNull, null, `${where} = null: no attribute`);
        assert.equal(seen[i].afterUndefined, null, `${where} = undefined: no attribute`);
        assert.deepEqual(
          seen[i].absent,
          def === undefined ? UNDEFINED : JSON.parse(def),
          `${where}: absent, the default`,
        );
      });
    });
  }

  test('a property set before the element is defined is kept, for every widget and attribute', async () => {
    // A fresh page, where no widget is defined yet: each element gets every property while it is
    // an undefined element, then joins the page (hidden, so it never starts) and the autoloader
    // defines it.
    const page = (context.page = await context.browser.open(`${context.site.url}widgets.html`, {
      width: 1000,
      height: 900,
    }));
    const widgets = DECLARED.map((declared) => ({
      tag: declared.tagName,
      properties: reflecting(declared).map((p) => {
        const typed = typedValue(p.type, samples(declared.tagName, p)[0]);
        // Before any core has loaded a boolean's default is not known: false is written "false".
        return { ...p, typed, text: textOf(p.type, typed, p.type === 'boolean' ? undefined : p.def) };
      }),
    }));
    const seen = await page.run((widgets) => {
      const box = document.createElement('div');
      box.hidden = true;
      const elements = widgets.map(({ tag, properties }) => {
        const element = document.createElement(tag);
        if (customElements.get(tag)) throw new Error(`${tag} is defined already`);
        for (const { field, typed } of properties) element[field] = typed;
        box.append(element);
        return element;
      });
      document.body.append(box);
      // How the stylesheet shows each one before it is defined (by its tag) and after (by its class).
      const look = () =>
        elements.map((element) => {
          const style = getComputedStyle(element);
          return [element.matches(':defined'), element.className, style.display, style.fontFamily];
        });
      const undefinedLook = look();
      return Promise.all(widgets.map(({ tag }) => customElements.whenDefined(tag))).then(() => ({
        undefinedLook,
        definedLook: look(),
        properties: elements.map((element, i) =>
          widgets[i].properties.map(({ attr, field }) => ({
            attribute: element.getAttribute(attr),
            own: Object.prototype.hasOwnProperty.call(element, field),
          })),
        ),
      }));
    }, widgets);
    widgets.forEach(({ tag, properties }, i) => {
      properties.forEach(({ attr, field, text }, j) => {
        assert.equal(
          seen.properties[i][j].attribute,
          text,
          `<${tag}>.${field} set before definition: attribute ${attr}`,
        );
        assert.equal(seen.properties[i][j].own, false, `<${tag}>.${field}: the class's accessor, not an own property`);
      });
      // Nothing moves when it is defined: a block in the widgets' font before and after (its colours
      // change only by the theme property set here, which reaches the attribute on definition); a
      // widget that reserves its drawn height does so in a block of its own (flow-root).
      const blockOf = ([defined, className, display, ...rest]) => [
        defined,
        className,
        display === 'flow-root' ? 'block' : display,
        ...rest,
      ];
      const [defined, className, ...shown] = blockOf(seen.undefinedLook[i]);
      assert.deepEqual([defined, className, shown[0]], [false, '', 'block'], `<${tag}> before definition`);
      assert.deepEqual(blockOf(seen.definedLook[i]), [true, 'attn-widget', ...shown], `<${tag}> once defined`);
    });
    assert.deepEqual(await page.problems(), []);
  });

  test('<attn-attention-steps>: a boolean attribute without a value is true; false writes what reads false', async () => {
    const { page } = context;
    const masked = () =>
      page.run(() => document.querySelectorAll('#stage > * table[data-matrix="masked"] td[data-blocked]').length);
    assert.equal(await create(page, 'attn-attention-steps', { tokens: '3', causal: '' }), '', 'causal without a value');
    assert.equal(await masked(), 3, 'the causal mask hides the 3 pairs above the diagonal');
    const state = await page.run(() => {
      const widget = document.querySelector('#stage > *');
      return { causal: widget.causal, scale: widget.scale };
    });
    assert.deepEqual(state, { causal: true, scale: true }, 'causal as written; scale absent: its default, true');
    const drawn = await readyCount(page);
    const written = await page.run(() => {
      const widget = document.querySelector('#stage > *');
      widget.causal = false;
      widget.scale = false;
      return { causal: widget.getAttribute('causal'), scale: widget.getAttribute('scale') };
    });
    assert.deepEqual(
      written,
      { causal: null, scale: 'false' },
      'false: no causal attribute (default false), scale="false"',
    );
    assert.equal(await waitDrawn(page, drawn + 1), '');
    assert.equal(await masked(), 0, 'no mask once causal is false');
    assert.deepEqual(await page.problems(), []);
  });

  test('the quiz, the exercises and the probe carry the actor the host page sets', async () => {
    const { page } = context;
    const actor = { objectType: 'Agent', name: 'A learner', mbox: 'mailto:learner@example.com' };
    for (const [tag, steps, verb] of [
      ['attn-quiz', answerQuiz.slice(0, 2), 'answered'],
      ['attn-exercises', checkExercise, 'answered'],
      ['attn-cue-probe', CASES['attn-cue-probe'].events['attn-change'], 'interacted'],
    ]) {
      assert.equal(await create(page, tag, CASES[tag].base), '');
      await page.run((actor) => (document.querySelector('#stage > *').actor = actor), actor);
      await interact(page, steps);
      const statement = await page.waitFor(() => window.events.find((e) => e.detail?.statement)?.detail.statement);
      assert.deepEqual(checkStatement(statement, verb).actor, actor, tag);
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
