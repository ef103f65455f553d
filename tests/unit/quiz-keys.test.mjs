// The lesson's quiz, in every language it ships in, does not give its keys away by their length:
// the right option is strictly the longest in at most a quarter of the questions (LONGEST_SHARE)
// and never more than 1.3 times its question's median option length (MEDIAN_RATIO). Lengths as
// read (key-lengths.ts: placeholders as a short number, TeX without markup).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  keyLengths,
  keysFair,
  keysGiveAway,
  LONGEST_SHARE,
  MEDIAN_RATIO,
  readLength,
} from '../../web/src/widgets/quiz/key-lengths.ts';

const LESSON = new URL('../../web/src/pages/lesson/', import.meta.url);
const quizFiles = readdirSync(LESSON).filter((f) => /^quiz(\.[\w-]+)?\.json$/.test(f));

test('the lesson ships its quiz in English and in at least one translation', () => {
  assert.ok(quizFiles.includes('quiz.json'));
  assert.ok(quizFiles.length >= 2, quizFiles.join(', '));
});

for (const file of quizFiles)
  test(`${file}: keys not the longest in more than ${LONGEST_SHARE} of the questions, nor over ${MEDIAN_RATIO}x the median`, () => {
    const { questions } = JSON.parse(readFileSync(new URL(file, LESSON), 'utf8'));
    const k = keyLengths(questions);
    assert.equal(k.questions, questions.length, 'every question has a key');
    assert.ok(
      k.keyLongest.length <= k.questions * LONGEST_SHARE,
      `key longest in ${k.keyLongest.length} of ${k.questions}: ${k.keyLongest.join(', ')}`,
    );
    assert.ok(k.worstRatio <= MEDIAN_RATIO, `key ${k.worstRatio.toFixed(2)}x the median in ${k.worstId}`);
    assert.ok(keysFair(k));
    assert.equal(keysGiveAway(k), false);
  });

test('a quiz whose key is always the longest breaks the rule, and the author is warned', () => {
  const q = (id, key, ...others) => ({
    id,
    options: [{ text: key, correct: true }, ...others.map((text) => ({ text, correct: false }))],
  });
  const k = keyLengths([
    q('a', 'A long and careful right answer with detail', 'Short one', 'Another short'),
    q('b', 'The right answer, spelled out in full here', 'Nope', 'Not this'),
    q('c', 'Tiny', 'A distractor as long as any key could be', 'Other'),
  ]);
  assert.deepEqual(k.keyLongest, ['a', 'b']);
  assert.equal(k.worstId, 'b');
  assert.ok(k.worstRatio > 4);
  assert.equal(keysFair(k), false);
  assert.equal(keysGiveAway(k), true);
  // Two questions are too few to warn about.
  assert.equal(keysGiveAway(keyLengths([q('x', 'long long key', 'a'), q('y', 'long key', 'b')])), false);
});

test('length as read: a placeholder is a short number, TeX loses its markup', () => {
  assert.equal(readLength('top weight {sweep.maxUnscaled.256:4}'), 'top weight 0.00'.length);
  assert.equal(readLength('divide by $\\sqrt{d_k}$'), 'divide by dk'.length);
  assert.equal(readLength('  two   spaces '), 'two spaces'.length);
});
