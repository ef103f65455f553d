// WebAssembly side of the attention benchmark, through the facade (web/src/core.ts compiled to
// build-wasm/facade/), on the same inputs and with the same timing rule as
// bench/attention_native.cpp: microseconds per call, the best of 7 runs of ~100 ms each.
//   node bench/attention_wasm.mjs                      one measurement, as a JSON line
//   node bench/attention_wasm.mjs --report N.jsonl W.jsonl
//        the table of native (N) against wasm (W) lines, best of each over the rounds, with
//        the ratios and the goals. bench/run-attention does both in one go.

import { loadCore } from '../tests/wasm/helpers.mjs';
import { best, microsecondsPerCall } from './timing.mjs';


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
    soft_lookup: microsecondsPerCall(() => { sink += core.attention(query, keys, values).output.data[0]; }),
    self_12x64: microsecondsPerCall(() => { sink += core.attention(x12, x12, x12).output.data[0]; }),
    mha_10x64: microsecondsPerCall(() => { sink += layer.forward(x10, x10, x10).output.data[0]; }),
    // Not measured natively: the layer built for every call, as core.multiHeadAttention() does.
    mha_10x64_one_shot: microsecondsPerCall(() => {
      sink += core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 7 } }, x10, x10, x10).output.data[0];
    }),
  };
  layer.dispose();
  if (!Number.isFinite(sink)) throw new Error('the benchmark computed non-finite numbers');
  console.log(JSON.stringify(result));
}

function report(nativeFile, wasmFile) {
  const native = best(nativeFile), wasm = best(wasmFile);
  const goals = { soft_lookup: 'wasm <= 5 us', self_12x64: 'ratio <= 2', mha_10x64: 'ratio <= 2' };
  const rows = [['workload', 'native us', 'wasm us (node)', 'wasm / native', 'goal', 'met']];
  for (const name of Object.keys(goals)) {
    const n = native.times[name], w = wasm.times[name], ratio = w / n;
    const met = name === 'soft_lookup' ? w <= 5 : ratio <= 2;
    rows.push([name, n.toFixed(3), w.toFixed(3), ratio.toFixed(2), goals[name], met ? 'yes' : 'NO']);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  '));
  console.log(`best of ${native.rounds} native and ${wasm.rounds} wasm rounds, alternated; ` +
              `mha_10x64 building the layer on every call (core.multiHeadAttention): ${wasm.times.mha_10x64_one_shot.toFixed(3)} us`);
}

const at = process.argv.indexOf('--report');
if (at >= 0) report(process.argv[at + 1], process.argv[at + 2]);
else await measure();
