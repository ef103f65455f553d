// Checks of what only JS can get wrong: types, lengths, whole numbers that fit the binding, and
// sizes within the core's element limit before anything is allocated in the WebAssembly heap.
// Ranges and defaults are the core's; a failed check throws an Error naming the argument.
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
    throw new Error(`${name}${field} must be a whole number between 0 and ${MAX_SIZE}, got ${describe(value)}`);
}

// The most values one matrix or mask may hold, given or returned (the core's limit): bigger
// requests are refused here, before anything is allocated in the WebAssembly heap (which
// never shrinks again). `what` names the matrix; a function, so that calls many times a second
// build no string unless they fail.
export function requireElements(what: string | (() => string), count: number, limit: number): void {
  if (count > limit)
    throw new Error(
      `${typeof what === 'string' ? what : what()} would hold ${count} values, more than the ${limit} allowed`,
    );
}

export function requireMat(name: string, m: unknown, limit: number): asserts m is Mat {
  if (m == null || typeof m !== 'object')
    throw new Error(`${name} must be a matrix { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as Mat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(() => `${name} (${rows}, ${cols})`, rows * cols, limit);
  if (!(data instanceof Float32Array)) throw new Error(`${name}.data must be a Float32Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(
      `${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`,
    );
}

export function requireMask(name: string, m: unknown, limit: number): asserts m is MaskMat {
  if (m == null || typeof m !== 'object')
    throw new Error(`${name} must be a mask { rows, cols, data }, got ${describe(m)}`);
  const { rows, cols, data } = m as MaskMat;
  requireSize(name, rows, '.rows');
  requireSize(name, cols, '.cols');
  requireElements(() => `${name} (${rows}, ${cols})`, rows * cols, limit);
  if (!(data instanceof Uint8Array)) throw new Error(`${name}.data must be a Uint8Array, got ${describe(data)}`);
  if (data.length !== rows * cols)
    throw new Error(
      `${name}.data must have rows * cols = ${rows * cols} values for shape (${rows}, ${cols}), got ${data.length}`,
    );
  for (let i = 0; i < data.length; i++)
    if (data[i] > 1) throw new Error(`${name}.data must hold 0 or 1, got ${data[i]} at index ${i}`);
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
  if (typeof options !== 'object') throw new Error(`options must be an object, got ${describe(options)}`);
  const { scale = defaults.scale, maskedValue = defaults.maskedValue } = options as AttentionOptions;
  if (typeof scale !== 'boolean') throw new Error(`options.scale must be a boolean, got ${describe(scale)}`);
  if (typeof maskedValue !== 'number')
    throw new Error(`options.maskedValue must be a number, got ${describe(maskedValue)}`);
  if (Number.isNaN(maskedValue)) throw new Error('options.maskedValue must not be NaN');
  return { scale, maskedValue };
}

// A seed is a JS safe integer (0..2^53 - 1, Number.MAX_SAFE_INTEGER): what crosses exactly.
export function requireSeed(seed: unknown, name = 'seed'): asserts seed is number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`${name} must be a whole number between 0 and 2^53 - 1, got ${describe(seed)}`);
}

// Beyond 32 bits the binding would wrap the number and the core would name another one.
export function requireWhole32(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new Error(`${name} must be a whole number, got ${describe(value)}`);
  if (Math.abs(value) > MAX_SIZE)
    throw new Error(`${name} must be a whole number of at most 32 bits, got ${describe(value)}`);
}
