// The lesson tells the route that the run shown in the trainer took, in each engine: the recorded
// run at page load, then runs the reader trains, one per label. What the page must say is worked out here, from the raw intervention
// accuracies of the same run made by the native command (the browser's run is the same run,
// tests/engines/lesson.test.mjs) by the rule of intervene.hpp (tests/support/route-rule.mjs),
// never from the page's or the core's label: the prose, the trainer's text and the flowchart (its
// image, alt text and the SVG's own words) must all describe that route, with that run's figures.
// Run after `npm run build`: node --test tests/engines/route.test.mjs (ATTN_ENGINES picks engines).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEngines, serveSite } from '../support/engines.mjs';
import { coreAndRule, routeFromTests } from '../support/route-rule.mjs';

const root = resolve(import.meta.dirname, '../..');
// The recorded 2-block runs the lesson's table shows, in its order.
const RECORDED = ['cue-2block', 'runs/two-block-seed10', 'runs/two-block-seed16'];

// The runs: the recorded one (the command's defaults), and four the reader trains, one per other
// label (the epochs chosen so each takes its route soonest).
const RUNS = [
  { name: 'the recorded run', flags: [] },
  { name: 'seed 10, 18 epochs', seed: 10, epochs: 18, flags: ['--seed', '10', '--epochs', '18'] },
  { name: 'seed 16, 14 epochs', seed: 16, epochs: 14, flags: ['--seed', '16', '--epochs', '14'] },
  { name: 'seed 10, 15 epochs', seed: 10, epochs: 15, flags: ['--seed', '10', '--epochs', '15'] },
  { name: 'seed 3, 2 epochs', seed: 3, epochs: 2, flags: ['--seed', '3', '--epochs', '2'] },
];

/** What the page must say for each route: words for its prose and texts, the diagram's words, and the figures quoted. */
const WORDS = {
  'cue-position': { text: /cue-position route/, diagram: /copies in the answer/, figures: ['next', 'knocked'] },
  'answer-position': {
    text: /answer-position route/,
    diagram: /previous-token head/,
    figures: ['previous', 'knocked'],
  },
  'cue-broadcast': {
    text: /cue-broadcast route/,
    diagram: /every position looks at the CUE/,
    figures: ['firstCue', 'previous', 'next'],
  },
  other: {
    text: /none of the (three )?tests names/,
    diagram: /none of the tests names/,
    figures: ['next', 'previous', 'firstCue'],
  },
  none: { text: /not solved/i, diagram: /not solved yet/, figures: ['clean'] },
};

const native = RUNS.map((run) => {
  const report = JSON.parse(
    execFileSync(resolve(root, 'build/cli/attention-lab'), ['cue', '--blocks', '2', ...run.flags, '--json'], {
      encoding: 'utf8',
    }),
  );
  return { ...run, seed: report.config.seed, ...routeFromTests(report.route, report.analysis), report };
});

test('the runs cover every label (else this suite would prove little)', () => {
  assert.deepEqual(new Set(native.map((r) => r.label)), new Set(Object.keys(WORDS)));
});

test("the core's route states what the rule reads: the label, the heads tested and knocked out, each test's accuracy", () => {
  for (const run of native) {
    const { core, rule } = coreAndRule(run.report.route, run.report.analysis);
    assert.deepEqual(core, rule, run.name);
  }
});

/** What the page shows about the route: visible variants, texts, the flowchart. */
function shownRoute() {
  const visible = (node) => !node.closest('[hidden]') && node.getClientRects().length > 0;
  const text = (node) => node.innerText.replace(/\s+/g, ' ').trim();
  const variants = [...document.querySelectorAll('[data-when-route]')];
  const image = document.querySelector('attn-flowchart img');
  return {
    visibleVariants: [...new Set(variants.filter(visible).map((n) => n.dataset.whenRoute))],
    prose: [...document.querySelectorAll('#cue-task p[data-when-route]')].filter(visible).map(text),
    trainer: text(document.querySelector('attn-cue-trainer p[data-route]')),
    image: {
      route: image.dataset.route,
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
    test(`${run.name}: the ${run.label} route in the prose, the trainer and the flowchart`, async (t) => {
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
      const shown = await page.run(shownRoute);
      if (session.engine === 'chromium')
        t.diagnostic(`as the page renders it:\n  prose: ${shown.prose.join(' | ')}\n  trainer: ${shown.trainer}`);
      const words = WORDS[run.label];
      assert.deepEqual(shown.visibleVariants, [run.label], "only this route's texts are visible");
      assert.equal(shown.prose.length, 1, 'one paragraph about the route of the run shown');
      assert.match(shown.prose[0], words.text);
      assert.match(shown.prose[0], new RegExp(`seed ${run.seed}\\b`));
      assert.match(shown.trainer, words.text);
      for (const figure of words.figures) {
        const value = run[figure].toFixed(3);
        assert.ok(shown.prose[0].includes(value), `${figure} ${value} in "${shown.prose[0]}"`);
        assert.ok(shown.trainer.includes(value), `${figure} ${value} in "${shown.trainer}"`);
      }

      // The flowchart: this route's image, its alt text, and the words the SVG itself draws.
      assert.equal(shown.image.route, run.label);
      assert.ok(shown.image.src.includes(`flowchart-${run.label}-light`), shown.image.src);
      assert.match(shown.image.alt, run.label === 'none' ? /not solved yet/ : words.text);
      const svg = await page.run(async (src) => (await fetch(src)).text(), shown.image.src);
      // The words the SVG draws (Mermaid puts each word of a label in its own tspan).
      const drawn = svg
        .replace(/<style>.*?<\/style>/s, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');
      assert.ok(words.diagram.test(drawn), `the ${run.label} diagram draws ${words.diagram}: "${drawn.trim()}"`);
      for (const [other, { diagram }] of Object.entries(WORDS))
        if (other !== run.label)
          assert.ok(!diagram.test(drawn), `no ${other} words in the ${run.label} diagram: "${drawn.trim()}"`);

      assert.deepEqual(await page.problems(), []);
    });
  }

  test("the lesson's table of interventions shows the recorded runs' accuracies, cell for cell", async () => {
    const page = await session.browser.open(`${site.url}index.html`);
    await page.waitFor(() => document.documentElement.dataset.lessonReady);
    const shown = await page.run(() => {
      const table = document.querySelector('#cue-task [data-route-runs] table');
      return {
        columns: [...table.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
        rows: [...table.querySelectorAll('tbody tr')].map((tr) => ({
          key: tr.dataset.test,
          cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
        })),
      };
    });
    const runs = RECORDED.map((name) =>
      JSON.parse(readFileSync(resolve(root, `web/src/generated/${name}.json`), 'utf8')),
    );
    assert.deepEqual(
      shown.columns,
      runs.map((r) => `seed ${r.config.seed}`),
    );
    const expected = [
      ...runs[0].route.tests.map((t) => ({
        key: `${t.action}/${t.pattern}/${t.block}/${t.head}`,
        cells: runs.map((r) =>
          r.route.tests
            .find((u) => u.action === t.action && u.pattern === t.pattern && u.block === t.block && u.head === t.head)
            .accuracy.toFixed(3),
        ),
      })),
      { key: 'baseline', cells: runs.map((r) => r.route.baselineAccuracy.toFixed(3)) },
      { key: 'route', cells: runs.map((r) => routeFromTests(r.route, r.analysis).label) },
    ];
    assert.deepEqual(shown.rows, expected);
    assert.deepEqual(await page.problems(), []);
  });

  test("the flowchart follows the theme: ?theme=dark shows the dark image, a widget's theme attribute wins", async () => {
    const page = await session.browser.open(`${site.url}index.html?theme=dark`);
    await page.waitFor(() => document.documentElement.dataset.lessonReady);
    await page.startWidgets();
    const recorded = native[0].label;
    assert.equal((await page.run(shownRoute)).image.theme, 'dark');
    assert.ok((await page.run(shownRoute)).image.src.includes(`flowchart-${recorded}-dark`));
    await page.run(() => document.querySelector('attn-flowchart').setAttribute('theme', 'light'));
    const light = await page.run(shownRoute);
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
