// The embedding guide's reference (embed.html): every widget's attributes, events and
// properties, the author data formats with their JSON Schemas and a full example each, and the
// learning records. All of it is drawn from the widgets' contracts (widgets/element/contracts.ts) and the
// core's configs, through the same rows as custom-elements.json (widgets/element/contract-docs.ts).
import type { Configs } from '../../core';
import { SCHEMAS, type SchemaName } from '../../widgets/element/author-data';
import { attributeRows, eventRows } from '../../widgets/element/contract-docs';
import { CONTRACTS, CUE_TRAINER, ROUTE_LABELS } from '../../widgets/element/contracts';
import { el } from '../../widgets/element/base';
import { answeredStatement, completedStatement } from '../../widgets/element/xapi';
import exercisesExample from '../../schemas/examples/exercises.example.json';
import quizExample from '../../schemas/examples/quiz.example.json';
import tableExample from '../../schemas/examples/table.example.json';

const EXAMPLES: Record<SchemaName, unknown> = { quiz: quizExample, exercises: exercisesExample, table: tableExample };

function table(kind: string, caption: string, head: string[], rows: (string | Node)[][]): HTMLElement {
  // Focusable, so keyboard users can scroll a table wider than the page.
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    el(
      'table',
      { class: 'attr-table', 'data-table': kind },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
      el(
        'tbody',
        {},
        ...rows.map((cells) => el('tr', { 'data-name': String(cells[0]) }, ...cells.map((c) => el('td', {}, c)))),
      ),
    ),
  );
}

const code = (text: string) => (text ? el('code', {}, text) : '—');
const json = (value: unknown) => el('pre', { tabindex: '0' }, el('code', {}, JSON.stringify(value, null, 2)));

/** One widget: what it is, its attributes, its events and the properties a host may set. */
function widgetReference(tag: string, configs: Configs): HTMLElement {
  const contract = CONTRACTS.find((c) => c.tag === tag)!;
  const attributes = attributeRows(contract, configs);
  const section = el(
    'section',
    { class: 'widget-reference', 'data-tag': tag, 'aria-labelledby': `ref-${tag}` },
    el('h3', { id: `ref-${tag}` }, el('code', {}, `<${tag}>`)),
    el('p', {}, contract.description),
    table(
      'attributes',
      `Attributes of <${tag}>`,
      ['attribute', 'property', 'type', 'default', 'value', 'URL hash key', 'description'],
      attributes.map((a) => [
        a.name,
        code(a.property),
        code(a.type),
        code(a.default),
        a.values,
        code(a.hashKey),
        a.description,
      ]),
    ),
    table(
      'events',
      `Events of <${tag}>`,
      ['event', 'detail', 'description'],
      eventRows(contract).map((e) => [e.name, e.detail || '—', e.description]),
    ),
  );
  if (contract === CUE_TRAINER)
    section.append(
      table(
        'routes',
        "The routes attn-train-finished names, each by its test (block 1's head tested: the one whose knock-out lowers accuracy most)",
        ['route', 'the test that names it'],
        ROUTE_LABELS.map((r) => [code(r.label), r.test]),
      ),
    );
  if (contract.properties?.length)
    section.append(
      table(
        'properties',
        `Properties of <${tag}>`,
        ['property', 'type', 'description'],
        contract.properties.map((p) => [p.name, code(p.type), p.description]),
      ),
    );
  return section;
}

/** One data format: its schema's description, where the schema file is, a full example and the schema. */
function dataFormat(name: SchemaName): HTMLElement {
  const schema = SCHEMAS[name] as { title: string; description: string };
  const file = `schemas/${name}.schema.json`;
  const users = CONTRACTS.filter((c) => c.schema === name)
    .map((c) => `<${c.tag}>`)
    .join(', ');
  return el(
    'section',
    { class: 'data-format', 'data-schema': name, 'aria-labelledby': `format-${name}` },
    el('h3', { id: `format-${name}` }, `${users}: ${schema.title}`),
    el('p', {}, schema.description),
    el('p', {}, 'The JSON Schema: ', el('a', { href: file }, file), ' (also in the npm package). A full example:'),
    json(EXAMPLES[name]),
    el('details', {}, el('summary', {}, `The schema, ${file}`), json(schema)),
  );
}

/** The learning records: what is sent when, and one statement of each kind, made by the same code the widgets use. */
function learningRecords(): HTMLElement {
  const host = document.createElement('div');
  host.setAttribute('lang', 'en');
  const common = {
    element: host,
    actor: undefined,
    registration: '0f8fad5b-d9cb-469f-a165-70867728950e',
    activity: 'https://example.com/course/attention#attn-quiz-1',
  };
  const answered = answeredStatement({
    ...common,
    id: 'row-sum',
    name: 'After the softmax, what does each row of attention weights add up to?',
    success: true,
    response: '1',
    choices: ['The number of keys', 'Exactly 1', '√d_k'],
    correctChoice: 1,
  });
  const completed = completedStatement({ ...common, name: 'Attention basics', score: 1, total: 2, passMark: 0.5 });
  return el(
    'section',
    { 'aria-labelledby': 'records' },
    el('h3', { id: 'records' }, 'Learning records (xAPI)'),
    el(
      'p',
      {},
      'The quiz and the exercises describe what the reader does as xAPI 1.0.3 statements, in the detail of their events (detail.statement), so an LMS or a learning record store can take them as they are: one "answered" statement (verb http://adlnet.gov/expapi/verbs/answered) for each question or exercise checked, and one "completed" (http://adlnet.gov/expapi/verbs/completed) when every question of a quiz has been answered or revealed, or every exercise of a set checked. result.score has raw, min, max and scaled in [0, 1]. An "answered" statement\'s result.success says whether the answer was right; a "completed" one\'s whether the scaled score reached the widget\'s pass-mark attribute (default 1: every answer right; pass-mark="0.8": four in five). A quiz\'s choices are named by their place in the data (0 for the first option the author wrote), whatever order they are shown in.',
    ),
    el(
      'p',
      {},
      'The activity id is the widget\'s activity-id attribute, else the page\'s address without its hash followed by "#" and the element\'s id (or its tag and its place on the page, "#attn-quiz-1"); a question\'s or exercise\'s id is that id, "/" and its own id, with the widget\'s id as its parent in context.contextActivities. Texts carry the language of the nearest lang attribute ("und" without one).',
    ),
    el(
      'p',
      {},
      "Every statement has an actor, as a learning record store requires. Set the element's actor property to an xAPI Agent ({ mbox: \"mailto:…\" } or { account: { homePage, name } }) and they carry it (a course package's bridge sets the LMS's learner). Without it they carry an anonymous account: homePage the page's origin, name a random id kept in this browser's localStorage under \"attention-lab:learner\" (the same for every widget and page of the origin until the reader clears the site's data; for this page load only where storage is refused); it says nothing about who the reader is. The registration attribute (a UUID, as an LMS gives it for an attempt: cmi5 does) is carried as context.registration. The statements have no id (the store assigns one) and a timestamp in ISO 8601, UTC.",
    ),
    el('p', {}, 'An "answered" statement:'),
    json(answered),
    el('p', {}, 'A "completed" statement:'),
    json(completed),
  );
}

/** Saved progress: what the widgets keep of the reader's work, where, for how long, and how it is cleared. */
function savedProgress(): HTMLElement {
  const example = {
    seed: 'k3v9q2xa',
    answers: { 'row-sum': [1, 1, 1], scaling: [0, 0, 2], masks: [-1, 2, 1] },
  };
  const item = (...children: (Node | string)[]) => el('li', {}, ...children);
  return el(
    'section',
    { 'aria-labelledby': 'saved-progress' },
    el('h3', { id: 'saved-progress' }, 'Saved progress'),
    el(
      'p',
      {},
      'A widget keeps the reader\'s work only when asked: with persist="on" in this browser\'s localStorage, or, inside a course package, in the LMS (SCORM\'s suspend data, cmi5\'s state), whatever persist says. Each widget keeps one JSON object under its key: the element\'s id, else its tag and place on the page ("attn-quiz-1"); give widgets ids, so that adding one to the page does not move the others\' keys. In localStorage the name is "attention-lab:" + the page\'s path + "#" + the key, such as attention-lab:/course/week1.html#check-1, so two pages of a site keep apart. The object\'s parts:',
    ),
    el(
      'ul',
      {},
      item(
        'quiz: "answers", by question id, [the option checked, by its place in the data (-1: none); the outcome: 1 right, 0 wrong, -1 not answered, 2 solution shown; the checks made]; "seed", the random seed of the options\' order (only with order="shuffled" and no actor set).',
      ),
      item(
        'exercises: "answers", by exercise id, [1 right or 0 not yet, as last checked; then what the reader had entered: each field\'s text in order, a mask grid as a string of 0s and 1s].',
      ),
      item(
        'every widget: "settings", the attributes the reader changed in the widget, by name, as attribute text (restored before a link\'s URL hash, which wins).',
      ),
    ),
    el(
      'p',
      {},
      `A quiz with three answers kept (${JSON.stringify(example).length} characters as stored; a SCORM 1.2 LMS keeps 4,096 for the whole page):`,
    ),
    json(example),
    el(
      'p',
      {},
      'Nothing else is stored: no texts, no names, no times. The anonymous learner id of the learning records ("attention-lab:learner", above) is kept apart from this, whether persist is on or not. An answer whose question or exercise is gone from the data, or no longer fits it, is dropped when the widget draws; the others come back.',
    ),
    el(
      'p',
      {},
      "It is kept until it is cleared; nothing expires. The reader clears one widget's with its \"Forget my answers\" button (shown only where progress is kept), or everything the page's site keeps by clearing the site's data in the browser; a page clears a widget's with its forgetProgress() method. Where the browser refuses storage (a privacy setting, a private window) or it is full, the widget says so in place (\"Your progress here is not being saved: …\") and everything else works, only nothing is kept; the quiz's option order then follows the quiz's content.",
    ),
  );
}

/** Draws the whole reference into `host`. */
export function renderReference(host: HTMLElement, configs: Configs): void {
  host.replaceChildren(
    el('h2', { id: 'reference' }, '7. Reference'),
    el(
      'p',
      {},
      "Every widget takes the attributes below; changing one after the widget has started draws it again with the new value. A value it cannot use is named in the widget, with what it must be. The same reference is in custom-elements.json, for editors and component catalogues, and in the package's TypeScript types.",
    ),
    ...CONTRACTS.map((c) => widgetReference(c.tag, configs)),
    el('h2', { id: 'data-formats' }, '8. Your own data'),
    el(
      'p',
      {},
      'Questions, exercises and tables of your own go in a child <script type="application/json"> of the element, or in a JSON file named by its src attribute. Data that does not follow the format is refused with a message, in the widget and on the console, that names the field; the rest of the page works on.',
    ),
    ...(Object.keys(SCHEMAS) as SchemaName[]).map(dataFormat),
    learningRecords(),
    savedProgress(),
  );
}
