// Live numbers in the lesson's text: how a value is written and how placeholders are found.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillLive, formatNumber, splitLive } from '../../web/src/common/live-format.ts';

test('formatNumber: whole numbers with separators, fixed decimals, scientific, non-finite as is', () => {
  assert.equal(formatNumber(9408), '9,408');
  assert.equal(formatNumber(16640), '16,640');
  assert.equal(formatNumber(0.5), '0.5');
  assert.equal(formatNumber(0.47171, '4'), '0.4717');
  assert.equal(formatNumber(3, '2'), '3.00');
  assert.equal(formatNumber(12345.678, 'e'), '1.23e+4');
  assert.equal(formatNumber(Number.NaN), 'NaN');
  assert.equal(formatNumber(-Infinity, '4'), '-Infinity');
});

test('splitLive: literal pieces and live pieces; a placeholder needs a dot, so TeX groups stay text', () => {
  const numbers = { 'sweep.maxUnscaled.256': 0.99871, 'table.draws': 500 };
  assert.deepEqual(splitLive('max {sweep.maxUnscaled.256:4} over {table.draws} draws of {d_k}', numbers), [
    { text: 'max ' },
    { text: '0.9987', key: 'sweep.maxUnscaled.256', format: '4' },
    { text: ' over ' },
    { text: '500', key: 'table.draws', format: undefined },
    { text: ' draws of {d_k}' },
  ]);
});

test('splitLive: a number the core has not produced yet is a marked placeholder', () => {
  assert.deepEqual(splitLive('{cue.loss:e}', {}), [{ text: '…', key: 'cue.loss', format: 'e', missing: true }]);
  assert.deepEqual(splitLive('', {}), []);
});

test('fillLive: every placeholder replaced, the rest (TeX included) untouched', () => {
  assert.equal(
    fillLive('$\\frac{1}{\\sqrt{d_k}} = {scale.of.64:3}$', { 'scale.of.64': 0.125 }),
    '$\\frac{1}{\\sqrt{d_k}} = 0.125$',
  );
});
