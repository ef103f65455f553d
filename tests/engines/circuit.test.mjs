// The lesson tells the circuit that the run shown in the trainer measured, in each engine: the
// recorded run at page load, then runs the reader trains on seeds that find each route (and a
// run too short to find one). What the page must say is worked out here, from the raw
// attention offsets of the same run made by the native command (the browser's run is the same
// run, tests/engines/lesson.test.mjs), never from the page's or the core's label: the prose,
// the trainer's text and the flowchart (its image, alt text and the
// SVG's own words) must all describe that route, with that run's share. Run after `npm run
// build`: node --test tests/engines/circuit.test.mjs (ATTN_ENGINES picks engines).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describeEngines, serveSite } from '../support/engines.mjs';

const root = resolve(import.meta.dirname, '../..');

// The runs: the recorded one (the command's defaults), and three the reader trains.
const RUNS = [
  { name: 'the recorded run', flags: [] },
  { name: 'seed 10, 15 epochs', seed: 10, epochs: 15, flags: ['--seed', '10', '--epochs', '15'] },
  { name: 'seed 4, 12 epochs', seed: 4, epochs: 12, flags: ['--seed', '4', '--epochs', '12'] },
  { name: 'seed 3, 2 epochs', seed: 3, epochs: 2, flags: ['--seed', '3', '--epochs', '2'] },
];

/**
 * The route a 2-block run took, from its last block's attention by offset from the answer:
 * a route is a position that holds more than half of some head's weight from the query, the
 * earlier CUE (offset -1) or the answer itself (offset 0). Also that head's share.
 */
function routeOf({ offsets, lastBlockByOffset }) {
  const strongest = (offset) => Math.max(...lastBlockByOffset.map((head) => head[offsets.indexOf(offset)]));
  const cue = strongest(-1),
    answer = strongest(0);
  if (cue > 0.5) return { circuit: 'cue', share: cue, cue, answer };
  if (answer > 0.5) return { circuit: 'answer', share: answer, cue, answer };
  return { circuit: 'none', share: Math.max(cue, answer), cue, answer };
}

/** What the page must say for each route: words for its prose and texts, and the diagram's words. */
const WORDS = {
  cue: { text: /cue-position route/, diagram: /offset −1/ },
  answer: { text: /answer-position route/, diagram: /offset 0/ },
  none: { text: /not settled on a route|No route yet|no route yet/, diagram: /no route yet/ },
};

const native = RUNS.map((run) => {
  const report = JSON.parse(
    execFileSync(resolve(root, 'build/cli/attention-lab'), ['cue', '--blocks', '2', ...run.flags, '--json'], {
      encoding: 'utf8',
    }),
  );
  return { ...run, seed: report.config.seed, ...routeOf(report.analysis) };
});

test('the runs cover both routes and a run that has none yet (else this suite would prove little)', () => {
  assert.deepEqual(new Set(native.map((r) => r.circuit)), new Set(['cue', 'answer', 'none']));
});

/** What the page shows about the circuit: visible variants, texts, the quiz's explanation, the flowchart. */
function shownCircuit() {
  const visible = (node) => !node.closest('[hidden]') && node.getClientRects().length > 0;
  const text = (node) => node.innerText.replace(/\s+/g, ' ').trim();
  const variants = [...document.querySelectorAll('[data-when-circuit]')];
  const image = document.querySelector('attn-flowchart img');
  return {
    visibleVariants: [...new Set(variants.filter(visible).map((n) => n.dataset.whenCircuit))],
    prose: [...document.querySelectorAll('#cue-task p[data-when-circuit]')].filter(visible).map(text),
    trainer: text(document.querySelector('attn-cue-trainer p[data-circuit]')),
    image: {
      circuit: image.dataset.circuit,
      theme: image.dataset.theme,
      src: image.getAttribute('src'),
      alt: image.alt,
    },
  };
}

let site;
before(async () => {
  site = await serveSite();
});
after(() => site?.close());

describeEngines((session) => {
  for (const run of native) {
    test(`${run.name}: the ${run.circuit} route in the prose, the trainer and the flowchart`, async (t) => {
      const hash = run.epochs ? `#cue.seed=${run.seed}&cue.epochs=${run.epochs}` : '';
      const page = await session.browser.open(`${site.url}index.html${hash}`);
      await page.waitFor(() => document.documentElement.dataset.lessonReady);
      await page.startWidgets();
      if (run.epochs) {
        await page.run(() => {
          window.finished = 0;
          document
            .querySelector('attn-cue-trainer')
            .addEventListener('attn-train-finished', () => (window.finished += 1));
        });
        await page.click('attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child'); // Train both
        await page.waitFor(() => window.finished === 2, undefined, { timeout: 240000 });
      }
      const shown = await page.run(shownCircuit);
      if (session.engine === 'chromium')
        t.diagnostic(`as the page renders it:\n  prose: ${shown.prose.join(' | ')}\n  trainer: ${shown.trainer}`);
      const words = WORDS[run.circuit];
      assert.deepEqual(shown.visibleVariants, [run.circuit], "only this route's texts are visible");
      assert.equal(shown.prose.length, 1, 'one paragraph about the route of the run shown');
      assert.match(shown.prose[0], words.text);
      assert.match(shown.prose[0], new RegExp(`seed ${run.seed}\\b`));
      assert.match(shown.trainer, words.text);
      if (run.circuit === 'none') {
        for (const share of [run.cue, run.answer])
          assert.ok(shown.prose[0].includes(share.toFixed(2)), `${share.toFixed(2)} in "${shown.prose[0]}"`);
      } else {
        assert.ok(
          shown.prose[0].includes(`${run.share.toFixed(2)} of the question’s weight`),
          `share ${run.share.toFixed(2)} in "${shown.prose[0]}"`,
        );
        assert.ok(
          shown.trainer.includes(`${run.share.toFixed(2)} of the query's weight`),
          `share ${run.share.toFixed(2)} in "${shown.trainer}"`,
        );
      }

      // The flowchart: this route's image, its alt text, and the words the SVG itself draws.
      assert.equal(shown.image.circuit, run.circuit);
      assert.ok(shown.image.src.includes(`flowchart-${run.circuit}-light`), shown.image.src);
      assert.match(shown.image.alt, run.circuit === 'none' ? /no route yet/ : words.text);
      const svg = await page.run(async (src) => (await fetch(src)).text(), shown.image.src);
      // The words the SVG draws (Mermaid puts each word of a label in its own tspan).
      const drawn = svg
        .replace(/<style>.*?<\/style>/s, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');
      assert.ok(words.diagram.test(drawn), `the ${run.circuit} diagram draws ${words.diagram}: "${drawn.trim()}"`);
      if (run.circuit !== 'none')
        for (const [other, { diagram }] of Object.entries(WORDS))
          if (other !== run.circuit)
            assert.ok(!diagram.test(drawn), `no ${other} words in the ${run.circuit} diagram: "${drawn.trim()}"`);

      assert.deepEqual(await page.problems(), []);
    });
  }

  test("the flowchart follows the theme: ?theme=dark shows the dark image, a widget's theme attribute wins", async () => {
    const page = await session.browser.open(`${site.url}index.html?theme=dark`);
    await page.waitFor(() => document.documentElement.dataset.lessonReady);
    await page.startWidgets();
    const recorded = native[0].circuit;
    assert.equal((await page.run(shownCircuit)).image.theme, 'dark');
    assert.ok((await page.run(shownCircuit)).image.src.includes(`flowchart-${recorded}-dark`));
    await page.run(() => document.querySelector('attn-flowchart').setAttribute('theme', 'light'));
    const light = await page.run(shownCircuit);
    assert.equal(light.image.theme, 'light');
    assert.ok(light.image.src.includes(`flowchart-${recorded}-light`), light.image.src);
    // The image the page shows loads (no failed request).
    await page.waitFor(
      () =>
        document.querySelector('attn-flowchart img').complete &&
        document.querySelector('attn-flowchart img').naturalWidth > 0,
    );
    assert.deepEqual(await page.problems(), []);
  });
});
