// Numbers a reader types are read by the widget's language (web/src/common/locale-numbers.ts), in
// each engine (tests/support/engines.mjs), on the widget page (tests/engines/widget-page/widgets.html):
//   - <attn-attention-steps lang="es">: "0,5" typed into a cell of K is a half, used by the core
//     (the cell and its steps), and written back the Spanish way ("0,50");
//   - <attn-exercises lang="es">, the parameter count: "9.408" is 9408 (and the widget says how it
//     read it, not 9,408), "9408" too; in English "9,408" is 9408 and says nothing more.
// Run after `npm run build`: node --test tests/engines/locale-inputs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { widgetPageSuites } from './widget-page/suite.mjs';

/** The count-parameters task of the lesson (9408 parameters: d_model 48, 3 heads). */
const COUNT_TASK = {
  exercises: [
    {
      id: 'count',
      kind: 'count-parameters',
      title: 'Count',
      prompt: 'd_model = {dModel}, {numHeads} heads',
      params: { dModel: 48, numHeads: 3 },
    },
  ],
};

/** Puts a fresh widget `tag` with `attrs` (and an inline JSON child, if given) on the page; resolves once it is ready. */
async function place(page, tag, attrs, json) {
  await page.run(
    ({ tag, attrs, json }) => {
      history.replaceState(null, '', location.pathname);
      window.changes = [];
      const widget = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
      if (json) {
        const script = document.createElement('script');
        script.type = 'application/json';
        script.textContent = JSON.stringify(json);
        widget.append(script);
      }
      widget.addEventListener('attn-change', (event) => window.changes.push(event.detail));
      document.getElementById('stage').replaceChildren(widget);
    },
    { tag, attrs, json },
  );
  await page.waitFor((tag) => document.querySelector(`${tag}[data-ready]`) !== null, tag);
}

widgetPageSuites((context) => {
  test('attention-steps in Spanish: "0,5" typed into a cell is a half, and the core uses it', async () => {
    const { page } = context;
    await place(page, 'attn-attention-steps', { lang: 'es', tokens: '4', dk: '2', dv: '2', seed: '7' });
    const weightsBefore = await page.run(() =>
      [...document.querySelectorAll('attn-attention-steps table[data-matrix="weights"] td')].map(
        (td) => td.dataset.value,
      ),
    );
    await page.press(['ArrowRight', 'Enter'], 'attn-attention-steps table[data-matrix="key"] td[tabindex="0"]');
    await page.waitFor(() => document.activeElement?.matches('attn-attention-steps td input'));
    // The field shows the cell's number the Spanish way, with a decimal comma.
    assert.match(await page.run(() => document.activeElement.value), /^−?\d+,\d+$/);
    await page.press(['Control+a', '0', ',', '5', 'Enter']);
    await page.waitFor(() => window.changes.length === 1);
    const cell = await page.run(() => {
      const td = document.querySelector('attn-attention-steps table[data-matrix="key"] td[data-row="0"][data-col="1"]');
      return { value: td.dataset.value, text: td.textContent, edited: td.hasAttribute('data-edited') };
    });
    assert.deepEqual(cell, { value: '0.5', text: '0,50', edited: true });
    const weightsAfter = await page.run(() =>
      [...document.querySelectorAll('attn-attention-steps table[data-matrix="weights"] td')].map(
        (td) => td.dataset.value,
      ),
    );
    assert.notDeepEqual(weightsAfter, weightsBefore, 'the core recomputed the weights with the half');
    assert.equal(await page.run(() => document.querySelector('attn-attention-steps .attn-error').textContent), '');
    assert.deepEqual(await page.problems(), []);
  });

  test('exercises in Spanish: "9.408" and "9408" are 9408, and the ambiguous one says how it was read', async () => {
    const { page } = context;
    const check = async (typed) => {
      await page.run(() => (document.querySelector('attn-exercises input').value = ''));
      await page.press([...typed], 'attn-exercises input');
      await page.click('attn-exercises .attn-controls button');
      return page.waitFor(() => {
        const result = document.querySelector('attn-exercises .result');
        return (
          result.textContent && {
            result: result.textContent,
            right: result.dataset.result,
            reading: document.querySelector('attn-exercises .number-reading').textContent,
          }
        );
      });
    };
    await place(page, 'attn-exercises', { lang: 'es' }, COUNT_TASK);
    let shown = await check('9.408');
    assert.equal(shown.right, 'right');
    assert.match(shown.result, /^Correcto\. 9408: cuatro matrices de pesos/);
    assert.equal(shown.reading, '«9.408» se leyó como 9408 (no como 9,408).');
    await page.run(() => (document.querySelector('attn-exercises .result').textContent = ''));
    shown = await check('9408');
    assert.equal(shown.right, 'right');
    assert.equal(shown.reading, '');
    await page.run(() => (document.querySelector('attn-exercises .result').textContent = ''));
    shown = await check('9408,5');
    assert.equal(shown.right, 'wrong');
    assert.match(shown.result, /^El número de parámetros debe ser un número entero entre 0 y 1\.000\.000\.000/);

    // English: "9,408" is 9408, read without doubt.
    await place(page, 'attn-exercises', { lang: 'en' }, COUNT_TASK);
    shown = await check('9,408');
    assert.deepEqual(shown, {
      result: 'Correct. 9,408: four weight matrices and four bias vectors.',
      right: 'right',
      reading: '',
    });
    assert.deepEqual(await page.problems(), []);
  });
});
