// WebAssembly side of the normals benchmark, through the facade (web/src/core/ compiled to
// build-wasm/facade/, or ATTN_WASM_FACADE), with the same workloads and timing rule as
// bench/normals_native.cpp: the best of 7 runs of ~100 ms each.
//   node bench/normals_wasm.mjs                  one measurement, as a JSON line
//   node bench/normals_wasm.mjs --report N.jsonl W.jsonl
//        native (N) against wasm (W), best of each over the rounds, with the ratios.
//        bench/run-normals does both in one go.
// The wasm normal_ns includes copying each batch of 102,000 doubles out to JS (the native side
// has no such copy), so it slightly overstates the draw itself.

import { loadCore } from '../tests/wasm/helpers.mjs';
import { best, microsecondsPerCall } from './timing.mjs';

const SWEEP_NORMALS = 200 * 2 * 12 * (4 + 16 + 64 + 256);
const BATCH = SWEEP_NORMALS / 16;

async function measure() {
  const core = await loadCore();
  const rng = core.random(2026);
  let sink = 0;
  const normalUs = microsecondsPerCall(() => {
    for (let i = 0; i < 16; i++) sink += rng.normal(BATCH)[0];
  });
  const matrixUs = microsecondsPerCall(() => {
    sink += rng.normalMatrix(12, 64).data[0];
  });
  const sweepUs = microsecondsPerCall(() => {
    sink += core.scaleSweep().rows[0].scaled.entropy.mean;
  });
  if (!Number.isFinite(sink)) throw new Error('the benchmark computed non-finite numbers');
  console.log(
    JSON.stringify({
      normal_ns: (normalUs * 1000) / SWEEP_NORMALS,
      normal_matrix_ns: (matrixUs * 1000) / (12 * 64),
      sweep_ms: sweepUs / 1000,
    }),
  );
}

function report(nativeFile, wasmFile) {
  const native = best(nativeFile),
    wasm = best(wasmFile);
  const rows = [['workload', 'native', 'wasm (node)', 'wasm / native']];
  for (const name of ['normal_ns', 'normal_matrix_ns', 'sweep_ms']) {
    const n = native.times[name],
      w = wasm.times[name];
    rows.push([name, n.toFixed(3), w.toFixed(3), (w / n).toFixed(2)]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows)
    console.log(r.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  '));
  console.log(
    `best of ${native.rounds} native and ${wasm.rounds} wasm rounds, alternated; ` +
      `*_ns per normal draw, sweep_ms per default scale sweep (goal in Chromium: under 50 ms)`,
  );
}

const at = process.argv.indexOf('--report');
if (at >= 0) report(process.argv[at + 1], process.argv[at + 2]);
else await measure();
