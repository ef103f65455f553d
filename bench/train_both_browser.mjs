// "Train both" on two cores, in headless Chromium on the built site (dist/): the wall time of
// both cue-task models trained in two Workers (one per model, what the trainer does where
// navigator.hardwareConcurrency >= 2) against its peer, the 2-block model alone in one Worker,
// and the one-Worker "Train both" (a machine of one core) for comparison; median of 3 rounds,
// the modes interleaved in each round so a busy machine slows them alike. Measured twice:
//  - Worker: the site's training Worker driven through its protocol (training-protocol.ts), from
//    the train request (each Worker fresh, so its core's loading is included) to the last model's
//    finished reply;
//  - trainer: <attn-cue-trainer> on a page of its own, the number of cores forced, from the
//    click on "Train both" to its last attn-train-finished event (drawing included).
// Also checks that every mode gives the same per-epoch numbers.
//
//   node bench/train_both_browser.mjs [--epochs 30] [--seed S] [--rounds 3]
// (also part of bench/run-all.mjs). Needs scripts/build (dist/). On a machine others are using
// the figures are noisy.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeSite, openSite } from '../tests/support/chromium.mjs';

export const GOAL = 1.15;
const root = path.resolve(import.meta.dirname, '..');

/** Trains the models of `plan` (one list of blocks per Worker) in fresh Workers, on a page of the site; seconds and every epoch record by model. */
async function trainInWorkers(browser, url, plan, { epochs, seed }) {
  const workerFile = readdirSync(path.join(root, 'dist/assets')).find((f) => /^training-worker-.*\.js$/.test(f));
  const page = await browser.open(url + 'embed.html?widget=attn-flowchart', { width: 1280, height: 720 });
  return page.run(
    async ({ url, plan, config }) => {
      const workers = plan.map(() => new Worker(url, { type: 'module' }));
      await Promise.all(
        workers.map((w) => new Promise((ok) => (w.onmessage = ({ data }) => data.type === 'ready' && ok()))),
      );
      const records = {};
      const start = performance.now();
      await Promise.all(
        workers.map(
          (w, i) =>
            new Promise((ok, fail) => {
              let left = plan[i].length;
              w.onmessage = ({ data }) => {
                if (data.type === 'epoch') (records[data.model] ??= []).push(data.record);
                if (data.type === 'finished' && --left === 0) ok();
                if (data.type === 'error') fail(new Error(data.message));
              };
              w.postMessage({ type: 'train', runId: 1, config, models: plan[i] });
            }),
        ),
      );
      const seconds = (performance.now() - start) / 1000;
      workers.forEach((w) => w.terminate());
      return { seconds, records };
    },
    { url: 'assets/' + workerFile, plan, config: { seed, epochs } },
  );
}

/** <attn-cue-trainer> on a page where navigator.hardwareConcurrency is `cores`: "Train both", timed to its end. */
async function trainInWidget(browser, url, cores, { epochs, seed }) {
  const page = await browser.open(
    `${url}embed.html?widget=attn-cue-trainer&seed=${seed}&epochs=${epochs}`,
    { width: 1280, height: 720 },
    {
      beforeLoad: ({ puppeteer }) =>
        puppeteer.evaluateOnNewDocument(
          (n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }),
          cores,
        ),
    },
  );
  await page.locate('attn-cue-trainer[data-ready]').waitFor();
  const result = await page.run(
    () =>
      new Promise((ok) => {
        const trainer = document.querySelector('attn-cue-trainer');
        const records = {};
        let finished = 0,
          start = 0;
        trainer.addEventListener('attn-train-epoch', ({ detail }) =>
          (records[detail.model] ??= []).push(detail.validationAccuracy),
        );
        trainer.addEventListener(
          'attn-train-finished',
          () => ++finished === 2 && ok({ seconds: (performance.now() - start) / 1000, records }),
        );
        start = performance.now();
        [...trainer.querySelectorAll('button')].find((b) => b.textContent === 'Train both').click();
      }),
  );
  await page.close();
  return result;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const accuracies = (records) =>
  Object.fromEntries(Object.entries(records).map(([m, list]) => [m, list.map((r) => r.validationAccuracy ?? r)]));

/** Seconds of every mode in every round, and the machine's navigator.hardwareConcurrency. */
export async function measureTrainBoth({ epochs = 30, seed = 3, rounds = 3 } = {}) {
  const run = { epochs, seed };
  const site = await openSite();
  try {
    const page = await site.browser.open(site.server.url + 'embed.html?widget=attn-flowchart', {
      width: 1280,
      height: 720,
    });
    const cores = await page.run(() => navigator.hardwareConcurrency);
    const modes = {
      'Train both, two Workers': () => trainInWorkers(site.browser, site.server.url, [[1], [2]], run),
      '2 blocks alone, one Worker (peer)': () => trainInWorkers(site.browser, site.server.url, [[2]], run),
      'Train both, one Worker': () => trainInWorkers(site.browser, site.server.url, [[1, 2]], run),
      'trainer, Train both, 2 cores': () => trainInWidget(site.browser, site.server.url, 2, run),
      'trainer, Train both, 1 core': () => trainInWidget(site.browser, site.server.url, 1, run),
    };
    const times = Object.fromEntries(Object.keys(modes).map((name) => [name, []]));
    const curves = {};
    for (let round = 0; round < rounds; round++) {
      for (const [name, train] of Object.entries(modes)) {
        const { seconds, records } = await train();
        times[name].push(seconds);
        curves[name] = accuracies(records);
      }
    }
    // Every mode trains the same models: the same per-epoch numbers, bit for bit.
    const both = curves['Train both, one Worker'];
    for (const [name, curve] of Object.entries(curves)) {
      assert.deepEqual(curve[2], both[2], `${name}: the 2-block curve`);
      if (curve[1]) assert.deepEqual(curve[1], both[1], `${name}: the 1-block curve`);
    }
    const peer = median(times['2 blocks alone, one Worker (peer)']);
    return {
      ...run,
      rounds,
      cores,
      times,
      peer,
      ratio: median(times['Train both, two Workers']) / peer,
      widgetRatio: median(times['trainer, Train both, 2 cores']) / peer,
    };
  } finally {
    await closeSite(site);
  }
}

export function printTrainBoth(m) {
  console.log(
    `Train both on two Workers, in Chromium: cue task, ${m.epochs} epochs, seed ${m.seed}; navigator.hardwareConcurrency ${m.cores}; median of ${m.rounds} rounds (all rounds in s)`,
  );
  for (const [name, list] of Object.entries(m.times))
    console.log(
      `${name.padEnd(36)} ${median(list).toFixed(2).padStart(6)} s  ${(median(list) / m.peer).toFixed(2).padStart(5)}x the 2-block run alone  (${list.map((s) => s.toFixed(2)).join(', ')})`,
    );
  console.log('per-epoch validation accuracies: the same in every mode, bit for bit');
  console.log(
    `goal: Train both with two Workers <= ${GOAL}x the 2-block run alone: ${m.ratio <= GOAL ? 'met' : 'NOT met'} (${m.ratio.toFixed(2)}x; through the trainer, drawing included, ${m.widgetRatio.toFixed(2)}x)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      epochs: { type: 'string', default: '30' },
      seed: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
    },
  });
  printTrainBoth(
    await measureTrainBoth({ epochs: Number(values.epochs), seed: Number(values.seed), rounds: Number(values.rounds) }),
  );
}
