// Checks of what only JS can get wrong: types, lengths, whole numbers that fit the binding, and
// sizes within the core's element limit before anything is allocated in the WebAssembly heap.
// Ranges and defaults are the core's; a failed check throws an ArgumentError (errors.ts) naming
// the argument as the caller wrote it.
import { ArgumentError } from './errors.js';
import type { AttentionConfig, AttentionOptions, Mat, MaskMat } from './types.js';

export const MAX_SIZE = 2147483647;

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

// `field` is appended to the name in the message ("query" + ".rows"); the message is only
// built on failure, since these checks run on every call.
export function requireSize(name: string, value: unknown, field = ''): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SIZE)
    throw new ArgumentError(
      name + field,
      typeof value !== 'number' ? 'wrong-type' : Number.isInteger(value) ? 'out-of-range' : 'not-whole',
      `must be a whole number between 0 and ${MAX_SIZE}, got ${describe(value)}`,
      typeof value === 'number' ? { min: 0, max: MAX_SIZE, got: value } : {},
    );
}

// The most values one matrix or mask may hold, given or returned (the core's limit): bigger
// requests are refused here, before anything is allocated in the WebAssembly heap (which
// never shrinks again). `argument` is the input at fault; `what` names the matrix when it is
// not that input itself, a function, so that calls many times a second build no string unless
// they fail.
export function requireElements(argument: string, count: number, limit: number, what?: () => string): void {
  if (count > limit)
    throw new ArgumentError(
      argument,
      'too-many-elements',
      `would ${what ? `make ${what()} of` : 'hold'} ${count} values, more than the ${limit} allowed`,
      { max: limit, got: count },
    );
}

/** An argument of the wrong JS type: "must be ${what}, got ${describe(value)}". */
export function wrongType(name: string, what: string, value: unknown): ArgumentError {
  return new ArgumentError(name, 'wrong-type', `must be ${what}, got ${describe(value)}`);
}

// A matrix's or mask's shape and data (`kind`: what its data must be).
function requireShaped(name: string, m: unknown, limit: number, kind: 'matrix' | 'mask'): void {
  if (m == null || typeof m !== 'object') throw wrongType(name, `a ${kind} { rows, cols, data }`, m);
  const { rows, cols, data } = m as Mat | MaskMat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(name, rows * cols, limit, () => `(${rows}, ${cols})`);
  const type = kind === 'matrix' ? Float32Array : Uint8Array;
  if (!(data instanceof type)) throw wrongType(`${name}.data`, `a ${type.name}`, data);
  if (data.length !== rows * cols)
    throw new ArgumentError(
      `${name}.data`,
      'bad-length',
      `must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`,
      { min: rows * cols, max: rows * cols, got: data.length },
    );
}

export function requireMat(name: string, m: unknown, limit: number): asserts m is Mat {
  requireShaped(name, m, limit, 'matrix');
}

export function requireMask(name: string, m: unknown, limit: number): asserts m is MaskMat {
  requireShaped(name, m, limit, 'mask');
  const { data } = m as MaskMat;
  for (let i = 0; i < data.length; i++)
    if (data[i] > 1)
      throw new ArgumentError(`${name}.data`, 'out-of-range', `must hold 0 or 1, got ${data[i]} at index ${i}`, {
        min: 0,
        max: 1,
        got: data[i],
        index: i,
      });
}

// A bias may be a (1, n) matrix or a plain Float32Array of n values.
export function biasMat(name: string, bias: unknown, limit: number): Mat {
  if (bias instanceof Float32Array) return { rows: 1, cols: bias.length, data: bias };
  requireMat(name, bias, limit);
  return bias;
}

/** The options as the core takes them: `defaults` (the core's, configs.attention) where not given. */
export function requireOptions(options: unknown, defaults: AttentionConfig): AttentionConfig {
  if (options == null) return defaults;
  if (typeof options !== 'object') throw wrongType('options', 'an object', options);
  const { scale = defaults.scale, maskedValue = defaults.maskedValue } = options as AttentionOptions;
  if (typeof scale !== 'boolean') throw wrongType('options.scale', 'a boolean', scale);
  if (typeof maskedValue !== 'number') throw wrongType('options.maskedValue', 'a number', maskedValue);
  if (Number.isNaN(maskedValue))
    throw new ArgumentError('options.maskedValue', 'not-finite', 'must not be NaN', { got: maskedValue });
  return { scale, maskedValue };
}

// A seed is a JS safe integer (0..2^53 - 1, Number.MAX_SAFE_INTEGER): what crosses exactly.
export function requireSeed(seed: unknown, name = 'seed'): asserts seed is number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new ArgumentError(
      name,
      typeof seed !== 'number' ? 'wrong-type' : Number.isInteger(seed) ? 'out-of-range' : 'not-whole',
      `must be a whole number between 0 and 2^53 - 1, got ${describe(seed)}`,
      typeof seed === 'number' ? { min: 0, max: Number.MAX_SAFE_INTEGER, got: seed } : {},
    );
}

// Beyond 32 bits the binding would wrap the number and the core would name another one.
export function requireWhole32(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ArgumentError(
      name,
      typeof value === 'number' ? 'not-whole' : 'wrong-type',
      `must be a whole number, got ${describe(value)}`,
      typeof value === 'number' ? { got: value } : {},
    );
  if (Math.abs(value) > MAX_SIZE)
    throw new ArgumentError(name, 'out-of-range', `must be a whole number of at most 32 bits, got ${describe(value)}`, {
      min: -MAX_SIZE,
      max: MAX_SIZE,
      got: value,
    });
}
