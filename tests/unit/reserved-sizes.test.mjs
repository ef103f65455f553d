// The height a lesson widget reserves (web/src/pages/lesson/reserved-sizes.ts): at a measured
// width, that width's; between two, the taller of the two; outside the table, its nearest end;
// nothing for a widget or a width the table cannot say. And the lesson's table covers every
// widget the lesson shows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { reservedHeight } from '../../web/src/pages/lesson/reserved-sizes.ts';
import { sections } from '../../web/src/pages/lesson/sections.ts';

const table = { widths: [300, 400, 500], heights: { 'attn-a': [900, 600, 700] } };

test('a measured width reserves its own height; between two, the taller', () => {
  assert.equal(reservedHeight('attn-a', 400, table), 600);
  assert.equal(reservedHeight('attn-a', 350, table), 900); // the narrower is taller (text wraps)
  assert.equal(reservedHeight('attn-a', 450, table), 700); // the wider is taller (a drawing scales)
});

test('outside the table the nearest end; an unknown widget or no width reserves nothing', () => {
  assert.equal(reservedHeight('attn-a', 250, table), 900);
  assert.equal(reservedHeight('attn-a', 900, table), 700);
  assert.equal(reservedHeight('attn-b', 400, table), undefined);
  assert.equal(reservedHeight('attn-a', 0, table), undefined);
  assert.equal(reservedHeight('attn-a', Number.NaN, table), undefined);
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
  assert.deepEqual(Object.keys(lesson.heights).sort(), [...new Set(tags)].sort());
  for (const tag of tags) assert.equal(lesson.heights[tag].length, lesson.widths.length, tag);
});
