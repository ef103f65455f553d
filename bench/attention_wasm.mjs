// WebAssembly side of the attention-calls benchmark, through the facade
// (web/src/core/ compiled to build-wasm/facade/), on the same inputs and with the same timing
// rule as bench/attention_native.cpp: microseconds per call, the best of 7 runs of ~100 ms each.
// Also, in the benchmark module (build-wasm/bench/attention_bench, the shipped module's flags),
// the attention products of bench/gemm_workloads.hpp with Eigen and with the SIMD128 kernels
// core/src/products.hpp uses in WebAssembly: the evidence that the kernels beat Eigen there.
//   node bench/attention_wasm.mjs                      one round, as a JSON line
//   node bench/attention_wasm.mjs --report N.jsonl W.jsonl
//        native (N) against wasm (W) rounds: each figure the median over the rounds, with the
//        ratios, the goals and the native build's flags. bench/run-attention does both.

import fs from 'node:fs';
import path from 'node:path';

import { loadCore, root } from '../tests/wasm/helpers.mjs';
import { median, table } from './report.mjs';
import { microsecondsPerCall } from './timing.mjs';

export const GOALS = { soft_lookup_us: 2, ratio: 2 };

async function loadBenchModule() {
  const { default: create } = await import('../build-wasm/bench/attention_bench.mjs');
  return create({ wasmBinary: fs.readFileSync(path.join(root, 'build-wasm/bench/attention_bench.wasm')) });
}

async function measure() {
  const core = await loadCore();
  let sink = 0;
  // The same inputs as the native side: the soft-lookup example, then seeded draws.
  const query = { rows: 1, cols: 2, data: Float32Array.of(1, 0.5) };
  const keys = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0.7, 0.7, 0, 1, -0.7, 0.7, -1, 0) };
  const values = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5) };
  const rng = core.random(2026);
  const x12 = rng.normalMatrix(12, 64);
  const x10 = rng.normalMatrix(10, 64);
  const layer = core.createMultiHead({ dModel: 64, numHeads: 4, weights: { seed: 7 } });
  const result = {
    soft_lookup: microsecondsPerCall(() => {
      sink += core.attention(query, keys, values).output.data[0];
    }),
    self_12x64: microsecondsPerCall(() => {
      sink += core.attention(x12, x12, x12).output.data[0];
    }),
    mha_10x64: microsecondsPerCall(() => {
      sink += layer.forward(x10, x10, x10).output.data[0];
    }),
    // Not measured natively: the layer built for every call, as core.multiHeadAttention() does.
    mha_10x64_one_shot: microsecondsPerCall(() => {
      sink += core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 7 } }, x10, x10, x10).output.data[0];
    }),
  };
  layer.dispose();
  // The same calls inside WebAssembly without the facade (what the facade and binding add), and
  // the products with each implementation (nanoseconds per product, 200 per crossing).
  const bench = await loadBenchModule();
  const REPS = 200;
  result.direct = {};
  for (const name of ['soft_lookup', 'self_12x64', 'mha_10x64'])
    result.direct[name] =
      microsecondsPerCall(() => {
        sink += bench.attentionDirect(name, REPS);
      }, 3) / REPS;
  result.products = bench.gemmShapes('attention').map((shape, s) => ({
    name: shape.name,
    core_uses: shape.coreUses,
    eigen_ns:
      (1000 *
        microsecondsPerCall(() => {
          sink += bench.gemm('attention', s, false, REPS);
        }, 3)) /
      REPS,
    kernels_ns:
      (1000 *
        microsecondsPerCall(() => {
          sink += bench.gemm('attention', s, true, REPS);
        }, 3)) /
      REPS,
  }));
  if (!Number.isFinite(sink)) throw new Error('the benchmark computed non-finite numbers');
  console.log(JSON.stringify(result));
}

const readRounds = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** The attention calls' summary rows from the rounds of both sides: [{name, figure, goal, peer, met}] (used by bench/run-all too). */
export function goalRows(nativeRounds, wasmRounds) {
  const med = (rounds, pick) => median(rounds.map(pick));
  const rows = [];
  for (const name of ['self_12x64', 'mha_10x64']) {
    const n = med(nativeRounds, (r) => r[name]),
      w = med(wasmRounds, (r) => r[name]);
    rows.push({
      name: `${name} wasm / native`,
      figure: (w / n).toFixed(2),
      goal: `<= ${GOALS.ratio}`,
      peer: `native ${n.toFixed(2)} us, wasm ${w.toFixed(2)} us`,
      met: w / n <= GOALS.ratio,
    });
  }
  const soft = med(wasmRounds, (r) => r.soft_lookup);
  rows.push({
    name: 'soft lookup through the facade',
    figure: `${soft.toFixed(2)} us`,
    goal: `<= ${GOALS.soft_lookup_us} us`,
    peer: `native ${med(nativeRounds, (r) => r.soft_lookup).toFixed(3)} us`,
    met: soft <= GOALS.soft_lookup_us,
  });
  return rows;
}

/** The attention calls' tables from the rounds of both sides (JSON objects as the two sides print them). */
export function printAttention(native, wasm) {
  const med = (rounds, pick) => median(rounds.map(pick));
  console.log(
    table([
      ['workload (us per call)', 'native', 'wasm, facade (node)', 'wasm, core alone', 'wasm / native'],
      ...['soft_lookup', 'self_12x64', 'mha_10x64'].map((name) => {
        const n = med(native, (r) => r[name]),
          w = med(wasm, (r) => r[name]);
        return [name, n.toFixed(3), w.toFixed(3), med(wasm, (r) => r.direct[name]).toFixed(3), (w / n).toFixed(2)];
      }),
    ]),
  );
  console.log(
    `mha_10x64 building the layer on every call (core.multiHeadAttention): ${med(wasm, (r) => r.mha_10x64_one_shot).toFixed(3)} us`,
  );
  console.log(
    '\nthe attention products in WebAssembly (ns per product): Eigen against the SIMD128 kernels core/src/products.hpp uses',
  );
  console.log(
    table([
      ['product', 'Eigen', 'kernel', 'kernel faster', 'the core uses'],
      ...wasm[0].products.map((p, s) => {
        const e = med(wasm, (r) => r.products[s].eigen_ns),
          k = med(wasm, (r) => r.products[s].kernels_ns);
        return [p.name, e.toFixed(1), k.toFixed(1), `${(e / k).toFixed(2)}x`, p.core_uses];
      }),
    ]),
  );
  console.log(
    `\nattention calls, WebAssembly against native, each figure against its goal (median of ${native.length} native and ${wasm.length} wasm rounds, alternated)`,
  );
  console.log(
    table([
      ['figure', 'measured', 'goal', 'peer', 'met'],
      ...goalRows(native, wasm).map((r) => [r.name, r.figure, r.goal, r.peer, r.met ? 'yes' : 'NO']),
    ]),
  );
  console.log(`native peer: the attn_core library the CLI links, built with ${native[0].build}`);
}

const at = process.argv.indexOf('--report');
if (at >= 0) printAttention(readRounds(process.argv[at + 1]), readRounds(process.argv[at + 2]));
else if (process.argv[1] === new URL(import.meta.url).pathname) await measure();
