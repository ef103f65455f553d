// <attn-cue-trainer>'s limits and kept runs in each engine (tests/support/engines.mjs), on the
// widget page (tests/engines/widget-page/widgets.html, the build's files next to it, strict CSP):
//   - heads="3" is refused when the attribute is read, before anything is trained: the widget
//     says in place which attribute and which values it takes (the divisors of the model width
//     the core declares), and a trainer with a good value offers exactly those;
//   - with persist="on", a finished run (settings and per-epoch records, no weights) comes back
//     after a reload as the last run: the same curves and bests, not trained again; and
//     forgetProgress() drops it;
//   - the probe's settings the reader changes come back after a reload with persist="on";
//   - a run keeps the trainer's height at 360 px (measured at every reply, in the frame that draws it), the
//     Pause button is right when the run ends even when pressed as it ends, and no figure logs an
//     Observable Plot warning while the run draws.
// Chromium only: what is tested is the widget's own code (storage and parsing the contract suite
// checks in every engine), and a Firefox and a WebKit launch would cost about 30 s each here.
// Run after `npm run build`: node --test tests/engines/trainer-runs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { widgetPageSuites } from './widget-page/suite.mjs';

process.env.ATTN_ENGINES = 'chromium'; // this file's process only (node --test runs each file in its own)

const EPOCHS = 2;
const TRAIN = 'attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child';
const KEPT = { id: 'kept-run', persist: 'on', epochs: String(EPOCHS), seed: '5', heads: '2' };

/** Puts a fresh widget with `attrs` in the stage (every attn-* event recorded in window.events); waits until it has drawn or said an error. */
async function place(page, tag, attrs) {
  await page.run(
    ({ tag, attrs }) => {
      window.events = [];
      const widget = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) widget.setAttribute(name, value);
      for (const name of ['attn-ready', 'attn-train-progress', 'attn-train-finished', 'attn-change'])
        widget.addEventListener(name, (event) => window.events.push({ name, detail: event.detail }));
      document.getElementById('stage').replaceChildren(widget);
    },
    { tag, attrs },
  );
  return page.waitFor(() => {
    const widget = document.querySelector('#stage > *');
    const error = widget.querySelector(':scope > .attn-error');
    if (error) return { error: error.textContent };
    return widget.hasAttribute('data-ready') && { error: '' };
  });
}

/** What the trainer shows of its run: the status line, the progress rows, the chart's points and the controls. */
const shown = (page) =>
  page.run(() => {
    const trainer = document.querySelector('attn-cue-trainer');
    return {
      status: trainer.querySelector('.trainer-status').textContent,
      progress: [...trainer.querySelectorAll('.progress-text')].map((p) => p.textContent),
      points: Number(trainer.querySelector('[data-points]')?.dataset.points),
      heads: trainer.querySelector('select').value,
      epochs: trainer.querySelectorAll('input')[1].value,
    };
  });

widgetPageSuites((context) => {
  test('heads="3" is refused when read, naming the attribute and the divisors; a trainer offers only those', async () => {
    const { page } = context;
    const { error } = await place(page, 'attn-cue-trainer', { heads: '3', lang: 'en' });
    const said = error.match(/attribute heads must be a divisor of (\d+): ([\d, ]+), got "3"/);
    assert.ok(said, error);
    const size = Number(said[1]);
    const listed = said[2].split(', ').map(Number);
    assert.deepEqual(
      listed,
      Array.from({ length: size }, (_, i) => i + 1).filter((d) => size % d === 0),
    );
    assert.equal(await page.run(() => document.querySelectorAll('attn-cue-trainer button').length), 0, 'no Train');
    assert.equal(await page.run(() => window.events.filter((e) => e.name === 'attn-train-progress').length), 0);
    assert.equal((await place(page, 'attn-cue-trainer', { heads: String(listed[1]) })).error, '');
    const offered = await page.run(() => [...document.querySelectorAll('attn-cue-trainer option')].map((o) => o.value));
    assert.deepEqual(offered.map(Number), listed);
    // Spanish says the same values in its words
    const spanish = await place(page, 'attn-cue-trainer', { heads: '3', lang: 'es' });
    assert.match(spanish.error, new RegExp(`divisor de ${size}: ${said[2]}`));
    await page.run(() => document.getElementById('stage').replaceChildren());
  });

  test("a run keeps the trainer's height; Pause pressed as the run ends leaves Pause; no Plot warning", async () => {
    // At a phone's width, where the progress rows' words wrap.
    const url = await context.page.run(() => location.href);
    const page = (context.page = await context.browser.open(url, { width: 360, height: 740 }));
    assert.equal((await place(page, 'attn-cue-trainer', { epochs: String(EPOCHS), seed: '3' })).error, '');
    // The trainer's height at every reply of the run, read in the frame that draws it; and Pause
    // pressed in the handler of the last attn-train-finished, i.e. as the run ends.
    const before = await page.run(() => {
      const trainer = document.querySelector('attn-cue-trainer');
      const pause = trainer.querySelectorAll('.attn-controls')[1].querySelectorAll('button')[1];
      window.heights = [];
      window.pressedAtEnd = '';
      const measure = (name) =>
        requestAnimationFrame(() => window.heights.push({ name, height: trainer.getBoundingClientRect().height }));
      for (const name of ['attn-train-progress', 'attn-train-epoch'])
        trainer.addEventListener(name, () => measure(name));
      let finished = 0;
      trainer.addEventListener('attn-train-finished', () => {
        if (++finished < 2) return;
        pause.click();
        window.pressedAtEnd = pause.textContent;
      });
      return trainer.getBoundingClientRect().height;
    });
    // The panel's parts: the controls, the status line, progress rows, chart, results, downloads.
    const parts = () =>
      page.run(() =>
        [...document.querySelector('attn-cue-trainer .attn-panel').children].map(
          (c) => c.getBoundingClientRect().height,
        ),
      );
    const partsBefore = await parts();
    await page.click(TRAIN);
    await page.waitFor(() => window.events.filter((e) => e.name === 'attn-train-finished').length === 2, undefined, {
      timeout: 120000,
    });
    const end = await page.run(async () => {
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
      const trainer = document.querySelector('attn-cue-trainer');
      const pause = trainer.querySelectorAll('.attn-controls')[1].querySelectorAll('button')[1];
      return {
        heights: window.heights,
        after: trainer.getBoundingClientRect().height,
        pressedAtEnd: window.pressedAtEnd,
        pause: { text: pause.textContent, disabled: pause.disabled, pressed: pause.getAttribute('aria-pressed') },
        points: Number(trainer.querySelector('[data-points]').dataset.points),
        dots: trainer.querySelectorAll('svg circle').length,
      };
    });
    const partsAfter = await parts();
    const during = end.heights.filter((h) => h.height !== before);
    assert.ok(end.heights.length >= 2 * EPOCHS, `measured at ${end.heights.length} replies`);
    assert.deepEqual(during, [], `the trainer was ${before} px high before the run`);
    // After the run, only its words (status line, progress rows, results) take the height the new run's need.
    const words = [2, 3, 5];
    console.log(
      `# the trainer at 360 px: ${before} px before the run and during it, ${end.after} px after ` +
        `(status line ${partsBefore[2]} -> ${partsAfter[2]} px, progress ${partsBefore[3]} -> ${partsAfter[3]} px, results ${partsBefore[5]} -> ${partsAfter[5]} px)`,
    );
    assert.deepEqual(
      partsAfter.filter((_, i) => !words.includes(i)),
      partsBefore.filter((_, i) => !words.includes(i)),
    );
    // The press reached a running trainer (it read Resume for an instant); once the run ended, Pause again.
    assert.equal(end.pressedAtEnd, 'Resume');
    assert.deepEqual(end.pause, { text: 'Pause', disabled: true, pressed: 'false' });
    assert.equal(end.points, 2 * EPOCHS);
    assert.equal(end.dots, 2 * EPOCHS, 'a dot per epoch and model');
    assert.deepEqual(await page.problems(), [], 'no Plot warning (the watcher records them) and no error');
    context.page = await context.browser.open(url, { width: 1000, height: 900 });
  });

  test('persist="on": the finished run comes back after a reload as the last run, not trained again', async () => {
    let { page } = context;
    await page.run(() => localStorage.clear());
    assert.equal((await place(page, 'attn-cue-trainer', KEPT)).error, '');
    await page.click(TRAIN);
    await page.waitFor(() => window.events.filter((e) => e.name === 'attn-train-finished').length === 2, undefined, {
      timeout: 120000,
    });
    await page.waitFor(() => !document.querySelector('attn-cue-trainer [aria-pressed]:not([disabled])'));
    const trained = await shown(page);
    const bests = trained.status.match(/1 block best ([\d.]+), 2 blocks best ([\d.]+)/);
    assert.ok(bests, trained.status);
    assert.equal(trained.points, 2 * EPOCHS);

    // What is kept: the run's settings, reference lines and per-epoch records to 4 decimals; no weights.
    const kept = await page.run(() =>
      Object.entries(localStorage)
        .filter(([key]) => key.startsWith('attention-lab:') && key.endsWith('#kept-run'))
        .map(([, value]) => value),
    );
    assert.equal(kept.length, 1);
    const { lastRun, settings } = JSON.parse(kept[0]);
    assert.equal(settings, undefined, 'settings equal to the attributes are not kept');
    assert.deepEqual([lastRun.seed, lastRun.heads, lastRun.epochs], [KEPT.seed, KEPT.heads, KEPT.epochs].map(Number));
    assert.deepEqual(
      lastRun.models.map((m) => m.records.length),
      [EPOCHS, EPOCHS],
    );
    const numbers = JSON.stringify(lastRun).match(/-?\d+(\.\d+)?(e-?\d+)?/g);
    assert.ok(
      numbers.every((n) => !/\.\d{5,}/.test(n)),
      'at most 4 decimals',
    );
    assert.ok(kept[0].length < 600, `compact: ${kept[0].length} characters`);
    console.log(`# the kept value of a ${EPOCHS}-epoch run: ${kept[0].length} characters`);

    // The reload: the same page opened again.
    const url = await page.run(() => location.href);
    await page.close();
    page = context.page = await context.browser.open(url, { width: 1000, height: 900 });
    assert.equal((await place(page, 'attn-cue-trainer', KEPT)).error, '');
    await page.waitFor(() => Number(document.querySelector('attn-cue-trainer [data-points]')?.dataset.points) > 0);
    const restored = await shown(page);
    assert.match(restored.status, /^your last run Trained earlier in this browser/);
    assert.ok(
      restored.status.includes(`1 block best ${bests[1]}, 2 blocks best ${bests[2]}`),
      `${restored.status} vs ${trained.status}`,
    );
    assert.deepEqual(restored.progress, trained.progress);
    assert.equal(restored.points, trained.points);
    assert.deepEqual([restored.heads, restored.epochs], [KEPT.heads, KEPT.epochs]);
    assert.deepEqual(
      await page.run(() => window.events.filter((e) => e.name !== 'attn-ready').map((e) => e.name)),
      [],
      'nothing trained',
    );

    // Forgotten: the recorded run again, nothing kept.
    await page.run(() => document.querySelector('attn-cue-trainer').forgetProgress());
    await page.waitFor(() =>
      /recorded run/.test(document.querySelector('attn-cue-trainer .trainer-status').textContent),
    );
    assert.equal(await page.run(() => Object.keys(localStorage).filter((k) => k.endsWith('#kept-run')).length), 0);
    assert.deepEqual(await page.problems(), []);
  });

  test('persist="on": the probe\'s settings the reader changed come back after a reload', async () => {
    let { page } = context;
    const attrs = { id: 'kept-probe', persist: 'on' };
    assert.equal((await place(page, 'attn-cue-probe', attrs)).error, '');
    await page.run(() => {
      const what = document.querySelector('attn-cue-probe fieldset select');
      what.value = 'knock-out';
      what.dispatchEvent(new Event('change'));
    });
    await page.waitFor(() => window.events.some((e) => e.name === 'attn-change'));
    const url = await page.run(() => location.href);
    await page.close();
    page = context.page = await context.browser.open(url, { width: 1000, height: 900 });
    assert.equal((await place(page, 'attn-cue-probe', attrs)).error, '');
    assert.equal(await page.run(() => document.querySelector('attn-cue-probe fieldset select').value), 'knock-out');
    await page.run(() => document.querySelector('attn-cue-probe').forgetProgress());
    assert.deepEqual(await page.problems(), []);
  });
});
