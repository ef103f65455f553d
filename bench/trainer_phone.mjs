// The trainer on a phone's CPU: the lesson (the built site, dist/; --page alone: the trainer
// framed on a page of its own, embed.html?widget=attn-cue-trainer) at 360×740 in headless
// Chromium with its CPU slowed (CDP Emulation.setCPUThrottlingRate, 4× by default), while
// <attn-cue-trainer> trains its heaviest run (8 heads per block, 150 epochs) and a key is pressed
// in its seed field every 150-250 ms. Prints, against the goals:
//   - frames per second (animation frames the page ran while the run trained; goal >= 30);
//   - long tasks (main-thread tasks over 50 ms: how many, their total blocking time, the longest);
//   - key to frame: from a key press (its event's timestamp) to the start of the next frame,
//     p50 and p95 (goal p95 <= 100 ms).
// With --before DIR, the same measured on another build of the site (an earlier dist/) in the
// same run, and the ratios. Then the same run's training time in the Workers of Chromium,
// Firefox and WebKit (tests/support/engines.mjs), CPU not slowed: two Workers, one per model, as
// "Train both" runs where a machine has two cores; from the train request to the last model's
// finished reply, the Worker's core load included.
//
//   npm run bench:phone [-- --heads 8 --epochs 150 --rate 4 --page lesson --before /tmp/dist-old --engines firefox,webkit]
// Needs the built site (npx vite build). On a machine others are using the figures are inflated:
// compare them with the goals and with --before measured in the same run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DIST, launch, serveSite } from '../tests/support/engines.mjs';

const { values } = parseArgs({
  options: {
    heads: { type: 'string', default: '8' },
    epochs: { type: 'string', default: '150' },
    rate: { type: 'string', default: '4' },
    before: { type: 'string' },
    engines: { type: 'string', default: 'firefox,webkit' },
    page: { type: 'string', default: 'lesson' },
  },
});
const heads = Number(values.heads),
  epochs = Number(values.epochs),
  rate = Number(values.rate);
for (const [name, value] of Object.entries({ heads, epochs, rate }))
  if (!(Number.isInteger(value) && value >= 1))
    throw new Error(`--${name} must be a whole number >= 1, got "${values[name]}"`);
if (!['lesson', 'alone'].includes(values.page))
  throw new Error(`--page must be lesson or alone (the trainer framed on a page of its own), got "${values.page}"`);
const PAGE = values.page === 'lesson' ? 'index.html' : 'embed.html?widget=attn-cue-trainer';
const GOALS = { fps: 30, keyP95: 100 };

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lesson of the site in `root`, its trainer training heads × epochs with the CPU slowed `rate` times: what the page did meanwhile. */
async function phoneRun(browser, root) {
  const site = await serveSite({ roots: [root] });
  try {
    const page = await browser.open(`${site.url}${PAGE}`, { width: 360, height: 740 });
    await page.waitFor(
      () => {
        const trainer = document.querySelector('attn-cue-trainer');
        if (!trainer) return false;
        trainer.scrollIntoView({ block: 'start', behavior: 'instant' });
        return trainer.hasAttribute('data-ready');
      },
      undefined,
      { timeout: 120000 },
    );
    const cdp = await page.puppeteer.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.run(
      ({ heads, epochs }) => {
        const trainer = document.querySelector('attn-cue-trainer');
        const [seed, epochsInput] = trainer.querySelectorAll('input');
        trainer.querySelector('select').value = String(heads);
        epochsInput.value = String(epochs);
        const phone = (window.phone = { frames: 0, longTasks: [], keys: [], finished: 0, start: 0, end: 0 });
        new PerformanceObserver((list) => {
          for (const task of list.getEntries())
            if (task.startTime >= phone.start && !phone.end) phone.longTasks.push(task.duration);
        }).observe({ type: 'longtask' });
        const frame = () => {
          if (phone.end) return;
          phone.frames += 1;
          requestAnimationFrame(frame);
        };
        trainer.addEventListener('attn-train-finished', () => {
          if (++phone.finished === 2) phone.end = performance.now();
        });
        seed.addEventListener('keydown', (event) => {
          const pressed = event.timeStamp;
          requestAnimationFrame(() => phone.keys.push(performance.now() - pressed));
        });
        seed.focus();
        phone.start = performance.now();
        requestAnimationFrame(frame);
        trainer.querySelectorAll('.attn-controls')[1].querySelector('button').click();
      },
      { heads, epochs },
    );
    // Keys while it trains, at a reader's pace.
    while (!(await page.run(() => window.phone.end > 0))) {
      await page.puppeteer.keyboard.press('ArrowRight');
      await sleep(150 + Math.random() * 100);
    }
    const phone = await page.run(() => window.phone);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const problems = await page.problems();
    await page.close();
    const seconds = (phone.end - phone.start) / 1000;
    return {
      seconds,
      fps: phone.frames / seconds,
      longTasks: phone.longTasks.length,
      blockingMs: phone.longTasks.reduce((sum, d) => sum + d - 50, 0),
      longestMs: Math.max(0, ...phone.longTasks),
      keys: phone.keys.length,
      keyP50: quantile(phone.keys, 0.5),
      keyP95: quantile(phone.keys, 0.95),
      problems,
    };
  } finally {
    await site.close();
  }
}

/** The run trained in two fresh Workers (one per model) of `engine`, on a page of the site; seconds. */
async function workerRun(engine, site) {
  const workerFile = readdirSync(path.join(DIST, 'assets')).find((f) => /^training-worker-.*\.js$/.test(f));
  const browser = await launch(engine);
  try {
    const page = await browser.open(`${site.url}embed.html?widget=attn-flowchart`, { width: 1280, height: 720 });
    await page.run(
      ({ url, config }) => {
        window.workerRun = { seconds: 0, error: '' };
        const workers = [[1], [2]].map((models) => ({ models, worker: new Worker(url, { type: 'module' }) }));
        const start = performance.now();
        let left = workers.length;
        for (const { models, worker } of workers) {
          worker.onmessage = ({ data }) => {
            if (data.type === 'error') window.workerRun.error = data.message;
            if (data.type === 'finished' && --left === 0) {
              window.workerRun.seconds = (performance.now() - start) / 1000;
              workers.forEach((w) => w.worker.terminate());
            }
          };
          worker.postMessage({ type: 'train', runId: 1, config, models });
        }
      },
      { url: `assets/${workerFile}`, config: { heads, epochs } },
    );
    const result = await page.waitFor(
      () => (window.workerRun.seconds || window.workerRun.error) && window.workerRun,
      undefined,
      {
        timeout: 900000,
      },
    );
    if (result.error) throw new Error(`${engine}: the Worker said: ${result.error}`);
    return { engine, version: browser.version, seconds: result.seconds };
  } finally {
    await browser.close();
  }
}

const f1 = (x) => x.toFixed(1);
const f0 = (x) => x.toFixed(0);
console.log(
  `# the trainer on a phone: ${heads} heads per block, ${epochs} epochs, CPU slowed ${rate}×, 360×740, ${values.page === 'lesson' ? 'in the lesson' : 'on a page of its own'}`,
);
const chromium = await launch('chromium');
const builds = [['this build', DIST], ...(values.before ? [['--before', path.resolve(values.before)]] : [])];
const phone = {};
try {
  for (const [name, root] of builds) phone[name] = await phoneRun(chromium, root);
} finally {
  await chromium.close();
}
const rows = [
  ['frames per second', (r) => f1(r.fps), `>= ${GOALS.fps}`, (r) => r.fps >= GOALS.fps],
  ['key to frame p50 (ms)', (r) => f0(r.keyP50), '', () => true],
  ['key to frame p95 (ms)', (r) => f0(r.keyP95), `<= ${GOALS.keyP95}`, (r) => r.keyP95 <= GOALS.keyP95],
  ['long tasks', (r) => String(r.longTasks), '', () => true],
  ['blocking time (ms)', (r) => f0(r.blockingMs), '', () => true],
  ['longest task (ms)', (r) => f0(r.longestMs), '', () => true],
  ['training, slowed (s)', (r) => f1(r.seconds), '', () => true],
];
const names = Object.keys(phone);
console.log(['measure'.padEnd(24), ...names.map((n) => n.padStart(12)), 'goal'.padStart(8), '  this build'].join(''));
for (const [label, show, goal, meets] of rows)
  console.log(
    [
      label.padEnd(24),
      ...names.map((n) => show(phone[n]).padStart(12)),
      goal.padStart(8),
      goal ? (meets(phone['this build']) ? '  meets' : '  MISSES') : '',
    ].join(''),
  );
console.log(`# key presses measured: ${names.map((n) => `${n} ${phone[n].keys}`).join(', ')}`);
if (phone['--before'])
  console.log(
    `# this build / --before: frames per second ×${(phone['this build'].fps / phone['--before'].fps).toFixed(2)}, ` +
      `key p95 ×${(phone['this build'].keyP95 / phone['--before'].keyP95).toFixed(2)}, ` +
      `blocking time ×${(phone['this build'].blockingMs / Math.max(1, phone['--before'].blockingMs)).toFixed(2)}`,
  );
for (const n of names) if (phone[n].problems.length) console.log(`# ${n}: problems: ${phone[n].problems.join('; ')}`);

// The training in each engine's Workers (--engines none: not measured).
const site = values.engines === 'none' ? undefined : await serveSite();
if (site)
  try {
    const engines = ['chromium', ...values.engines.split(',').filter(Boolean)];
    const runs = [];
    for (const engine of engines) runs.push(await workerRun(engine, site));
    console.log(`# the same run in two Workers, CPU not slowed (the Worker's core load included)`);
    for (const r of runs)
      console.log(
        `${r.engine.padEnd(10)} ${f1(r.seconds).padStart(7)} s  ×${(r.seconds / runs[0].seconds).toFixed(2)} Chromium's  (${r.version})`,
      );
  } finally {
    await site.close();
  }
