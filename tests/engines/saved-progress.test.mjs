// Saved progress in the quiz and the exercises, in each engine, on
// tests/engines/saved-progress/progress.html (a quiz of four questions and a set of one exercise
// with persist="on", and a quiz with attempts="1" solution="off"): answers come back after a
// reload with the score and the options' order, "Forget my answers" clears them, a browser that
// refuses storage is told in place while the quiz still scores, one check locks a question, and
// attn-progress says the score; an exercise checked wrong gets a hint, not the answer, and one
// whose answer was shown is kept as such, not counted, through a reload. Four page loads per
// engine. Run after `npm run build`:
// node --test tests/engines/saved-progress.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describeEngines, DIST, serveSite } from '../support/engines.mjs';

let site;
before(async () => {
  // The fixture, the widget page's icon, the build.
  const roots = ['saved-progress', 'widget-page'].map((dir) => resolve(import.meta.dirname, dir));
  site = await serveSite({ roots: [...roots, DIST] });
});
after(() => site?.close());

const QUIZ = 'attn-quiz#check';
/** Chooses the option with the author's index `option` in question `question` (1-based) and checks it. */
async function answer(page, quiz, question, option) {
  await page.click(`${quiz} fieldset:nth-of-type(${question}) input[value="${option}"]`);
  await page.click(`${quiz} fieldset:nth-of-type(${question}) .attn-controls button:first-child`);
}

/** What the quiz shows: each question's checked option (author's index) and options' order, its score line. */
const shown = (page) =>
  page.run((quiz) => {
    const widget = document.querySelector(quiz);
    return {
      checked: [...widget.querySelectorAll('fieldset')].map((f) => f.querySelector('input:checked')?.value ?? null),
      order: [...widget.querySelectorAll('fieldset')].map((f) => [...f.querySelectorAll('input')].map((i) => i.value)),
      feedback: [...widget.querySelectorAll('.feedback')].map((f) => f.dataset.result ?? null),
      score: widget.querySelector('.score').textContent,
    };
  }, QUIZ);

const lastProgress = (page, key) => page.run((key) => window.progress.filter((p) => p.key === key).at(-1) ?? null, key);

describeEngines((session) => {
  test('answers kept through a reload, forgotten on request; storage refused said in place', async () => {
    const url = `${site.url}progress.html`;
    let page = await session.browser.open(url, { width: 900, height: 900 });
    assert.deepEqual(await page.startWidgets(), ['attn-quiz', 'attn-exercises', 'attn-quiz']);
    assert.deepEqual(await lastProgress(page, 'check'), { key: 'check', points: 0, max: 4, answered: 0, total: 4 });
    const fresh = await shown(page);

    // Two of four answered: the first right (option 1), the second wrong (option 0); the exercise right.
    await answer(page, QUIZ, 1, 1);
    await answer(page, QUIZ, 2, 0);
    await page.press(['2', '8', '8'], 'attn-exercises#tasks input');
    await page.click('attn-exercises#tasks .exercise .attn-controls button');
    await page.waitFor(() => document.querySelector('attn-exercises#tasks .result').dataset.result);
    assert.deepEqual(await lastProgress(page, 'check'), { key: 'check', points: 1, max: 4, answered: 2, total: 4 });
    assert.deepEqual(await lastProgress(page, 'tasks'), { key: 'tasks', points: 1, max: 1, answered: 1, total: 1 });
    const answered = await shown(page);
    assert.equal(answered.score, 'Score: 1 of 4 questions correct (2 answered).');
    const stored = await page.run(() => JSON.parse(localStorage.getItem('attention-lab:/progress.html#check')));
    assert.deepEqual(stored.answers, { sum: [1, 1, 1], mask: [0, 0, 1] }, 'author indexes, outcome, checks');
    assert.match(stored.seed, /^[0-9a-z]{1,16}$/);

    // Reload: the same answers, feedback, score and order, and the progress from the first drawing.
    page = await session.browser.open(url, { width: 900, height: 900 });
    await page.startWidgets();
    const restored = await shown(page);
    assert.deepEqual(restored, answered);
    assert.deepEqual(restored.order, fresh.order, 'the options in the same order on every load');
    assert.deepEqual(await page.run(() => window.progress.find((p) => p.key === 'check')), {
      key: 'check',
      points: 1,
      max: 4,
      answered: 2,
      total: 4,
    });
    assert.deepEqual(
      await page.run(() => {
        const tasks = document.querySelector('attn-exercises#tasks');
        return [tasks.querySelector('input').value, tasks.querySelector('.result').textContent];
      }),
      ['288', 'Correct: your answer as you last checked it.'],
    );

    // Forget my answers: shown only where progress is kept; clears the answers.
    assert.equal(await page.run(() => document.querySelectorAll('attn-quiz#strict .attn-forget').length), 0);
    await page.click(`${QUIZ} .attn-forget`);
    await page.waitFor(
      (quiz) => document.querySelector(quiz).querySelector('.score')?.textContent.includes('(0 answered)'),
      QUIZ,
    );
    assert.deepEqual((await shown(page)).checked, [null, null, null, null]);
    assert.equal(
      await page.run(
        () => JSON.parse(localStorage.getItem('attention-lab:/progress.html#check') ?? '{}').answers ?? null,
      ),
      null,
      'no answers kept',
    );
    assert.deepEqual(await lastProgress(page, 'check'), { key: 'check', points: 0, max: 4, answered: 0, total: 4 });

    // Storage refused: said in the quiz, which still scores.
    await page.run(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
    });
    await answer(page, QUIZ, 1, 1);
    const note = await page.waitFor(
      (quiz) => document.querySelector(`${quiz} > .attn-storage-note`)?.textContent,
      QUIZ,
    );
    assert.match(note, /^Your progress here is not being saved: this browser refuses to store it/);
    assert.equal((await shown(page)).score, 'Score: 1 of 4 questions correct (1 answered).');
    assert.deepEqual(await lastProgress(page, 'check'), { key: 'check', points: 1, max: 4, answered: 1, total: 4 });

    // attempts="1" solution="off": no Show solution; one wrong check locks the question, which says so.
    const strict = 'attn-quiz#strict';
    assert.deepEqual(
      await page.run(
        (quiz) => [...document.querySelectorAll(`${quiz} fieldset button`)].map((b) => b.textContent),
        strict,
      ),
      ['Check', 'Retry'],
    );
    assert.equal(
      await page.run((quiz) => document.querySelector(`${quiz} .attempts`).textContent, strict),
      '1 check left for this question.',
    );
    await answer(page, strict, 1, 0);
    assert.deepEqual(
      await page.run((quiz) => {
        const widget = document.querySelector(quiz);
        return {
          note: widget.querySelector('.attempts').textContent,
          radios: [...widget.querySelectorAll('input')].map((i) => i.disabled),
          buttons: [...widget.querySelectorAll('fieldset button')].map((b) => b.disabled),
          score: widget.querySelector('.score').textContent,
        };
      }, strict),
      {
        note: 'No checks left: this question is locked.',
        radios: [true, true],
        buttons: [true, true],
        score: 'Score: 0 of 1 question correct (1 answered).',
      },
    );
    assert.deepEqual(await page.problems(), []);
  });

  test('exercises: a wrong check gets a hint, not the answer; a shown answer is kept as shown and not counted', async () => {
    const url = `${site.url}progress.html`;
    let page = await session.browser.open(url, { width: 900, height: 900 });
    await page.startWidgets();
    const TASKS = 'attn-exercises#tasks';
    // A fresh set (an earlier test may have kept an answer): forgotten, drawn again.
    await page.run((tasks) => document.querySelector(tasks).forgetProgress(), TASKS);
    await page.waitFor((tasks) => {
      const set = document.querySelector(tasks);
      return set.querySelector('input')?.value === '' && set.querySelector('.result')?.textContent === '';
    }, TASKS);
    await page.run((tasks) => {
      window.checked = [];
      document
        .querySelector(tasks)
        .addEventListener('attn-exercise-checked', (event) => window.checked.push(event.detail.correct));
    }, TASKS);
    const result = () =>
      page.run((tasks) => {
        const r = document.querySelector(`${tasks} .result`);
        return [r.dataset.result ?? null, r.textContent];
      }, TASKS);
    const check = async (typed) => {
      await page.run((tasks) => {
        document.querySelector(`${tasks} input`).value = '';
        delete document.querySelector(`${tasks} .result`).dataset.result;
      }, TASKS);
      await page.press([...typed], `${TASKS} input`);
      await page.click(`${TASKS} .exercise .attn-controls button`);
      await page.waitFor((tasks) => document.querySelector(`${tasks} .result`).dataset.result, TASKS);
      return result();
    };
    const stored = () =>
      page.run(() => JSON.parse(localStorage.getItem('attention-lab:/progress.html#tasks') ?? '{}').answers ?? null);

    // Wrong: where to look, not the count (288).
    assert.deepEqual(await check('280'), [
      'wrong',
      'Not yet. Count the four weight matrices and the four bias vectors.',
    ]);
    assert.deepEqual(await stored(), { count: [0, '280'] });

    // Show the answer: given, kept as shown (2), answered but not a point.
    await page.click(`${TASKS} .attn-show-answer`);
    await page.waitFor((tasks) => document.querySelector(`${tasks} .result`).dataset.result === 'revealed', TASKS);
    assert.deepEqual(await result(), [
      'revealed',
      'Answer shown, so this task does not count as right. 288: four 8 × 8 weight matrices and four bias vectors of 8, whatever the number of heads.',
    ]);
    assert.deepEqual(await stored(), { count: [2, '280'] });
    assert.deepEqual(await lastProgress(page, 'tasks'), { key: 'tasks', points: 0, max: 1, answered: 1, total: 1 });

    // Right after the answer was shown: said, not recorded (no event, no point, the saved result kept).
    assert.deepEqual(await check('288'), [
      'right',
      'Right, not counted: the answer was shown. 288: four weight matrices and four bias vectors.',
    ]);
    assert.deepEqual(await page.run(() => window.checked), [false]);
    assert.deepEqual(await stored(), { count: [2, '280'] });
    assert.deepEqual(await lastProgress(page, 'tasks'), { key: 'tasks', points: 0, max: 1, answered: 1, total: 1 });

    // Reload: still shown, still not a point.
    page = await session.browser.open(url, { width: 900, height: 900 });
    await page.startWidgets();
    assert.deepEqual(await result(), ['revealed', 'Answer shown, not counted: your answer as you last checked it.']);
    assert.deepEqual(await page.run(() => window.progress.find((p) => p.key === 'tasks')), {
      key: 'tasks',
      points: 0,
      max: 1,
      answered: 1,
      total: 1,
    });
    assert.deepEqual(await page.problems(), []);
  });
});
