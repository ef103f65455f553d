// An intervention of the probe, timed where the lesson runs it: a click in the probe's fieldset
// is one 'intervene' message per model (the 1-block and the 2-block one, as the widget sends
// them) to the training Worker of the built site (dist/) in headless Chromium, and its answer
// both replies. Against a peer measured in the same run: the plain probe's forward pass of both
// models (the probe's own round trip per edit) and the Worker's empty round trip. Clicks cycle
// through a zero and a mean knock-out, the next-token and first-CUE patterns and a patch of
// block 1's output at one position; timed with the Worker idle and while it trains both models
// (the trainer's Worker, which answers between training slices). Checks the goals: p95 within
// 100 ms idle and 250 ms while training.
//
//   node bench/intervene_browser.mjs [--clicks 100]
// Needs dist/ (npx vite build or scripts/build web). Timings on a shared machine are noisy: the
// medians and the 95th percentiles say more than the maxima.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeSite, openSite } from '../tests/support/chromium.mjs';
import { root } from '../tests/wasm/helpers.mjs';

const { values } = parseArgs({ options: { clicks: { type: 'string', default: '100' } } });
const clicks = Number(values.clicks);
const GOAL_IDLE_MS = 100;
const GOAL_TRAINING_MS = 250;

const workerFile = readdirSync(path.join(root, 'dist/assets')).find((f) => /^training-worker-.*\.js$/.test(f));
const site = await openSite();
try {
  const page = await site.browser.open(site.server.url + 'embed.html?widget=attn-flowchart', {
    width: 1280,
    height: 720,
  });
  const result = await page.run(
    async ({ url, clicks }) => {
      const worker = new Worker(url, { type: 'module' });
      const waiting = new Map();
      let training;
      worker.onmessage = ({ data }) => {
        if (data.type === 'finished' && data.model === 2) training = false;
        const key = data.requestId ?? (data.type === 'memory' ? 'memory' : undefined);
        waiting.get(key)?.(data);
        waiting.delete(key);
      };
      await new Promise((ok) =>
        worker.addEventListener('message', ({ data }) => data.type === 'ready' && ok(), { once: true }),
      );
      let id = 0;
      const ask = (message) => {
        const requestId = ++id;
        return new Promise((ok, fail) => {
          waiting.set(requestId, (reply) => (reply.type === 'error' ? fail(new Error(reply.message)) : ok(reply)));
          worker.postMessage({ ...message, requestId });
        });
      };
      const stats = (times) => {
        const sorted = [...times].sort((a, b) => a - b);
        return {
          median: sorted[Math.floor(sorted.length / 2)],
          p95: sorted[Math.floor(sorted.length * 0.95)],
          max: sorted.at(-1),
          n: sorted.length,
        };
      };
      const tokens = [3, 1, 7, 5, 0, 6, 2, 2, 4, 7];
      const CONFIGS = [
        [{ action: 'knock-out', ablation: 'zero', block: 1, head: 1 }, { tokens }],
        [{ action: 'knock-out', ablation: 'mean', block: 1, head: 1 }, { tokens }],
        [{ action: 'pattern', pattern: 'next', block: 1, head: 1 }, { tokens }],
        [{ action: 'pattern', pattern: 'first-cue', block: 1, head: 1 }, { tokens }],
        [
          { action: 'patch', block: 1, head: 0 },
          { tokens, positions: [3] },
        ],
      ];
      // One click: both models asked at once, as the widget does; answered when both replied.
      const click = async (i) => {
        const [config, inputs] = CONFIGS[i % CONFIGS.length];
        const t = performance.now();
        const replies = await Promise.all(
          [1, 2].map((blocks) => ask({ type: 'intervene', target: { source: 'recorded', blocks }, config, inputs })),
        );
        return { ms: performance.now() - t, workerMs: replies.map((r) => r.ms), action: config.action };
      };
      const probeBoth = async () => {
        const t = performance.now();
        await Promise.all(
          [1, 2].map((blocks) => ask({ type: 'probe', target: { source: 'recorded', blocks }, tokens })),
        );
        return performance.now() - t;
      };
      const empty = [];
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        await new Promise((ok) => {
          waiting.set('memory', ok);
          worker.postMessage({ type: 'memory' });
        });
        empty.push(performance.now() - t);
      }
      const firstProbe = await probeBoth(); // fetches the weights, builds both models
      const first = [];
      for (let i = 0; i < CONFIGS.length; i++) first.push((await click(i)).ms); // the clean and mean passes, once
      const idle = [],
        probes = [],
        perAction = {},
        inWorker = [];
      for (let i = 0; i < clicks; i++) {
        const c = await click(i);
        idle.push(c.ms);
        inWorker.push(...c.workerMs);
        (perAction[c.action] ??= []).push(c.ms);
        probes.push(await probeBoth());
      }
      // The same clicks while the Worker trains both models (30 epochs), one every 50 ms.
      training = true;
      worker.postMessage({ type: 'train', runId: 1, config: { epochs: 30 } });
      await new Promise((ok) => setTimeout(ok, 300));
      const busy = [];
      for (let i = 0; training && busy.length < clicks; i++) {
        busy.push((await click(i)).ms);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      worker.postMessage({ type: 'cancel' });
      worker.terminate();
      return {
        empty: stats(empty),
        firstProbe,
        first,
        idle: stats(idle),
        probes: stats(probes),
        inWorker: stats(inWorker),
        perAction: Object.fromEntries(Object.entries(perAction).map(([a, t]) => [a, stats(t)])),
        busy: stats(busy),
      };
    },
    { url: 'assets/' + workerFile, clicks },
  );
  const ms = (x) => `${x.toFixed(1).padStart(6)} ms`;
  const line = (s) => `median ${ms(s.median)}, p95 ${ms(s.p95)}, max ${ms(s.max)} (${s.n})`;
  console.log(
    'intervention of the recorded 1-block and 2-block models, both asked per click (Chromium Worker round trips)',
  );
  console.log(`empty round trip                       ${line(result.empty)}`);
  console.log(`peer: probe of both models per edit    ${line(result.probes)}`);
  console.log(`first probe (fetches weights, builds)  ${ms(result.firstProbe)}`);
  console.log(
    `first click of each action (clean pass, mean once) ${result.first.map((x) => x.toFixed(1)).join(', ')} ms`,
  );
  console.log(`one intervention, time in the Worker   ${line(result.inWorker)}`);
  console.log(`click, Worker idle                     ${line(result.idle)}`);
  for (const [action, s] of Object.entries(result.perAction)) console.log(`  ${action.padEnd(36)} ${line(s)}`);
  console.log(`click, Worker training                 ${line(result.busy)}`);
  console.log(
    `ratio: a click's median over the probe's median ${(result.idle.median / result.probes.median).toFixed(1)}x; over the empty round trip ${(result.idle.median / result.empty.median).toFixed(1)}x`,
  );
  const met = (x, goal) => `${x <= goal ? 'met' : 'NOT met'} (${(x / goal).toFixed(3)} of ${goal} ms)`;
  console.log(
    `goals: p95 idle ${met(result.idle.p95, GOAL_IDLE_MS)}; p95 while training ${met(result.busy.p95, GOAL_TRAINING_MS)}`,
  );
} finally {
  await closeSite(site);
}
