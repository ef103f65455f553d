// Config conversion: the options a call takes, checked and completed with the core's defaults
// into the complete config the module takes.
import { describe, requireSeed, requireWhole32, wrongType } from './checks.js';
import { ArgumentError } from './errors.js';
import type { ConfigSpec, FieldSpec } from './types.js';

/**
 * The complete config the module takes: the core's defaults, overridden by `options`. Checks
 * only what the binding cannot carry faithfully: unknown keys, JS types, whole numbers that fit
 * 32 bits (or a seed's 53), and a list's length before it is copied. Ranges are the core's.
 */
export function configFrom<C extends object>(spec: ConfigSpec<C>, name: string, options: Partial<C>): C {
  if (options == null || typeof options !== 'object' || Array.isArray(options))
    throw wrongType(name, 'an object', options);
  const byKey = new Map(spec.fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(options)) {
    const field = byKey.get(key);
    if (!field)
      throw new ArgumentError(
        key.slice(0, 40),
        'not-one-of',
        `is not an option; known: ${[...byKey.keys()].join(', ')}`,
      );
    if (value !== undefined) requireKind(field, value);
  }
  return withDefaults(spec.defaults, options);
}

/** `defaults` with every option that is not undefined put in its place. */
export function withDefaults<C extends object>(defaults: C, options: Partial<C>): C {
  const config = { ...defaults };
  for (const [key, value] of Object.entries(options))
    if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  return config;
}

function requireKind(field: FieldSpec, value: unknown): void {
  const { key } = field;
  switch (field.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') throw wrongType(key, 'true or false', value);
      return;
    case 'number':
      if (typeof value !== 'number') throw wrongType(key, 'a number', value);
      return;
    case 'seed':
      requireSeed(value, key);
      return;
    case 'integer':
      requireWhole32(key, value);
      return;
    case 'choice':
      if (typeof value !== 'string' || !field.choices.includes(value))
        throw new ArgumentError(
          key,
          typeof value === 'string' ? 'not-one-of' : 'wrong-type',
          `must be one of ${field.choices.map((c) => `"${c}"`).join(', ')}, got ${describe(value)}`,
        );
      return;
    case 'integers':
      if (!Array.isArray(value)) throw wrongType(key, 'an array of whole numbers', value);
      if (value.length > field.maxCount)
        throw new ArgumentError(key, 'bad-length', `must hold 1 to ${field.maxCount} values, got ${value.length}`, {
          min: 1,
          max: field.maxCount,
          got: value.length,
        });
      value.forEach((v, i) => requireWhole32(`${key}[${i}]`, v));
  }
}
