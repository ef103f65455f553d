// The probe of a trained cue model, timed where the lesson runs it: a reader's edit is a
// message to the training Worker of the built site (dist/) in headless Chromium, and its answer
// the Worker's reply with the forward pass. Against peers measured in the same run: the same
// forward pass natively and in WebAssembly under node, and the Worker's round trip for a
// message that computes nothing (the floor any reply pays). Times each edit's round trip with
// the Worker idle and while it trains both models, and checks the 50 ms goal.
//
// Then the probe where a reader meets it: the lesson at 1280×800, scrolled from five screens
// above the probe towards it at a fast scroll's pace (50 px a frame), from when the probe comes into
// view (an IntersectionObserver without margin) to its first answer (data-ready): goal 50 ms;
// an answer that came before the probe was in view counts 0. With --before DIR, the same on
// another build of the site (an earlier dist/), in the same run.
//
//   node bench/probe_browser.mjs [--edits 200] [--blocks 2] [--rounds 5] [--before DIR]
// Needs scripts/build (dist/, build/bench/probe_bench_native, build-wasm/facade/). Timings on a
// shared machine are noisy: the medians and the 95th percentiles say more than the maxima.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeSite, openSite } from '../tests/support/chromium.mjs';
import { DIST, serveSite } from '../tests/support/engines.mjs';
import { loadCore, root } from '../tests/wasm/helpers.mjs';
import { microsecondsPerCall } from './timing.mjs';

const { values } = parseArgs({
  options: {
    edits: { type: 'string', default: '200' },
    blocks: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
    before: { type: 'string' },
  },
});
const edits = Number(values.edits),
  blocks = Number(values.blocks);
const GOAL_MS = 50;
const weightsFile = path.join(root, `web/src/generated/cue-${blocks}block.weights.bin`);

// Native and node peers: one forward pass of the same weights on one sequence.
const native = JSON.parse(
  execFileSync(path.join(root, 'build/bench/probe_bench_native'), [weightsFile, String(blocks)], { encoding: 'utf8' }),
);
const core = await loadCore();
const model = core.createCueModel({ blocks });
const bytes = readFileSync(weightsFile);
model.loadWeights(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
const tokens = [3, 1, 7, 5, 0, 6, 2, 2, 4, 7];
let edit = 0;
const nodeUs = microsecondsPerCall(() => {
  edit += 1;
  tokens[edit % 2] = edit % 7;
  model.probe(tokens);
});
model.dispose();

const workerFile = readdirSync(path.join(root, 'dist/assets')).find((f) => /^training-worker-.*\.js$/.test(f));
const site = await openSite();
try {
  const page = await site.browser.open(site.server.url + 'embed.html?widget=attn-flowchart', {
    width: 1280,
    height: 720,
  });
  const result = await page.run(
    async ({ url, edits, blocks }) => {
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
      const ask = (message, key) =>
        new Promise((ok) => {
          waiting.set(key, ok);
          worker.postMessage(message);
        });
      const stats = (times) => {
        const sorted = [...times].sort((a, b) => a - b);
        return {
          median: sorted[Math.floor(sorted.length / 2)],
          p95: sorted[Math.floor(sorted.length * 0.95)],
          max: sorted.at(-1),
          n: sorted.length,
        };
      };
      const memory = [];
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        await ask({ type: 'memory' }, 'memory');
        memory.push(performance.now() - t);
      }
      // A reader's edits: one symbol changed or the cue moved, each answered before the next.
      let id = 0;
      const sequence = [3, 1, 7, 5, 0, 6, 2, 2, 4, 7];
      const probeOnce = async () => {
        const at = id % 8;
        if (sequence[at] !== 7) sequence[at] = (sequence[at] + 1) % 7;
        const t = performance.now();
        const reply = await ask(
          { type: 'probe', requestId: ++id, target: { source: 'recorded', blocks }, tokens: [...sequence] },
          id,
        );
        if (reply.type !== 'probe') throw new Error(reply.message);
        return { ms: performance.now() - t, forwardMs: reply.forwardMs };
      };
      const first = await probeOnce(); // fetches the weights and builds the model
      const idle = [],
        forward = [];
      for (let i = 0; i < edits; i++) {
        const { ms, forwardMs } = await probeOnce();
        idle.push(ms);
        forward.push(forwardMs);
      }
      // The same edits while the Worker trains both models (30 epochs), one every 20 ms.
      training = true;
      worker.postMessage({ type: 'train', runId: 1, config: { epochs: 30 } });
      await new Promise((ok) => setTimeout(ok, 200));
      const busy = [];
      while (training && busy.length < edits) {
        busy.push((await probeOnce()).ms);
        await new Promise((ok) => setTimeout(ok, 20));
      }
      worker.postMessage({ type: 'cancel' });
      worker.terminate();
      return { first: first.ms, memory: stats(memory), idle: stats(idle), forward: stats(forward), busy: stats(busy) };
    },
    { url: 'assets/' + workerFile, edits, blocks },
  );

  const ms = (x) => `${x.toFixed(3).padStart(8)} ms`;
  console.log(
    `probe of the recorded ${blocks}-block model, one sequence of 10 tokens (median of each; Chromium round trips are per edit)`,
  );
  console.log(`forward pass, native              ${ms(native.probe_us / 1000)}`);
  console.log(
    `forward pass, WebAssembly in node ${ms(nodeUs / 1000)}  ${(nodeUs / native.probe_us).toFixed(2)}x native`,
  );
  console.log(
    `forward pass, Chromium Worker     ${ms(result.forward.median)}  ${((result.forward.median * 1000) / native.probe_us).toFixed(2)}x native`,
  );
  console.log(`round trip, first probe (fetches the weights, builds the model) ${ms(result.first)}`);
  console.log(
    `round trip per edit, Worker idle      median ${ms(result.idle.median)}, p95 ${ms(result.idle.p95)}, max ${ms(result.idle.max)} (${result.idle.n} edits); the empty round trip's median ${ms(result.memory.median)} (Chromium's clock has 0.1 ms steps)`,
  );
  console.log(
    `round trip per edit, Worker training  median ${ms(result.busy.median)}, p95 ${ms(result.busy.p95)}, max ${ms(result.busy.max)} (${result.busy.n} edits)`,
  );
  const met = (x) => (x <= GOAL_MS ? 'met' : 'NOT met');
  console.log(
    `goal: each edit answered within ${GOAL_MS} ms: idle p95 ${met(result.idle.p95)} (${(result.idle.p95 / GOAL_MS).toFixed(3)} of the budget), while training p95 ${met(result.busy.p95)} (${(result.busy.p95 / GOAL_MS).toFixed(3)} of the budget), first probe ${met(result.first)}`,
  );

  // The probe met in the lesson, each build's rounds interleaved (a busy machine slows them alike).
  const builds = [['this build', DIST], ...(values.before ? [['--before', path.resolve(values.before)]] : [])];
  const servers = await Promise.all(builds.map(([, dir]) => serveSite({ roots: [dir] })));
  const waits = builds.map(() => []);
  try {
    for (let round = 0; round < Number(values.rounds); round++)
      for (const [i, server] of servers.entries()) waits[i].push(await probeInView(site.browser, server.url));
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
  console.log(
    `the probe met in the lesson: from in view to its first answer (ms, ${values.rounds} rounds; 0: answered before)`,
  );
  for (const [i, [name]] of builds.entries()) {
    const sorted = [...waits[i]].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `${name.padEnd(12)} median ${median.toFixed(1).padStart(7)}, max ${sorted.at(-1).toFixed(1).padStart(7)}  ` +
        `goal ${GOAL_MS}: ${median <= GOAL_MS ? 'met' : 'NOT met'} (${(median / GOAL_MS).toFixed(2)} of it)  [${waits[i].map((w) => w.toFixed(0)).join(' ')}]`,
    );
  }
} finally {
  await closeSite(site);
}

/** The lesson at `url`, scrolled fast towards its probe: ms from the probe in view to its first answer (0 when it answered first). */
async function probeInView(browser, url) {
  const page = await browser.open(`${url}index.html`, { width: 1280, height: 800 });
  try {
    await page.waitFor(() => document.documentElement.dataset.lessonReady, undefined, { timeout: 60000 });
    return await page.run(
      () =>
        new Promise((resolve) => {
          const probe = document.querySelector('attn-cue-probe');
          let seen = 0,
            answered = 0;
          const done = () => seen && answered && resolve(Math.max(0, answered - seen));
          if (probe.hasAttribute('data-ready')) answered = performance.now(); // started before the flick
          setTimeout(() => resolve(NaN), 60000); // never in view, or never answered
          new IntersectionObserver((entries) => {
            if (!seen && entries.some((e) => e.isIntersecting)) seen = performance.now();
            done();
          }).observe(probe);
          new MutationObserver(() => {
            if (!answered && probe.hasAttribute('data-ready')) answered = performance.now();
            done();
          }).observe(probe, { attributes: true, attributeFilter: ['data-ready'] });
          scrollTo({
            top: Math.max(0, probe.getBoundingClientRect().top + scrollY - 5 * innerHeight),
            behavior: 'instant',
          });
          // Until the probe's top is well in view, wherever the widgets drawing above have moved it.
          const flick = () => {
            if (probe.getBoundingClientRect().top < innerHeight - 100) return;
            scrollBy({ top: 50, behavior: 'instant' });
            requestAnimationFrame(flick);
          };
          requestAnimationFrame(flick);
        }),
    );
  } finally {
    await page.close();
  }
}
