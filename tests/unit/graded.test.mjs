// The quiz's option order (option-order.ts) and what the quiz and the exercises keep of the
// reader's answers (saved-answers.ts), in node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { hashText, optionOrder } from '../../web/src/widgets/quiz/option-order.ts';
import { OUTCOME, readAnswers, readTasks } from '../../web/src/widgets/element/saved-answers.ts';

const lessonQuiz = (name) =>
  JSON.parse(readFileSync(new URL(`../../web/src/pages/lesson/${name}`, import.meta.url), 'utf8'));
const isPermutation = (order, n) => order.length === n && [...order].sort((a, b) => a - b).every((v, i) => v === i);

test('optionOrder: a permutation of the options, the same for the same seed and question', () => {
  for (const n of [1, 2, 3, 4, 8]) {
    for (const seed of ['learner:mailto:a@example.com', 'k3v9q2xa', 'content:123']) {
      const order = optionOrder(n, seed, 'q1');
      assert.ok(isPermutation(order, n), `${n} options, ${seed}: ${order}`);
      assert.deepEqual(optionOrder(n, seed, 'q1'), order, 'stable');
    }
  }
});

test('optionOrder: different seeds and questions give different orders; every position is reached', () => {
  const orders = new Set();
  const firstShown = new Map();
  for (let i = 0; i < 200; i++) {
    const order = optionOrder(4, `seed-${i}`, 'q');
    orders.add(order.join(''));
    firstShown.set(order[0], (firstShown.get(order[0]) ?? 0) + 1);
  }
  // 200 seeds over the 24 orders of 4 options: all of them, each option first about a quarter of the time.
  assert.equal(orders.size, 24);
  for (const option of [0, 1, 2, 3])
    assert.ok(firstShown.get(option) > 25, `option ${option} first ${firstShown.get(option)} times`);
  const byQuestion = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((q) => optionOrder(4, 'one seed', q).join('')));
  assert.ok(byQuestion.size > 1, 'questions of one quiz differ');
  assert.notEqual(hashText('a'), hashText('b'));
});

test("the lesson's quizzes, shuffled by their content: the right answer is not always in one place", () => {
  for (const name of ['quiz.json', 'quiz.es.json']) {
    const quiz = lessonQuiz(name);
    const seed = `content:${hashText(JSON.stringify(quiz.questions))}`;
    const places = quiz.questions.map((q) => {
      const right = q.options.findIndex((o) => o.correct);
      return optionOrder(q.options.length, seed, q.id).indexOf(right);
    });
    assert.ok(
      quiz.questions.every((q) => q.options.findIndex((o) => o.correct) === 1),
      `${name}: as authored, the right answer is always the second`,
    );
    assert.ok(new Set(places).size > 1, `${name}: shown at ${places}`);
  }
});

test('saved quiz answers: a compact round trip through JSON; entries that no longer fit are dropped alone', () => {
  const questions = lessonQuiz('quiz.json').questions;
  const kept = {
    scale: [1, OUTCOME.right, 1],
    masks: [0, OUTCOME.wrong, 2],
    depth: [-1, OUTCOME.revealed, 1],
    evidence: [-1, OUTCOME.none, 1],
  };
  const text = JSON.stringify(kept);
  const { answers, dropped } = readAnswers(JSON.parse(text), questions);
  assert.equal(dropped, false);
  assert.deepEqual(Object.fromEntries(answers), kept);
  // 50 questions (the schema's most) with long-ish ids stay far inside SCORM 1.2's 4,096 characters.
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`question-${i}`, [3, OUTCOME.wrong, 12]]));
  assert.ok(JSON.stringify({ answers: many, seed: 'k3v9q2xa' }).length < 1200);

  const changed = readAnswers(
    {
      ...kept,
      gone: [1, OUTCOME.right, 1], // no such question
      heads: [0, OUTCOME.right, 1], // option 0 is not the right one
      evidence: [7, OUTCOME.wrong, 1], // no option 7
    },
    questions,
  );
  assert.equal(changed.dropped, true);
  assert.deepEqual([...changed.answers.keys()].sort(), ['depth', 'masks', 'scale']);
  for (const bad of [null, 'text', [1, 2, 3], { scale: 'x' }, { scale: [1, 1] }, { scale: [1.5, 1, 1] }])
    assert.equal(readAnswers(bad, questions).answers.size, 0, JSON.stringify(bad));
});

test('saved exercise answers: a round trip; an entry of another shape or a gone task is dropped alone', () => {
  const shapes = new Map([
    ['mask', 1],
    ['count', 1],
    ['predict', 2],
  ]);
  // count: its answer was shown (2), kept as such.
  const kept = { mask: [1, '1000110011101111'], count: [2, '289'], predict: [1, '16', '0,4'] };
  const { tasks, dropped } = readTasks(JSON.parse(JSON.stringify(kept)), shapes);
  assert.equal(dropped, false);
  assert.deepEqual(Object.fromEntries(tasks), kept);
  const changed = readTasks({ ...kept, predict: [1, '16'], gone: [1, '3'], count: [3, '289'] }, shapes);
  assert.equal(changed.dropped, true);
  assert.deepEqual([...changed.tasks.keys()], ['mask']);
});
