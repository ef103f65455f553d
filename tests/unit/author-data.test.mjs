// Author data in node: each format's JSON Schema accepts its example, and the first mistake is one
// sentence that names the field, what it must be and what it got.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCHEMAS, checkAuthorData, fieldPath } from '../../web/src/widgets/element/author-data.ts';

const example = (name) =>
  JSON.parse(readFileSync(new URL(`../../web/src/schemas/examples/${name}.example.json`, import.meta.url), 'utf8'));
const rejects = (name, data, message) =>
  assert.rejects(
    checkAuthorData(name, data, 'inline'),
    (error) => error.name === 'AuthorError' && error.message === message,
  );

test('every format accepts its shipped example as it is', async () => {
  for (const name of Object.keys(SCHEMAS)) {
    const data = example(name);
    assert.equal(await checkAuthorData(name, data, 'inline'), data, name);
  }
});

test("a quiz's mistakes, named by their field", async () => {
  const quiz = example('quiz');
  const withOption = (option) => ({
    ...quiz,
    questions: [quiz.questions[0], { ...quiz.questions[1], options: [quiz.questions[1].options[0], option] }],
  });
  const option = { text: 'A causal mask', correct: true, feedback: 'It blocks every later key.' };
  await rejects(
    'quiz',
    withOption({ ...option, correct: 'yes' }),
    'quiz data (inline): questions[1].options[1].correct must be true or false, got "yes"',
  );
  await rejects(
    'quiz',
    withOption({ correct: option.correct, feedback: option.feedback }),
    'quiz data (inline): questions[1].options[1] needs "text"',
  );
  await rejects(
    'quiz',
    withOption({ ...option, colour: 'red' }),
    'quiz data (inline): questions[1].options[1].colour is not a field this format knows',
  );
  await rejects('quiz', { ...quiz, questions: 'none' }, 'quiz data (inline): questions must be a list, got "none"');
});

test('a repeated question or exercise id is refused, naming the id and both places', async () => {
  const quiz = example('quiz');
  const [first, second] = quiz.questions;
  await rejects(
    'quiz',
    { ...quiz, questions: [first, second, { ...second, id: first.id }] },
    `quiz data (inline): questions[2].id "${first.id}" is the id of questions[0] too; ids must be unique`,
  );
  const set = example('exercises');
  const task = set.exercises[0];
  await rejects(
    'exercises',
    { ...set, exercises: [task, task] },
    `exercises data (inline): exercises[1].id "${task.id}" is the id of exercises[0] too; ids must be unique`,
  );
  await assert.rejects(checkAuthorData('quiz', { ...quiz, questions: [first, first] }, 'inline'), (error) => {
    assert.deepEqual(error.said.parts.problem, {
      key: 'dataDuplicateId',
      params: { field: 'questions[1].id', id: first.id, earlier: 'questions[0]' },
    });
    return true;
  });
});

test("a table's mistakes, named by their field", async () => {
  const table = example('table');
  await rejects(
    'table',
    { ...table, columns: [{ ...table.columns[0], digits: -1 }] },
    'table data (inline): columns[0].digits must be in [0, 12], got -1',
  );
});

test('fieldPath: JSON pointers as a reader writes the field', () => {
  assert.equal(fieldPath('#'), 'the data');
  assert.equal(fieldPath('#/questions/2/options/1/correct'), 'questions[2].options[1].correct');
  assert.equal(fieldPath('#/columns/0/x-y'), 'columns[0].x-y');
  assert.equal(fieldPath('#/rows/0/a~1b'), 'rows[0]["a/b"]');
});
