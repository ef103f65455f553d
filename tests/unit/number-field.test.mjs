// A widget's number field read by its locale's rules, in range or refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNumberField } from '../../web/src/widgets/shared/number-field.ts';

const COUNT = { min: 0, max: 1e9, integer: true };
const HALF_OPEN = { min: -10, max: 10 };

test('a count: "9,408" in English, "9.408" in Spanish, and "9408" in both are 9408', () => {
  assert.deepEqual(readNumberField('9,408', 'en', COUNT), { ok: true, value: 9408 });
  assert.deepEqual(readNumberField('9408', 'en', COUNT), { ok: true, value: 9408 });
  assert.deepEqual(readNumberField('9408', 'es', COUNT), { ok: true, value: 9408 });
  // Spanish "9.408" could also mean 9.408: the locale's reading wins and the other is told.
  assert.deepEqual(readNumberField('9.408', 'es', COUNT), { ok: true, value: 9408, otherValue: 9.408 });
});

test('"9,408" as people write it: grouped by comma (en, zh-CN), by a space of any width (every language), or not at all', () => {
  for (const language of ['en', 'es', 'zh-CN'])
    for (const typed of ['9408', '9 408', '9\u00a0408', '9\u202f408'])
      assert.deepEqual(readNumberField(typed, language, COUNT), { ok: true, value: 9408 }, `${language} ${typed}`);
  assert.deepEqual(readNumberField('9,408', 'zh-CN', COUNT), { ok: true, value: 9408 });
  // Spanish writes a decimal comma: "9,408" is 9.408, refused as a count (not silently 9408).
  assert.deepEqual(readNumberField('9,408', 'es', COUNT), { ok: false, value: 9.408 });
});

test('a decimal: "0,5" in Spanish and "0.5" everywhere are a half; a true minus sign is a minus', () => {
  assert.deepEqual(readNumberField('0,5', 'es', HALF_OPEN), { ok: true, value: 0.5 });
  assert.deepEqual(readNumberField('0.5', 'es', HALF_OPEN), { ok: true, value: 0.5 });
  assert.deepEqual(readNumberField(' 0.5 ', 'en', HALF_OPEN), { ok: true, value: 0.5 });
  assert.deepEqual(readNumberField('\u22122,5', 'es', HALF_OPEN), { ok: true, value: -2.5 });
  assert.deepEqual(readNumberField('-2.5', 'zh-CN', HALF_OPEN), { ok: true, value: -2.5 });
});

test('refused: not a number, out of range, a fraction where a whole number is asked', () => {
  for (const text of ['', 'abc', '1,2,3', '0,5x'])
    assert.deepEqual(readNumberField(text, 'en', HALF_OPEN), { ok: false }, JSON.stringify(text));
  // Read, but refused: the number it was read as comes back, to be named in the refusal.
  assert.deepEqual(readNumberField('99', 'en', HALF_OPEN), { ok: false, value: 99 });
  assert.deepEqual(readNumberField('10,5', 'es', HALF_OPEN), { ok: false, value: 10.5 });
  assert.deepEqual(readNumberField('9408,5', 'es', COUNT), { ok: false, value: 9408.5 });
  // Spanish "0.500" is five hundred by the locale (out of range); the plain reading is told too.
  assert.deepEqual(readNumberField('0.500', 'es', HALF_OPEN), { ok: false, value: 500, otherValue: 0.5 });
  // English "0,5" is no number (a group of one digit), not a half.
  assert.deepEqual(readNumberField('0,5', 'en', HALF_OPEN), { ok: false });
});

test('a rule whose min exceeds its max is an error naming it', () => {
  assert.throws(
    () => readNumberField('1', 'en', { min: 2, max: 1 }),
    /rule\.min \(2\) must not exceed rule\.max \(1\)/,
  );
});
