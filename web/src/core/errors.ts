// The facade's errors: a bad argument is an ArgumentError, from the core (through the module)
// or from the facade's own checks alike, so a caller reads one structure whichever side
// refused the call. Its message names every argument as the caller wrote it (camelCase, the
// option's path: `numHeads`, `options.maskedValue`, `query.rows`); its code and values say what
// went wrong without the English text (the codes: docs/errors.md).

/** The kind of failure (docs/errors.md); `wrong-type` is the facade's own (C++ types rule it out). */
export type ErrorCode =
  | 'out-of-range'
  | 'not-whole'
  | 'not-finite'
  | 'not-one-of'
  | 'must-divide'
  | 'bad-shape'
  | 'bad-length'
  | 'empty'
  | 'too-many-elements'
  | 'too-large'
  | 'not-allowed'
  | 'wrong-type';

/** What an ArgumentError carries besides its message. */
export interface ArgumentErrorFields {
  /** The argument at fault, as the caller wrote it: `numHeads`, `query.rows`. */
  argument: string;
  code: ErrorCode;
  /** The message after the argument, with every argument it names as {name}: "must divide {dModel} = 64, got 5". */
  detail: string;
  /** The numbers involved, named: { dModel: 64, got: 5 }, { min: 1, max: 16384, got: 0 }. */
  values: Readonly<Record<string, number>>;
}

// {name} for an argument's name: a letter, then letters, digits, '_', '.', '-'. Literal braces
// with spaces inside ("{ rows, cols, data }") are text.
const NAME = /\{([A-Za-z_][\w.-]*)\}/g;

/** `text` with every {name} replaced by nameOf(name). */
export function substituteNames(text: string, nameOf: (name: string) => string): string {
  return text.replace(NAME, (_, name: string) => nameOf(name));
}

/**
 * A bad argument: the call was refused and nothing changed. `instanceof Error`; its `name`
 * stays "Error", so String(error) reads as before.
 */
export class ArgumentError extends Error implements ArgumentErrorFields {
  readonly argument: string;
  readonly code: ErrorCode;
  readonly detail: string;
  readonly values: Readonly<Record<string, number>>;

  /** The message is `${argument} ${detail}` with the braces of {name}s dropped. */
  constructor(argument: string, code: ErrorCode, detail: string, values: Record<string, number> = {}) {
    super(`${argument} ${substituteNames(detail, (name) => name)}`);
    this.argument = argument;
    this.code = code;
    this.detail = detail;
    this.values = Object.freeze(values);
  }
}

/**
 * The module's createError (wasm/errors.cpp): an error of the core as an ArgumentError when it
 * is about an argument, else a plain Error with the core's message.
 */
export function coreError(message: string, fields?: ArgumentErrorFields): Error {
  if (!fields?.code) return new Error(message);
  return new ArgumentError(fields.argument, fields.code, fields.detail, { ...fields.values });
}
