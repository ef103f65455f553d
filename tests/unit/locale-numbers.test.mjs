// Numbers written and read by the locale's rules, the plain digits form accepted everywhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLocaleNumber, parseLocaleNumber, separatorsOf } from '../../web/src/common/locale-numbers.ts';

test("each locale's marks: Spanish groups with a point and writes a decimal comma", () => {
  assert.deepEqual(separatorsOf('es'), { decimal: ',', group: '.' });
  assert.deepEqual(separatorsOf('en'), { decimal: '.', group: ',' });
  assert.deepEqual(separatorsOf('zh-CN'), { decimal: '.', group: ',' });
});

test('written: Spanish does not group four digits, English does; fixed decimals when asked', () => {
  assert.equal(formatLocaleNumber(9408, 'es'), '9408');
  assert.equal(formatLocaleNumber(16640, 'es'), '16.640');
  assert.equal(formatLocaleNumber(9408, 'en'), '9,408');
  assert.equal(formatLocaleNumber(0.47171, 'es', 4), '0,4717');
  assert.equal(formatLocaleNumber(0.47171, 'en', 4), '0.4717');
  assert.equal(formatLocaleNumber(0.5, 'zh-CN'), '0.5');
});

test('read in Spanish: "0,5" is a half, "9.408" nine thousand four hundred and eight (said to be ambiguous)', () => {
  assert.deepEqual(parseLocaleNumber('0,5', 'es'), { value: 0.5, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('9.408', 'es'), { value: 9408, form: 'locale', otherValue: 9.408 });
  assert.deepEqual(parseLocaleNumber('1.234,5', 'es'), { value: 1234.5, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('16.640', 'es'), { value: 16640, form: 'locale', otherValue: 16.64 });
});

test('read in English: "9,408" is 9408; the plain form is read in every language', () => {
  assert.deepEqual(parseLocaleNumber('9,408', 'en'), { value: 9408, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('16,640', 'en'), { value: 16640, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('0.5', 'en'), { value: 0.5, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('0.5', 'es'), { value: 0.5, form: 'plain' });
  assert.deepEqual(parseLocaleNumber('9408', 'es'), { value: 9408, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('-2.5e3', 'es'), { value: -2500, form: 'plain' });
  assert.deepEqual(parseLocaleNumber(' 12 ', 'zh-CN'), { value: 12, form: 'locale' });
});

test('read with a space as the group (French): any space the reader types', () => {
  assert.deepEqual(parseLocaleNumber('9 408', 'fr'), { value: 9408, form: 'locale' });
  assert.deepEqual(parseLocaleNumber('9\u202f408,5', 'fr'), { value: 9408.5, form: 'locale' });
});

test('not a number: groups of the wrong size, two decimal marks, words, nothing', () => {
  for (const [text, locale] of [
    ['9,40', 'en'],
    ['1,2,3', 'en'],
    ['0,5,5', 'es'],
    ['9.40.8', 'es'],
    ['abc', 'en'],
    ['', 'es'],
    ['1e999', 'en'],
  ])
    assert.equal(parseLocaleNumber(text, locale), undefined, `${locale}: "${text}"`);
});
