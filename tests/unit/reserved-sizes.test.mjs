// The height a lesson widget reserves (web/src/pages/lesson/reserved-sizes.ts): at a measured
// width, that width's; between two, the taller of the two; outside the table, its nearest end;
// nothing for a widget or a width the table cannot say; in a language not measured, the tallest
// of the measured ones. And the lesson's table covers every widget the lesson shows in every
// shipped language.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { reservedHeight } from '../../web/src/pages/lesson/reserved-sizes.ts';
import { sections } from '../../web/src/pages/lesson/sections.ts';
import { SHIPPED } from '../../web/src/common/language.ts';

const table = {
  widths: [300, 400, 500],
  heights: { en: { 'attn-a': [900, 600, 700] }, es: { 'attn-a': [800, 650, 750] } },
};

test('a measured width reserves its own height; between two, the taller', () => {
  assert.equal(reservedHeight('attn-a', 400, 'en', table), 600);
  assert.equal(reservedHeight('attn-a', 350, 'en', table), 900); // the narrower is taller (text wraps)
  assert.equal(reservedHeight('attn-a', 450, 'en', table), 700); // the wider is taller (a drawing scales)
});

test('outside the table the nearest end; an unknown widget or no width reserves nothing', () => {
  assert.equal(reservedHeight('attn-a', 250, 'en', table), 900);
  assert.equal(reservedHeight('attn-a', 900, 'en', table), 700);
  assert.equal(reservedHeight('attn-b', 400, 'en', table), undefined);
  assert.equal(reservedHeight('attn-a', 0, 'en', table), undefined);
  assert.equal(reservedHeight('attn-a', Number.NaN, 'en', table), undefined);
});

test('a language not measured reserves the tallest of the measured ones', () => {
  assert.equal(reservedHeight('attn-a', 400, 'es', table), 650);
  assert.equal(reservedHeight('attn-a', 300, 'en-XA', table), 900);
  assert.equal(reservedHeight('attn-a', 400, 'en-XA', table), 650);
  assert.equal(reservedHeight('attn-a', 500, 'ar-XB', table), 750);
});

test("the lesson's table has a height for each of its widgets at each width", () => {
  const lesson = JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../web/src/pages/lesson/widget-heights.json'), 'utf8'),
  );
  const tags = [];
  const visit = (block) => {
    if (block.kind === 'widget') tags.push(block.tag);
    for (const inner of block.blocks ?? []) visit(inner);
  };
  for (const section of sections) section.blocks.forEach(visit);
  assert.deepEqual(Object.keys(lesson.heights).sort(), [...SHIPPED].sort());
  for (const language of SHIPPED) {
    assert.deepEqual(Object.keys(lesson.heights[language]).sort(), [...new Set(tags)].sort(), language);
    for (const tag of tags) assert.equal(lesson.heights[language][tag].length, lesson.widths.length, tag);
  }
});
