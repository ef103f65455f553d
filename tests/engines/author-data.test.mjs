// Author data that does not follow its schema (web/src/schemas/), in each engine: one case per
// kind of problem the validator can find, each named in the widget and on the console with the
// field it concerns; bad attributes likewise (those the core refuses too, in the attributes'
// names); and the rest of the page keeps working. Run after
// `npm run build`: node --test tests/engines/author-data.test.mjs
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { widgetPageSuites } from './widget-page/suite.mjs';

const option = (text, correct) => ({ text, correct, feedback: `${text}: feedback` });
const question = (id, options = [option('no', false), option('yes', true)]) => ({
  id,
  prompt: `Question ${id}?`,
  options,
});
const quiz = (...questions) => ({ questions });
const exercise = (kind, params) => ({ exercises: [{ id: 'x', kind, title: 'Task', prompt: 'Do it.', params }] });
// The kinds as the schema lists them: the message must name every one.
const KINDS = JSON.parse(
  readFileSync(new URL('../../web/src/schemas/exercises.schema.json', import.meta.url), 'utf8'),
).$defs.exercise.properties.kind.enum.join(', ');

// [what is wrong, tag, attributes, inline data (a value, or raw text), the message after "<tag>: "]
const CASES = [
  [
    'no quiz data at all',
    'attn-quiz',
    {},
    null,
    'no questions: give them as a child <script type="application/json"> or with src (schemas/quiz.schema.json)',
  ],
  [
    'no exercise data at all',
    'attn-exercises',
    {},
    null,
    'no tasks: give them as a child <script type="application/json"> or with src (schemas/exercises.schema.json)',
  ],
  [
    'a wrong type',
    'attn-quiz',
    {},
    quiz(
      question('a'),
      question('b'),
      question('c', [option('no', false), { ...option('yes', true), correct: 'yes' }]),
    ),
    'quiz data (inline): questions[2].options[1].correct must be true or false, got "yes"',
  ],
  [
    'a missing field',
    'attn-quiz',
    {},
    quiz({ id: 'a', options: question('a').options }),
    'quiz data (inline): questions[0] needs "prompt"',
  ],
  [
    'an unknown field',
    'attn-quiz',
    {},
    quiz(question('a', [option('no', false), { ...option('yes', true), hint: 'look up' }])),
    'quiz data (inline): questions[0].options[1].hint is not a field this format knows',
  ],
  [
    'too few entries',
    'attn-quiz',
    {},
    quiz(question('a', [option('yes', true)])),
    'quiz data (inline): questions[0].options must hold 2 to 8 entries, got 1',
  ],
  [
    'too many entries',
    'attn-quiz',
    {},
    quiz(...Array.from({ length: 51 }, (_, i) => question(`q${i}`))),
    'quiz data (inline): questions must hold 1 to 50 entries, got 51',
  ],
  [
    'an empty text',
    'attn-quiz',
    {},
    quiz({ ...question('a'), prompt: '' }),
    'quiz data (inline): questions[0].prompt must be text of 1 to 2000 characters, got 0',
  ],
  [
    'a text too long',
    'attn-quiz',
    {},
    quiz(question('x'.repeat(101))),
    'quiz data (inline): questions[0].id must be text of 1 to 100 characters, got 101',
  ],
  [
    'no right option',
    'attn-quiz',
    {},
    quiz(question('a'), question('b', [option('no', false), option('nor', false)])),
    'quiz data (inline): questions[1].options must have exactly 1 option with "correct": true',
  ],
  [
    'two right options',
    'attn-quiz',
    {},
    quiz(question('a', [option('yes', true), option('also', true)])),
    'quiz data (inline): questions[0].options must have exactly 1 option with "correct": true',
  ],
  [
    'a repeated question id',
    'attn-quiz',
    {},
    quiz(question('a'), question('b'), question('a')),
    'quiz data (inline): questions[2].id "a" is the id of questions[0] too; ids must be unique',
  ],
  ['not an object', 'attn-quiz', {}, [], 'quiz data (inline): the data must be an object, got []'],
  ['not JSON', 'attn-quiz', {}, '{"questions": [', /^quiz data \(inline\) is not JSON: /],
  [
    'a file that is not there',
    'attn-quiz',
    { src: 'missing-on-purpose.json' },
    undefined,
    'quiz data: missing-on-purpose.json answered 404',
  ],
  [
    'a value outside a list',
    'attn-exercises',
    {},
    exercise('guess', {}),
    `exercises data (inline): exercises[0].kind must be one of ${KINDS}, got "guess"`,
  ],
  [
    'a number outside its range',
    'attn-exercises',
    {},
    exercise('build-mask', { size: 40, fraction: 0.5 }),
    'exercises data (inline): exercises[0].params.size must be in [1, 12], got 40',
  ],
  [
    'a number at an open end',
    'attn-exercises',
    {},
    exercise('predict-max-weight', { dks: [4], tokens: 8, draws: 10, tolerance: 0 }),
    'exercises data (inline): exercises[0].params.tolerance must be in (0, 1], got 0',
  ],
  [
    'a cell that is neither number nor text',
    'attn-ranked-table',
    {},
    { columns: [{ key: 'a', label: 'A' }], rows: [{ a: 1 }, { a: true }] },
    'table data (inline): rows[1].a must be a number or text of at most 200 characters, got true',
  ],
  [
    "an attribute outside the core's range",
    'attn-mask-figure',
    { positions: '0' },
    undefined,
    'attribute positions must be a whole number in [1, 32], got "0"',
  ],
  [
    'an attribute that is not a number',
    'attn-heads-figure',
    { tokens: 'many' },
    undefined,
    'attribute tokens must be a whole number in [1, 256], got "many"',
  ],
  [
    'an attribute outside its list',
    'attn-soft-lookup',
    { temperature: '3' },
    undefined,
    'attribute temperature must be one of 0.25, 0.5, 1, 2, 4, got "3"',
  ],
  [
    'a whole-number attribute given a fraction',
    'attn-quiz',
    { attempts: '1.5' },
    quiz(question('a')),
    'attribute attempts must be a whole number in [0, 99], got "1.5"',
  ],
  [
    'a registration that is not a UUID',
    'attn-exercises',
    { registration: 'attempt-1' },
    exercise('count-parameters', { dModel: 4, numHeads: 2 }),
    'attribute registration must be a UUID, such as 0f8fad5b-d9cb-469f-a165-70867728950e, got "attempt-1"',
  ],
  [
    'an attribute in the wrong form',
    'attn-soft-lookup',
    { query: '1; 2' },
    undefined,
    'attribute query must be two numbers "x, y", got "1; 2"',
  ],
  [
    'a sequence the trained task cannot take',
    'attn-cue-probe',
    { sequence: '1,2,CUE' },
    undefined,
    'attribute sequence must have 9 tokens (the query\'s CUE is added), got "1,2,CUE"',
  ],
  [
    'a sequence without its cue',
    'attn-cue-probe',
    { sequence: '1,2,3,4,5,6,0,1,2' },
    undefined,
    'attribute sequence must hold exactly one CUE, got "1,2,3,4,5,6,0,1,2"',
  ],
  [
    'a sequence in the wrong form',
    'attn-cue-probe',
    { sequence: '1;2' },
    undefined,
    'attribute sequence must be the body of the sequence: symbols (whole numbers) and one CUE, separated by commas, got "1;2"',
  ],
  [
    'an example larger than the steps lay out',
    'attn-attention-steps',
    { tokens: '9' },
    undefined,
    'attribute tokens must be a whole number in [3, 6], got "9"',
  ],
  [
    'a sort key the table lacks',
    'attn-ranked-table',
    { sort: 'nope' },
    undefined,
    'attribute sort must be the key of one of the columns (dk, maxUnscaled, maxScaled, entropyUnscaled, entropyScaled), got "nope"',
  ],
  [
    'attributes the core refuses together, named as attributes',
    'attn-heads-figure',
    { 'd-model': '64', heads: '5' },
    undefined,
    'attribute heads must divide d-model = 64, got 5',
  ],
];

widgetPageSuites((context) => {
  before(async () => {
    // Every case on one page, each widget in its own box; the console's warnings recorded.
    await context.page.run(
      (cases) => {
        window.warnings = [];
        const warn = console.warn;
        console.warn = (...args) => {
          window.warnings.push(args.join(' '));
          warn.apply(console, args);
        };
        for (const [what, tag, attrs, data] of cases) {
          const widget = document.createElement(tag);
          widget.dataset.case = what;
          for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
          if (data !== null) {
            const script = document.createElement('script');
            script.type = 'application/json';
            script.textContent = typeof data === 'string' ? data : JSON.stringify(data);
            widget.append(script);
          }
          document.getElementById('stage').append(widget);
        }
      },
      CASES.map(([what, tag, attrs, data]) => [what, tag, attrs, data ?? null]),
    );
  });

  for (const [what, tag, , , message] of CASES) {
    test(`${what}: named in the widget and on the console`, async () => {
      const { page } = context;
      const shown = await page.waitFor((what) => {
        const widget = document.querySelector(`[data-case="${what}"]`);
        widget.scrollIntoView({ block: 'center', behavior: 'instant' });
        return widget.querySelector(':scope > p.attn-error[role=alert]')?.textContent;
      }, what);
      const expected =
        message instanceof RegExp
          ? new RegExp(`^<${tag}>: ${message.source.slice(1)}`)
          : new RegExp(`^${`<${tag}>: ${message}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      assert.match(shown, expected);
      const warned = await page.run((shown) => window.warnings.includes(shown), shown);
      assert.ok(warned, `the console says it too: ${shown}`);
    });
  }

  test('the rest of the page works: a good quiz after the bad ones answers', async () => {
    const { page } = context;
    await page.run(() => {
      const good = document.createElement('attn-quiz');
      good.id = 'good';
      good.setAttribute('src', 'quiz-b.json');
      document.getElementById('stage').append(good);
      good.scrollIntoView({ block: 'center', behavior: 'instant' });
    });
    await page.waitFor(() => document.getElementById('good').hasAttribute('data-ready'));
    await page.click('#good input[value="0"]');
    await page.click('#good .attn-controls button:first-child');
    assert.match(await page.waitFor(() => document.querySelector('#good .feedback').textContent), /^Correct\./);
    // The one failed request is the missing file on purpose; nothing else went wrong.
    assert.deepEqual(
      (await page.problems()).filter((p) => !p.includes('missing-on-purpose.json') && !/status of 404/.test(p)),
      [],
    );
  });
});
