// Shared by the node tests of the WebAssembly build: loading the facade, reading the PyTorch
// fixture and the native results, comparing matrices.
//
// Where things are (override with environment variables):
//   ATTN_WASM_FACADE      the compiled facade with generated/ next to it (build-wasm/facade)
//   ATTN_FIXTURE          tests/reference/make_fixture.py's output (build/reference/mha_fixture.json)
//   ATTN_NATIVE_OUTPUTS   `attention-lab reference --write-native` output
//                         (build/reference/native_outputs.json)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fromRoot = (p) => path.resolve(root, p);

export const facadeDir = fromRoot(process.env.ATTN_WASM_FACADE ?? 'build-wasm/facade');
export const fixturePath = fromRoot(process.env.ATTN_FIXTURE ?? 'build/reference/mha_fixture.json');
export const nativePath = fromRoot(process.env.ATTN_NATIVE_OUTPUTS ?? 'build/reference/native_outputs.json');

export const facade = await import(pathToFileURL(path.join(facadeDir, 'core/index.js')).href);

// A module cannot fetch its .wasm under node: hand it the bytes (docs/toolchain.md). The whole
// core is the tests' build of attention_lab (with the leak counters); the attention core is the
// shipped attention_core.
export function wasmBinary() {
  return fs.readFileSync(path.join(facadeDir, 'generated/attention_lab.wasm'));
}

export function loadAttentionCore() {
  return facade.loadAttentionCore({
    wasmBinary: fs.readFileSync(path.join(facadeDir, 'generated/attention_core.wasm')),
  });
}

export function loadCore() {
  return facade.loadCore({ wasmBinary: wasmBinary() });
}

// Reads the JSON of tests/reference/make_fixture.py (or of `attention-lab reference
// --write-native`, same layout): a list of
// { name, kind, params: {NAME: number}, tensors: {NAME: {dims, values: Float64Array}} }.
export function readCases(file) {
  const { cases } = JSON.parse(fs.readFileSync(file, 'utf8'));
  return cases.map(({ name, kind, params, tensors }) => ({
    name,
    kind,
    params,
    tensors: Object.fromEntries(
      Object.entries(tensors).map(([key, { dims, values }]) => {
        if (values.length !== dims.reduce((a, b) => a * b, 1))
          throw new Error(`${file}: tensor ${key} of ${name} is truncated`);
        return [key, { dims, values: Float64Array.from(values) }];
      }),
    ),
  }));
}

// Slice `index` of a tensor's leading dimension as a Mat (a 1-D tensor is one row).
export function slice(tensor, index = 0) {
  const cols = tensor.dims.at(-1);
  const rows = tensor.dims.length >= 2 ? tensor.dims.at(-2) : 1;
  const start = index * rows * cols;
  return { rows, cols, data: Float32Array.from(tensor.values.subarray(start, start + rows * cols)) };
}

export function maskOf(tensor, index = 0) {
  const m = slice(tensor, index);
  return { rows: m.rows, cols: m.cols, data: Uint8Array.from(m.data, (v) => (v > 0.5 ? 1 : 0)) };
}

export function maxAbsDiff(a, b) {
  if (a.rows !== b.rows || a.cols !== b.cols)
    throw new Error(`shape mismatch (${a.rows}, ${a.cols}) vs (${b.rows}, ${b.cols})`);
  let worst = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i] - b.data[i]);
    if (!(d <= worst)) worst = d; // NaN propagates as a failure
  }
  return worst;
}

// Straightforward float64 attention, written independently of the core, for spot checks.
export function attentionF64(q, k, v, { scale = true, mask } = {}) {
  const weights = new Float64Array(q.rows * k.rows),
    output = new Float64Array(q.rows * v.cols);
  for (let i = 0; i < q.rows; i++) {
    const scores = [];
    for (let j = 0; j < k.rows; j++) {
      let s = 0;
      for (let c = 0; c < q.cols; c++) s += q.data[i * q.cols + c] * k.data[j * k.cols + c];
      if (scale) s /= Math.sqrt(q.cols);
      scores.push(mask && !mask.data[i * mask.cols + j] ? -1e9 : s);
    }
    const top = Math.max(...scores);
    const e = scores.map((s) => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b, 0);
    for (let j = 0; j < k.rows; j++) {
      weights[i * k.rows + j] = e[j] / sum;
      for (let c = 0; c < v.cols; c++) output[i * v.cols + c] += (e[j] / sum) * v.data[j * v.cols + c];
    }
  }
  return {
    output: { rows: q.rows, cols: v.cols, data: output },
    weights: { rows: q.rows, cols: k.rows, data: weights },
  };
}

// The soft-lookup example of the lesson's widget: 1 query, 5 keys, d = 2.
export const softLookup = {
  query: { rows: 1, cols: 2, data: Float32Array.of(1, 0.5) },
  keys: { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0.7, 0.7, 0, 1, -0.7, 0.7, -1, 0) },
  values: { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5) },
};
