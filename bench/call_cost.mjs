// The call-cost benchmark: the hot calls the widgets make, through the facade of this checkout
// and through the facade of a baseline build (commit 42897e2, whose bindings are one file,
// wasm/bindings.cpp), so that the bindings as they stand are shown to cost a widget's calls no
// more than those. Each call is timed in a node process of its own that loads both builds; each
// round times it on both, the two taken in turn (which one goes first alternates by round); the
// table gives the median of the rounds and fails a call whose current median is more than 10%
// above the baseline's.
//
//   bench/build-baseline                     once: builds 42897e2 in build/call-cost-baseline
//   npm run bench:calls                      after scripts/build (or the module and facade)
// Timed on the process's CPU clock, so other work on the machine disturbs it less; node runs it
// with --single-threaded-gc (the npm script does), else the GC's helper threads' CPU would count.
//
// Where the builds are (build folders of the WebAssembly core, with facade/ and wasm/ inside):
//   ATTN_CURRENT   this checkout's, default build-wasm
//   ATTN_BASELINE  the baseline's, default build/call-cost-baseline/build-wasm
//   ATTN_ROUNDS    rounds, default 5
//   ATTN_CALLS     only these calls, comma-separated names from the table (to look into one)
// Both sides load the shipped module their loadCore() loads (wasm/attention_lab.*, or
// wasm/attention_core.* in a build whose one module holds the whole core), not the tests' build
// with the heap-block counters, next to their compiled facade (facade/core/, or facade/core.js in
// a build whose facade is one file), staged in a scratch folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bestMicroseconds, callsFilling, cpuMicroseconds } from './timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT = 1.1;
const rounds = Number(process.env.ATTN_ROUNDS ?? 5);
const RUNS = 5;

/** Copies a build's facade and shipped module into a scratch folder and loads the core from it. */
async function loadBuild(label, buildDir, scratch) {
  const entry = fs.existsSync(path.join(buildDir, 'facade/core/index.js')) ? 'core/index.js' : 'core.js';
  const facade = path.join(buildDir, 'facade', entry.split('/')[0]);
  const name = fs.existsSync(path.join(buildDir, 'wasm/attention_lab.wasm')) ? 'attention_lab' : 'attention_core';
  const module = path.join(buildDir, `wasm/${name}.wasm`);
  for (const file of [facade, module])
    if (!fs.existsSync(file))
      throw new Error(
        `${label}: ${file} is missing. ` +
          (label === 'baseline'
            ? 'Build the baseline with bench/build-baseline, or set ATTN_BASELINE to its build-wasm folder.'
            : 'Run scripts/build first, or set ATTN_CURRENT to a build-wasm folder.'),
      );
  const dir = path.join(scratch, label);
  fs.mkdirSync(path.join(dir, 'generated'), { recursive: true });
  fs.cpSync(facade, path.join(dir, entry.split('/')[0]), { recursive: true });
  for (const ext of ['mjs', 'wasm'])
    fs.copyFileSync(path.join(buildDir, `wasm/${name}.${ext}`), path.join(dir, `generated/${name}.${ext}`));
  const { loadCore } = await import(pathToFileURL(path.join(dir, entry)).href);
  return loadCore({ wasmBinary: fs.readFileSync(module) });
}

/**
 * The calls, each as the widget makes it, with the same inputs on both builds. Returns
 * name -> function; each function returns a number so the work cannot be skipped.
 */
function workloads(core) {
  const keys = [
    [1, 0],
    [0.7, 0.7],
    [0, 1],
    [-0.7, 0.7],
    [-1, 0],
  ];
  const values = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
    [0.5, 0.5],
  ];
  const temperature = 0.5;
  const rng = core.random(2026);
  const x12 = rng.normalMatrix(12, 64);
  const x10 = rng.normalMatrix(10, 64);
  const causal12 = core.causalMask(12);
  const layer = core.createMultiHead({ dModel: 64, numHeads: 4, weights: { seed: 7 } });
  // The mask exercise's 6 x 6 grid, half the pairs switched on.
  const grid = {
    rows: 6,
    cols: 6,
    data: Uint8Array.from({ length: 36 }, (_, i) => (i % 6 <= Math.floor(i / 6) ? 1 : 0)),
  };
  // The trainer's Worker: 8 batches a slice, then the model's state for the progress message.
  // The call shape differs: the baseline reads it with metrics() (history included), the
  // current facade with progress(); each build gets the call it offers. Epochs at the largest
  // the wasm build accepts, so a model rarely finishes mid-measure (then a fresh one is made).
  const cueConfig = { blocks: 2, epochs: 200 };
  let model = core.createCueModel(cueConfig);
  const status = (m) => (typeof m.progress === 'function' ? m.progress() : m.metrics());
  return {
    // soft-lookup's compute(): query / temperature, 5 keys, scaling on.
    soft_lookup_1x2_5keys: () => {
      const result = core.attention(
        { rows: 1, cols: 2, data: Float32Array.of(0.8 / temperature, 0.3 / temperature) },
        { rows: 5, cols: 2, data: Float32Array.from(keys.flat()) },
        { rows: 5, cols: 2, data: Float32Array.from(values.flat()) },
        { scale: true },
      );
      return Array.from(result.weights.data)[0] + Array.from(result.output.data)[0];
    },
    self_attention_12x64: () => core.attention(x12, x12, x12).output.data[0],
    self_attention_12x64_causal: () => core.attention(x12, x12, x12, { mask: causal12 }).weights.data[1],
    mha_4heads_forward_10x64: () => layer.forward(x10, x10, x10).output.data[0],
    mha_4heads_one_shot_10x64: () =>
      core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 7 } }, x10, x10, x10).output.data[0],
    // The parameter-count exercise builds a layer and frees it.
    mha_create_dispose_64x4: () => {
      const l = core.createMultiHead({ dModel: 64, numHeads: 4, weights: { seed: 0 } });
      const n = l.parameterCount;
      l.dispose();
      return n;
    },
    // The mask exercise's check: allowed fraction, then the grid against a causal mask.
    mask_check_6x6: () => core.allowedFraction(grid) + core.combineMasks(grid, core.causalMask(6)).data[1],
    scale_sweep_defaults: () => core.scaleSweep().rows[0].scaled.maxWeight.mean,
    mask_demo_defaults: () => core.maskDemo().cases[0].allowedFraction,
    heads_demo_defaults: () => core.headsDemo().queriesWithDifferingArgmax,
    cue_slice_8_batches: () => {
      if (model.trainBatches(8) === 0) {
        model.dispose();
        model = core.createCueModel(cueConfig);
      }
      return status(model).batch;
    },
    cue_status: () => status(model).batch,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Both builds' workload functions, loaded from copies in a fresh scratch folder. */
async function loadSides(builds) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'call-cost-'));
  try {
    const sides = {};
    for (const [label, dir] of Object.entries(builds)) sides[label] = workloads(await loadBuild(label, dir, scratch));
    return sides;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * One call on both builds, in this process: per round the best of RUNS runs, the runs of the
 * two builds taken in turn (which goes first alternates by round), on the process's CPU clock.
 * Returns { baseline: [us per call, one a round], current: [...] }.
 */
function timeCall(sides, name) {
  let sink = 0;
  // Calls per run: counted on the baseline (~100 ms of CPU a run) and the same count on both
  // builds, so both do the same work (the trainer the same batches); counting warms both up.
  const calls = callsFilling(
    () => {
      sink += sides.baseline[name]();
    },
    100,
    cpuMicroseconds,
  );
  callsFilling(
    () => {
      sink += sides.current[name]();
    },
    100,
    cpuMicroseconds,
  );
  const times = { baseline: [], current: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? ['current', 'baseline'] : ['baseline', 'current'];
    const best = { baseline: Infinity, current: Infinity };
    for (let run = 0; run < RUNS; run++)
      for (const label of order) {
        const fn = sides[label][name];
        best[label] = Math.min(
          best[label],
          bestMicroseconds(
            () => {
              sink += fn();
            },
            calls,
            1,
            cpuMicroseconds,
          ),
        );
      }
    for (const label of order) times[label].push(best[label]);
  }
  if (!Number.isFinite(sink)) throw new Error(`${name} computed non-finite numbers`);
  return times;
}

async function main() {
  if (!process.execArgv.includes('--single-threaded-gc'))
    console.log('note: run with node --single-threaded-gc (npm run bench:calls does) or GC threads count in the times');
  const builds = {
    baseline: path.resolve(root, process.env.ATTN_BASELINE ?? 'build/call-cost-baseline/build-wasm'),
    current: path.resolve(root, process.env.ATTN_CURRENT ?? 'build-wasm'),
  };
  // A child process per call (`--call NAME`, JSON out): a call measured alone, in a process
  // whose heaps no other call has shaped (in one process, the calls swing each other's times by
  // +-20% run to run).
  const at = process.argv.indexOf('--call');
  if (at >= 0) {
    console.log(JSON.stringify(timeCall(await loadSides(builds), process.argv[at + 1])));
    return;
  }
  const all = Object.keys((await loadSides(builds)).current);
  const only = process.env.ATTN_CALLS?.split(',');
  const names = all.filter((name) => !only || only.includes(name));
  if (!names.length) throw new Error(`ATTN_CALLS names none of: ${all.join(', ')}`);

  const rows = [['call', 'baseline us', 'current us', 'current/baseline', `<= ${LIMIT.toFixed(2)}`]];
  let failed = 0;
  for (const name of names) {
    const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--call', name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const times = JSON.parse(out.trim().split('\n').at(-1));
    const b = median(times.baseline),
      c = median(times.current);
    const pass = c / b <= LIMIT;
    if (!pass) failed++;
    rows.push([name, b.toFixed(3), c.toFixed(3), (c / b).toFixed(3), pass ? 'PASS' : 'FAIL']);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '));
  console.log(
    `median of ${rounds} rounds (each the best of ${RUNS} runs of the same calls, >= 100 ms of CPU on the ` +
      `baseline, the builds in turn; process CPU time; one process per call); node ${process.version}, ` +
      `load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  console.log(`baseline: ${builds.baseline}\ncurrent:  ${builds.current}`);
  if (failed) {
    console.log(`${failed} call(s) more than ${Math.round((LIMIT - 1) * 100)}% slower than the baseline`);
    process.exitCode = 1;
  }
}

await main();
