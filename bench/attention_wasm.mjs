// WebAssembly side of the attention benchmark, through the facade (web/src/core.ts compiled to
// build-wasm/facade/), on the same seeded inputs and with the same timing rule as
// bench/attention_native.cpp. Prints JSON, or with --native FILE (that program's output) a
// table of both and their ratios. bench/run-attention runs the two in one go.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const facadeDir = path.resolve(root, process.env.ATTN_WASM_FACADE ?? 'build-wasm/facade');
const { loadCore } = await import(pathToFileURL(path.join(facadeDir, 'core.js')).href);
const core = await loadCore({ wasmBinary: fs.readFileSync(path.join(facadeDir, 'generated/attention_core.wasm')) });

let sink = 0;

// Median microseconds per call over 7 runs, each long enough (~100 ms) to time well.
function microsecondsPerCall(fn) {
  let calls = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    if (performance.now() - start > 100) break;
    calls *= 2;
  }
  const runs = [];
  for (let r = 0; r < 7; r++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) fn();
    runs.push(((performance.now() - start) * 1000) / calls);
  }
  runs.sort((a, b) => a - b);
  return runs[3];
}

const query = { rows: 1, cols: 2, data: Float32Array.of(1, 0.5) };
const keys = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0.7, 0.7, 0, 1, -0.7, 0.7, -1, 0) };
const values = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5) };
const rng = core.random(2026);
const x12 = rng.normalMatrix(12, 64);
const x10 = rng.normalMatrix(10, 64);
const layer = core.createMultiHead({ dModel: 64, numHeads: 4, weights: { seed: 7 } });

const wasm = {
  soft_lookup: microsecondsPerCall(() => { sink += core.attention(query, keys, values).output.data[0]; }),
  self_12x64: microsecondsPerCall(() => { sink += core.attention(x12, x12, x12).output.data[0]; }),
  mha_10x64: microsecondsPerCall(() => { sink += layer.forward(x10, x10, x10).output.data[0]; }),
};
// Not compared natively: building the layer on every call, as core.multiHeadAttention() does.
const oneShot = microsecondsPerCall(() => {
  sink += core.multiHeadAttention({ dModel: 64, numHeads: 4, weights: { seed: 7 } }, x10, x10, x10).output.data[0];
});
layer.dispose();
if (!Number.isFinite(sink)) throw new Error('the benchmark computed non-finite numbers');

const nativeAt = process.argv.indexOf('--native');
if (nativeAt < 0) {
  console.log(JSON.stringify(wasm));
} else {
  const native = JSON.parse(fs.readFileSync(process.argv[nativeAt + 1], 'utf8'));
  const goals = { soft_lookup: 'wasm <= 5 us per call', self_12x64: 'wasm / native <= 2', mha_10x64: 'wasm / native <= 2' };
  const rows = [['workload', 'native us', 'wasm us (node)', 'wasm / native', 'goal', 'met']];
  for (const name of Object.keys(wasm)) {
    const ratio = wasm[name] / native[name];
    const met = name === 'soft_lookup' ? wasm[name] <= 5 : ratio <= 2;
    rows.push([name, native[name].toFixed(3), wasm[name].toFixed(3), ratio.toFixed(2), goals[name], met ? 'yes' : 'NO']);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  '));
  console.log(`(mha_10x64 building the layer on every call, core.multiHeadAttention(): ${oneShot.toFixed(3)} us)`);
}
