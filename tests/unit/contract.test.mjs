// A widget's contract read in node: attribute parsing with errors that name the attribute, what it
// must be and what it got; the phrases, defaults and descriptions the guide and the manifest show.
// The core's fields here are written for the test (the real ones come from core.configs, which
// the engine suites check in browsers); what is tested is how a field's kind and range are read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AuthorError,
  attributeSpec,
  attributeText,
  attributesOf,
  defaultText,
  descriptionOf,
  divisorsOf,
  formatValue,
  parseAttribute,
  propertyName,
  valuePhrase,
} from '../../web/src/widgets/element/contract.ts';
import { CONTRACTS } from '../../web/src/widgets/element/contracts.ts';
import { TAGS } from '../../web/src/widgets/element/tags.ts';

const field = (key, kind, more = {}) => ({
  key,
  kind,
  flag: key,
  help: `the ${key} of the test`,
  min: 1,
  max: 64,
  openMin: false,
  openMax: false,
  maxCount: 0,
  ...more,
});
const configs = {
  scaleSweep: {
    defaults: { draws: 200, dims: [4, 16], share: 0.5, scale: true },
    fields: [
      field('draws', 'integer', { max: 100000 }),
      field('dims', 'integers', { max: 512, maxCount: 3 }),
      field('share', 'number', { min: 0, max: 1, openMin: true }),
      field('scale', 'boolean', { min: 0, max: 1 }),
    ],
  },
};
const core = (key, more = {}) => ({ name: key, core: { config: 'scaleSweep', key }, ...more });
const BASE = 'https://course.example.org/unit/page.html';
const parse = (spec, raw) => parseAttribute(spec, raw, configs, BASE);
const fails = (spec, raw, message) =>
  assert.throws(
    () => parse(spec, raw),
    (error) => error instanceof AuthorError && error.message === message,
  );

test("a core attribute: whole numbers in the core's range, or the widget's tighter cap", () => {
  const draws = core('draws', { cap: 5000, capReason: 'what the table can show' });
  assert.equal(parse(draws, '500'), 500);
  assert.equal(parse(draws, ' 5000 '), 5000);
  fails(draws, '5001', 'draws must be a whole number in [1, 5000], got "5001"');
  fails(draws, '1.5', 'draws must be a whole number in [1, 5000], got "1.5"');
  fails(draws, '0', 'draws must be a whole number in [1, 5000], got "0"');
  assert.equal(parse(core('draws'), '100000'), 100000);
});

test('a core attribute: numbers with an open end, booleans, lists of whole numbers', () => {
  assert.equal(parse(core('share'), '1'), 1);
  assert.equal(parse(core('share'), '1e-3'), 0.001);
  fails(core('share'), '0', 'share must be a number in (0, 1], got "0"');
  assert.equal(parse(core('scale'), 'true'), true);
  assert.equal(parse(core('scale'), 'false'), false);
  fails(core('scale'), 'yes', 'scale must be true or false (written without a value: true), got "yes"');
  assert.deepEqual(parse(core('dims'), '4, 16,512'), [4, 16, 512]);
  fails(
    core('dims'),
    '1,2,3,4',
    'dims must be whole numbers separated by commas, 1 to 3 of them, each in [1, 512], got "1,2,3,4"',
  );
  fails(
    core('dims'),
    '4,,16',
    'dims must be whole numbers separated by commas, 1 to 3 of them, each in [1, 512], got "4,,16"',
  );
});

test("the widget's own attributes: number, enum, text, url, iri, points, point", () => {
  const own = (type, more = {}) => ({ name: 'x', type, description: 'x', ...more });
  assert.equal(parse(own('number', { min: -2, max: 2 }), '-1.25'), -1.25);
  fails(own('number', { min: -2, max: 2 }), '3', 'x must be a number in [-2, 2], got "3"');
  assert.equal(parse(own('enum', { values: [1, 2, 4] }), '4'), 4);
  assert.equal(parse(own('enum', { values: ['on', 'off'] }), 'off'), 'off');
  fails(own('enum', { values: ['on', 'off'] }), 'maybe', 'x must be one of on, off, got "maybe"');
  assert.equal(parse(own('text', { pattern: '[a-z]+', format: 'lower-case letters' }), 'abc'), 'abc');
  fails(
    own('text', { pattern: '[a-z]+', format: 'lower-case letters' }),
    'abc1',
    'x must be lower-case letters, got "abc1"',
  );
  assert.equal(parse(own('url'), 'quiz.json'), 'quiz.json');
  assert.equal(parse(own('url'), 'https://assets.example.org/q.json'), 'https://assets.example.org/q.json');
  fails(
    own('url'),
    'javascript:alert(1)',
    'x must be an http(s) address, absolute or relative to the page, got "javascript:alert(1)"',
  );
  fails(own('url'), '', 'x must be an http(s) address, absolute or relative to the page, got ""');
  assert.equal(parse(own('iri'), 'https://example.com/course/quiz-1'), 'https://example.com/course/quiz-1');
  fails(own('iri'), 'quiz-1', 'x must be an absolute IRI, such as https://example.com/course/quiz-1, got "quiz-1"');
  assert.deepEqual(parse(own('points', { maxCount: 2 }), '[[0, 1], [2.5, -3]]'), [
    [0, 1],
    [2.5, -3],
  ]);
  fails(
    own('points', { maxCount: 2 }),
    '[[0,1],[2,3],[4,5]]',
    'x must be a JSON list of 1 to 2 [x, y] pairs of numbers, got "[[0,1],[2,3],[4,5]]"',
  );
  fails(
    own('points', { maxCount: 2 }),
    '[[0,1,2]]',
    'x must be a JSON list of 1 to 2 [x, y] pairs of numbers, got "[[0,1,2]]"',
  );
  assert.deepEqual(parse(own('point'), '0.4, 1.2'), [0.4, 1.2]);
  assert.deepEqual(parse(own('point'), '[0.4,1.2]'), [0.4, 1.2]);
  fails(own('point'), 'a, b', 'x must be two numbers "x, y", got "a, b"');
});

test('a long bad value is cut to 60 characters in the message', () => {
  const raw = '9'.repeat(80);
  fails(core('draws'), raw, `draws must be a whole number in [1, 100000], got "${'9'.repeat(60)}…"`);
});

test('phrases, defaults and descriptions as the guide and custom-elements.json show them', () => {
  const draws = core('draws', {
    cap: 5000,
    capReason: 'what the table can show',
    note: 'More draws, steadier numbers.',
  });
  assert.equal(valuePhrase(draws, configs), 'a whole number in [1, 5000]');
  assert.equal(
    descriptionOf(draws, configs),
    'The draws of the test. More draws, steadier numbers. At most 5000 here: what the table can show.',
  );
  assert.equal(defaultText(draws, configs), '200');
  assert.equal(defaultText(core('dims'), configs), '4,16');
  assert.equal(defaultText({ name: 'theme', type: 'enum', values: ['light'], description: 'd' }, configs), undefined);
  assert.equal(formatValue([0.4, 1.2]), '0.40,1.20');
  assert.equal(formatValue([4, 16]), '4,16');
  assert.equal(formatValue('auto'), 'auto');
  assert.equal(formatValue([[0, 1]]), '[[0,1]]');
});

test('attributeSpec names the attribute a contract lacks', () => {
  const contract = { tag: 'attn-test', attributes: [core('draws')] };
  assert.equal(attributeSpec(contract, 'draws').name, 'draws');
  assert.throws(() => attributeSpec(contract, 'seed'), /attn-test has no attribute seed/);
});

test('a boolean attribute follows HTML: written without a value it is true', () => {
  assert.equal(parse(core('scale'), ''), true);
  assert.equal(parse(core('scale'), ' '), true);
  fails(core('draws'), '', 'draws must be a whole number in [1, 100000], got ""');
  // the URL hash and the reader's overrides keep a boolean as formatValue writes it
  assert.equal(parse(core('scale'), formatValue(false)), false);
  assert.equal(parse(core('scale'), formatValue(true)), true);
});

test('the attribute text a property writes: null removes it, a boolean by presence', () => {
  assert.equal(attributeText(null, undefined), null);
  assert.equal(attributeText(undefined, 5), null);
  assert.equal(attributeText(true, false), '');
  assert.equal(attributeText(false, false), null, 'false where the default is false: no attribute');
  assert.equal(attributeText(false, true), 'false', 'false where the default is true: written');
  assert.equal(attributeText(false, undefined), 'false', 'false where the default is not known yet: written');
  assert.equal(attributeText(7, 1), '7');
  assert.equal(attributeText([4, 16], undefined), '4,16');
  assert.equal(attributeText([-1, 0.5], undefined), '-1.00,0.50');
  assert.equal(attributeText([[0, 1]], undefined), '[[0,1]]');
  assert.equal(attributeText('dark', undefined), 'dark');
});

test("every attribute's property: camelCase, one per attribute, a JavaScript name", () => {
  assert.equal(propertyName('state-key'), 'stateKey');
  assert.equal(propertyName('d-model'), 'dModel');
  assert.equal(propertyName('activity-id'), 'activityId');
  assert.equal(propertyName('patch-positions'), 'patchPositions');
  assert.equal(propertyName('seed'), 'seed');
  for (const contract of CONTRACTS) {
    const names = attributesOf(contract).map((a) => propertyName(a.name));
    assert.equal(new Set(names).size, names.length, `${contract.tag}: distinct properties`);
    for (const name of names) assert.match(name, /^[a-z][A-Za-z0-9]*$/, `${contract.tag}.${name}`);
    for (const p of contract.properties ?? []) assert.ok(!names.includes(p.name), `${contract.tag}.${p.name}`);
  }
});

test('every contract takes its tag from the one list of tags', () => {
  assert.deepEqual(CONTRACTS.map((c) => c.tag).sort(), Object.values(TAGS).sort());
});

test('a field that must divide another (FieldSpec.divides): only the divisors of its default, in range, named in the error', () => {
  const divides = {
    cueTrain: {
      defaults: { heads: 1, dModel: 12 },
      fields: [field('heads', 'integer', { max: 256, divides: 'dModel' }), field('dModel', 'integer', { divides: '' })],
    },
  };
  const heads = { name: 'heads', core: { config: 'cueTrain', key: 'heads' } };
  assert.deepEqual(divisorsOf(heads, divides), { size: 12, other: 'dModel', divisors: [1, 2, 3, 4, 6, 12] });
  assert.equal(parseAttribute(heads, '6', divides, BASE), 6);
  assert.throws(
    () => parseAttribute(heads, '5', divides, BASE),
    (error) =>
      error instanceof AuthorError &&
      error.message === 'heads must be a divisor of 12: 1, 2, 3, 4, 6, 12, got "5"' &&
      error.said.parts.expected.key === 'valueDivisor' &&
      error.said.parts.expected.params.values === '1, 2, 3, 4, 6, 12',
  );
  assert.equal(valuePhrase(heads, divides), 'a divisor of 12: 1, 2, 3, 4, 6, 12');
  // the widget's cap keeps the divisors within it
  const capped = { ...heads, cap: 4, capReason: 'room' };
  assert.deepEqual(divisorsOf(capped, divides).divisors, [1, 2, 3, 4]);
  assert.throws(() => parseAttribute(capped, '6', divides, BASE), /divisor of 12: 1, 2, 3, 4, got "6"/);
  // a field without the relation reads as before
  const width = { name: 'd-model', core: { config: 'cueTrain', key: 'dModel' } };
  assert.equal(divisorsOf(width, divides), undefined);
  assert.equal(parseAttribute(width, '5', divides, BASE), 5);
});
