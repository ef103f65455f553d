// Matrices and masks as plain data, made and read without a core: mat(), maskMat() and row().
import { describe, requireElements, requireSize, wrongType } from './checks.js';
import { ArgumentError } from './errors.js';
import type { Mat, MaskMat } from './types.js';

// The core's element limit, for mat() and maskMat(), which need no core: known once a core
// has loaded (every build of the core has the same), and no check before that.
let loadedLimit = Infinity;

/** Called when a core has loaded: from then on mat() and maskMat() check against its element limit. */
export function knowElementLimit(limit: number): void {
  loadedLimit = limit;
}

type Values = ArrayLike<number> | readonly (readonly number[])[];

function isNested(values: Values): values is readonly (readonly number[])[] {
  return values.length > 0 && Array.isArray((values as ArrayLike<unknown>)[0]);
}

function flatten(name: string, rows: number, cols: number, values: Values): number[] | ArrayLike<number> {
  if (!isNested(values)) {
    if (values.length !== rows * cols)
      throw new ArgumentError(
        name,
        'bad-length',
        `must have rows * cols = ${rows * cols} values, got ${values.length}`,
        {
          min: rows * cols,
          max: rows * cols,
          got: values.length,
        },
      );
    return values;
  }
  if (values.length !== rows)
    throw new ArgumentError(name, 'bad-length', `must have ${rows} rows, got ${values.length}`, {
      min: rows,
      max: rows,
      got: values.length,
    });
  const flat: number[] = [];
  values.forEach((line, i) => {
    if (!Array.isArray(line) || line.length !== cols)
      throw wrongType(`${name}[${i}]`, `an array of ${cols} numbers`, line);
    flat.push(...line);
  });
  return flat;
}

function requireNumbers(name: string, values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++)
    if (typeof values[i] !== 'number')
      throw new ArgumentError(name, 'wrong-type', `must hold numbers, got ${describe(values[i])} at index ${i}`, {
        index: i,
      });
}

/**
 * A matrix from flat row-major values, nested rows, or one number for every element
 * (0 when left out). Values are copied (and rounded to float32).
 */
export function mat(rows: number, cols: number, values: Values | number = 0): Mat {
  requireSize('rows', rows);
  requireSize('cols', cols);
  requireElements('rows', rows * cols, loadedLimit, () => `a (${rows}, ${cols}) matrix`);
  if (typeof values === 'number') return { rows, cols, data: new Float32Array(rows * cols).fill(values) };
  if (values == null || typeof values !== 'object' || typeof values.length !== 'number')
    throw wrongType('values', 'an array, a typed array or a number', values);
  const flat = flatten('values', rows, cols, values);
  if (!(flat instanceof Float32Array || flat instanceof Float64Array)) requireNumbers('values', flat);
  return { rows, cols, data: Float32Array.from(flat) };
}

/** A mask from flat row-major values or nested rows; true / nonzero = may attend. */
export function maskMat(
  rows: number,
  cols: number,
  values: ArrayLike<number | boolean> | readonly (readonly (number | boolean)[])[],
): MaskMat {
  requireSize('rows', rows);
  requireSize('cols', cols);
  requireElements('rows', rows * cols, loadedLimit, () => `a (${rows}, ${cols}) mask`);
  const flat = flatten('values', rows, cols, values as Values);
  const data = new Uint8Array(rows * cols);
  for (let i = 0; i < data.length; i++) {
    const v = flat[i] as unknown;
    if (typeof v !== 'number' && typeof v !== 'boolean')
      throw new ArgumentError(
        'values',
        'wrong-type',
        `must hold numbers or booleans, got ${describe(v)} at index ${i}`,
        {
          index: i,
        },
      );
    data[i] = v ? 1 : 0;
  }
  return { rows, cols, data };
}

/** Row i of a matrix (a copy). */
export function row(m: Mat, i: number): Float32Array;
export function row(m: MaskMat, i: number): Uint8Array;
export function row(m: Mat | MaskMat, i: number): Float32Array | Uint8Array {
  if (!Number.isInteger(i) || i < 0 || i >= m.rows)
    throw new ArgumentError(
      'i',
      typeof i !== 'number' ? 'wrong-type' : Number.isInteger(i) ? 'out-of-range' : 'not-whole',
      `must be a whole number between 0 and ${m.rows - 1}, got ${describe(i)}`,
      typeof i === 'number' ? { min: 0, max: m.rows - 1, got: i } : {},
    );
  return m.data.slice(i * m.cols, (i + 1) * m.cols);
}
