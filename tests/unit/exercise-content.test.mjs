// The lesson's exercises ask what the reader has to work out, not what the prose above states:
// exercise 1 offers no key width whose top weight the lesson measures for the reader (its scale
// table, the core's default widths, and the widths its text quotes); no best-accuracy guess is
// about a run whose best the text quotes. In every language the exercises ship in.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const LESSON = 'web/src/pages/lesson/';
const files = readdirSync(new URL(`../../${LESSON}`, import.meta.url)).filter((f) =>
  /^exercises(\.[\w-]+)?\.json$/.test(f),
);
const sections = read(`${LESSON}sections.ts`);

/** The widths the lesson's scale table measures: the core's default sweep (scale_sweep.hpp). */
const tableWidths = () => {
  const m = read('core/include/attn/experiments/scale_sweep.hpp').match(
    /d_ks = ATTN_PICK\(\(std::vector<int>\{([\d, ]+)\}\)/,
  );
  assert.ok(m, 'the default widths are found in scale_sweep.hpp');
  return m[1].split(',').map(Number);
};
/** The widths whose unscaled top weight the lesson's text quotes ({sweep.maxUnscaled.<d_k>}). */
const quotedWidths = () => [...sections.matchAll(/\{sweep\.maxUnscaled\.(\d+)/g)].map((m) => Number(m[1]));

test('the lesson measures the top weight at some widths (the rule below has something to hold)', () => {
  assert.ok(tableWidths().length >= 3);
  assert.ok(quotedWidths().length >= 2);
});

for (const file of files) {
  const { exercises } = JSON.parse(read(`${LESSON}${file}`));

  test(`${file}: the saturation guess is at widths the lesson does not measure for the reader`, () => {
    const given = new Set([...tableWidths(), ...quotedWidths()]);
    const tasks = exercises.filter((x) => x.kind === 'predict-max-weight');
    assert.ok(tasks.length > 0);
    for (const x of tasks)
      assert.deepEqual(
        x.params.dks.filter((d) => given.has(d)),
        [],
        `${x.id}: widths whose weight the lesson shows`,
      );
  });

  test(`${file}: no best-accuracy guess about a run whose best the text quotes`, () => {
    for (const x of exercises.filter((t) => t.kind === 'one-block-heads'))
      assert.ok(
        !sections.includes(`{oneBlock.heads${x.params.heads}.best`),
        `${x.id}: the text quotes the ${x.params.heads}-head run's best`,
      );
    // The task that replaced such a guess asks when the run climbs, which the text does not say.
    const climbs = exercises.filter((t) => t.kind === 'one-block-climb');
    assert.equal(climbs.length, 1);
    assert.doesNotMatch(sections, /\{oneBlock\.\w+\.(firstReach|climb)/);
  });
}
