// Benchmark: times the lesson's default scale sweep (200 draws, 12 tokens, d_k 4, 16, 64, 256) in
// Chromium (Debian's package through tests/support/engines.mjs), on a page (where the lesson computes
// it once) and in a module Worker, and checks that the browser computes the same figures as
// node. The goal: under 50 ms (ATTN_SWEEP_BUDGET_MS overrides it). Checked on the
// median of RUNS timed calls after WARMUP untimed ones (the first call compiles the module's
// hot paths in V8's baseline tier; the optimising tier arrives a few calls later), in both
// places. What the sweep's time is made of, natively and in node: bench/run-normals.
//
// Run: node bench/sweep_chromium.mjs   (after scripts/build; npm run bench:sweep)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { launch } from '../tests/support/engines.mjs';
import { facadeDir, loadCore } from '../tests/wasm/helpers.mjs';

const budget = Number(process.env.ATTN_SWEEP_BUDGET_MS ?? 50);
const WARMUP = 5;
const RUNS = 21;

// The measurement, as source shared by the page and the Worker: one cold call (timed, reported
// only), WARMUP - 1 more untimed calls, then RUNS timed calls.
const measure = `
  import { loadCore } from '/facade/core/index.js';
  export async function measure() {
    const core = await loadCore();
    let start = performance.now();
    const sweep = core.scaleSweep();
    const cold = performance.now() - start;
    for (let i = 1; i < ${WARMUP}; i++) core.scaleSweep();
    const warm = [];
    for (let i = 0; i < ${RUNS}; i++) {
      start = performance.now();
      core.scaleSweep();
      warm.push(performance.now() - start);
    }
    warm.sort((a, b) => a - b);
    const means = sweep.rows.map((r) => [r.unscaled.maxWeight.mean, r.scaled.maxWeight.mean,
                                         r.unscaled.entropy.mean, r.scaled.entropy.mean,
                                         r.unscaled.jacobianNorm.mean, r.scaled.jacobianNorm.mean]);
    return { cold, median: warm[${RUNS >> 1}], min: warm[0], max: warm.at(-1), means };
  }`;

const files = {
  '/measure.mjs': measure,
  '/worker.mjs': `import { measure } from '/measure.mjs';
    measure().then((result) => postMessage({ result }), (error) => postMessage({ error: String(error.stack || error) }));`,
  '/index.html': `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>scale sweep timing</title>
    <script type="module">
      import { measure } from '/measure.mjs';
      try {
        const page = await measure();
        const worker = await new Promise((resolve, reject) => {
          const w = new Worker('/worker.mjs', { type: 'module' });
          w.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data.result));
          w.onerror = (event) => reject(new Error(event.message || 'worker failed'));
        });
        window.attnTiming = { page, worker };
      } catch (error) {
        window.attnTiming = { error: String(error.stack || error) };
      }
      document.body.dataset.state = 'done';
    </script><body>`,
};
const types = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

// Serves the files above and /facade/* from the facade build, nothing else.
function serve() {
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url, 'http://127.0.0.1');
    if (files[pathname] !== undefined) {
      response.writeHead(200, { 'content-type': types[path.extname(pathname)] }).end(files[pathname]);
      return;
    }
    const file =
      pathname.startsWith('/facade/') && path.resolve(facadeDir, '.' + decodeURIComponent(pathname.slice(7)));
    if (!file || !file.startsWith(facadeDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// One browser session for both tests below.
async function measureInChromium() {
  const server = await serve();
  const browser = await launch('chromium');
  try {
    const page = await browser.open(`http://127.0.0.1:${server.address().port}/index.html`, {
      width: 1280,
      height: 720,
    });
    await page.waitFor(() => document.body?.dataset.state === 'done', undefined, { timeout: 120000 });
    // Uncaught errors fail the run; console messages do not.
    const problems = page.engineProblems.filter((problem) => problem.startsWith('page error'));
    return { problems, timing: await page.run(() => window.attnTiming) };
  } finally {
    await browser.close();
    server.close();
  }
}

const { problems, timing } = await measureInChromium();

// A benchmark, not a test (speed goals are reported, not asserted): the timings against the
// goal, with node's time for the same call as the peer measured in this run.
if (problems.length || timing.error) throw new Error([...problems, timing.error].filter(Boolean).join('; '));
const core = await loadCore();
core.scaleSweep();
const nodeTimes = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  core.scaleSweep();
  nodeTimes.push(performance.now() - start);
}
const nodeMedian = nodeTimes.sort((a, b) => a - b)[RUNS >> 1];
console.log(
  `default scale sweep (d_k 4, 16, 64, 256; 200 draws of 12 tokens), median of ${RUNS} warm runs; goal ${budget} ms in Chromium`,
);
console.log(`  node (wasm)        ${nodeMedian.toFixed(1).padStart(6)} ms`);
for (const where of ['page', 'worker']) {
  const { cold, median, min, max } = timing[where];
  console.log(
    `  Chromium ${where.padEnd(9)} ${median.toFixed(1).padStart(6)} ms  (cold ${cold.toFixed(1)}, min ${min.toFixed(1)}, max ${max.toFixed(1)})  ` +
      `${(median / nodeMedian).toFixed(2)}x node  goal ${median < budget ? 'met' : 'NOT met'}`,
  );
}
