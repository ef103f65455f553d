// The computation both the page and its module Worker run: the soft-lookup example through
// the facade, returned as plain arrays.
import { loadCore, row } from '../facade/core/index.js';

export async function softLookupRow() {
  const core = await loadCore();
  const query = { rows: 1, cols: 2, data: Float32Array.of(1, 0.5) };
  const keys = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0.7, 0.7, 0, 1, -0.7, 0.7, -1, 0) };
  const values = { rows: 5, cols: 2, data: Float32Array.of(1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5) };
  const r = core.attention(query, keys, values);
  return { weights: Array.from(row(r.weights, 0)), output: Array.from(row(r.output, 0)) };
}
