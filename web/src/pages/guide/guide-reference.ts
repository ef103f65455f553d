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
  const common = { element: host, actor: undefined, activity: 'https://example.com/course/attention#attn-quiz-1' };
  const answered = answeredStatement({
    ...common,
    id: 'row-sum',
    name: 'After the softmax, what does each row of attention weights add up to?',
    success: true,
    response: '1',
    choices: ['The number of keys', 'Exactly 1', '√d_k'],
    correctChoice: 1,
  });
  const completed = completedStatement({ ...common, name: 'Attention basics', score: 1, total: 2 });
  return el(
    'section',
    { 'aria-labelledby': 'records' },
    el('h3', { id: 'records' }, 'Learning records (xAPI)'),
    el(
      'p',
      {},
      'The quiz and the exercises describe what the reader does as xAPI 1.0.3 statements, in the detail of their events (detail.statement), so an LMS or a learning record store can take them as they are: one "answered" statement (verb http://adlnet.gov/expapi/verbs/answered) for each question or exercise checked, and one "completed" (http://adlnet.gov/expapi/verbs/completed) when every question of a quiz has been answered or revealed, or every exercise of a set checked. result.success says whether the answer, or every answer, was right; result.score has raw, min, max and scaled in [0, 1].',
    ),
    el(
      'p',
      {},
      'The activity id is the widget\'s activity-id attribute, else the page\'s address without its hash followed by "#" and the element\'s id (or its tag and its place on the page, "#attn-quiz-1"); a question\'s or exercise\'s id is that id, "/" and its own id, with the widget\'s id as its parent in context.contextActivities. Texts carry the language of the nearest lang attribute ("und" without one).',
    ),
    el(
      'p',
      {},
      'The statements carry no actor of their own: set the element\'s actor property to an xAPI Agent ({ mbox: "mailto:…" } or { account: { homePage, name } }) and they carry it; without it the LMS or LRS that stores them adds the learner. They have no id (the store assigns one) and a timestamp in ISO 8601, UTC.',
    ),
    el('p', {}, 'An "answered" statement:'),
    json(answered),
    el('p', {}, 'A "completed" statement:'),
    json(completed),
  );
}

/** Draws the whole reference into `host`. */
export function renderReference(host: HTMLElement, configs: Configs): void {
  host.replaceChildren(
    el('h2', { id: 'reference' }, '6. Reference'),
    el(
      'p',
      {},
      "Every widget takes the attributes below; changing one after the widget has started draws it again with the new value. A value it cannot use is named in the widget, with what it must be. The same reference is in custom-elements.json, for editors and component catalogues, and in the package's TypeScript types.",
    ),
    ...CONTRACTS.map((c) => widgetReference(c.tag, configs)),
    el('h2', { id: 'data-formats' }, '7. Your own data'),
    el(
      'p',
      {},
      'Questions, exercises and tables of your own go in a child <script type="application/json"> of the element, or in a JSON file named by its src attribute. Data that does not follow the format is refused with a message, in the widget and on the console, that names the field; the rest of the page works on.',
    ),
    ...(Object.keys(SCHEMAS) as SchemaName[]).map(dataFormat),
    learningRecords(),
  );
}
