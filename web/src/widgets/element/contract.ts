// A widget's contract: its attributes and events, declared once per widget in contracts.ts and
// read by everything that needs them: the element (observedAttributes, parsing with errors that
// name the attribute), the URL-hash state, the embedding guide's reference tables,
// custom-elements.json and the package's TypeScript types (both written at build time by
// scripts/build-package.mjs). Attributes that set an option of a core call name the core's field
// (`core: {config, key}`): their type, default, range and help text are read from core.configs,
// never restated here. Everything else is the widget's own and declared with its own default and
// range. Pure data and functions, no DOM: the build loads this file in node.
import type { Configs, CueAnalysis, CueRoute, FieldSpec } from '../../core';
import type { MessageParams } from '../../common/messages';
import type { CueRouteLabel, ProbeIntervention, ProbeInterventionResult, XapiStatement } from './public-types';

export type ConfigName = keyof Configs;
type DefaultsOf<K extends ConfigName> = Configs[K]['defaults'];

/** An attribute that sets an option of a core call: type, default, range and help are the core's. */
export interface CoreAttributeSpec {
  name: string;
  core: { [K in ConfigName]: { config: K; key: keyof DefaultsOf<K> & string } }[ConfigName];
  /** said after the core's help, when the widget adds something */
  note?: string;
  /** a tighter upper bound this widget sets (what it can show), with `capReason` */
  cap?: number;
  capReason?: string;
  /** key in the URL hash (under the widget's state-key) that keeps the reader's value */
  hashKey?: string;
}

/** The widget's own attribute types, and what each is read as. */
export interface OwnTypes {
  /** a number, in [min, max] */
  number: number;
  /** one of `values` (strings or numbers) */
  enum: string | number;
  /** text matching `pattern` (a RegExp source), described by `format` */
  text: string;
  /** an http(s) address, absolute or relative to the page */
  url: string;
  /** an absolute IRI, as xAPI needs for activity ids */
  iri: string;
  /** a JSON list of [x, y] pairs */
  points: number[][];
  /** two numbers, "x, y" */
  point: [number, number];
}

export interface OwnAttributeSpec {
  name: string;
  type: keyof OwnTypes;
  description: string;
  /** the value when the attribute is absent; none: absent means "not set" (the description says what then) */
  default?: number | string | number[][];
  values?: readonly (string | number)[];
  min?: number;
  max?: number;
  /** number: whole numbers only */
  integer?: boolean;
  /** points: how many pairs at most */
  maxCount?: number;
  /** text: the RegExp source the whole value must match, and how to say it */
  pattern?: string;
  format?: string;
  hashKey?: string;
  /** a bad value is ignored with a console warning instead of stopping the widget (theme) */
  lenient?: boolean;
  /** an HTML global attribute (lang): the element's own property reflects it already */
  global?: boolean;
}

export type AttributeSpec = CoreAttributeSpec | OwnAttributeSpec;

/** The types an event's detail fields may have (the package's .d.ts names them the same). */
export interface DetailTypes {
  number: number;
  string: string;
  boolean: boolean;
  'number[]': number[];
  'Record<string, number>': Record<string, number>;
  CueRouteLabel: CueRouteLabel;
  CueAnalysis: CueAnalysis;
  CueRoute: CueRoute;
  XapiStatement: XapiStatement;
  ProbeIntervention: ProbeIntervention;
  'ProbeInterventionResult[]': ProbeInterventionResult[];
}

export interface DetailField {
  name: string;
  type: keyof DetailTypes;
  description: string;
}

export interface EventSpec {
  name: string;
  description: string;
  detail: readonly DetailField[];
}

export interface WidgetContract {
  tag: string;
  /** the class name, for custom-elements.json and the types */
  className: string;
  description: string;
  attributes: readonly AttributeSpec[];
  events: readonly EventSpec[];
  /** JavaScript properties a host may set (name, TypeScript type, description) */
  properties?: readonly { name: string; type: string; description: string }[];
  /** the JSON Schema of the author data it takes (schemas/NAME.schema.json), if any */
  schema?: string;
  /** what the widget keeps left to right on a right-to-left page (dir="ltr" in its markup); the rest mirrors */
  leftToRight: string;
}

// ---- what every widget has ----

export const THEMES = ['light', 'dark', 'auto'] as const;

/** Attributes every widget takes, listed in each widget's reference after its own. */
export const COMMON_ATTRIBUTES = [
  {
    name: 'theme',
    type: 'enum',
    values: THEMES,
    lenient: true,
    description:
      "Forces the colour scheme: light, dark, or auto (the reader's preference). Without it the widget follows its page (<html data-attn-theme>), else the reader. A value that is none of these is ignored with a console warning.",
  },
  {
    name: 'lang',
    type: 'text',
    lenient: true,
    global: true,
    description:
      "The language the widget speaks (a BCP 47 tag: es, zh-CN): its buttons, messages, labels and the way it writes and reads numbers. Without it the nearest lang up the page (<html lang>) decides, else the reader's browser. English, Spanish (es) and Simplified Chinese (zh-CN) are shipped; any other language is shown in English, and a message a language lacks too.",
  },
  {
    name: 'persist',
    type: 'enum',
    values: ['off', 'on'],
    default: 'off',
    description:
      "on: the reader's work in this widget (the settings they changed, answers, a finished training run) is kept in this browser's localStorage, under the page's path and the widget's id (else its tag and place), and comes back after a reload, until the reader clears it. Inside a course package the LMS keeps it instead, whatever this says.",
  },
] as const satisfies readonly OwnAttributeSpec[];

/** Events every widget raises. */
export const COMMON_EVENTS = [
  {
    name: 'attn-ready',
    description: 'The widget has drawn itself: once it starts, and again after each attribute change.',
    detail: [],
  },
] as const satisfies readonly EventSpec[];

export const attributesOf = (contract: WidgetContract): readonly AttributeSpec[] => [
  ...contract.attributes,
  ...COMMON_ATTRIBUTES,
];
export const eventsOf = (contract: WidgetContract): readonly EventSpec[] => [...contract.events, ...COMMON_EVENTS];
export const isCore = (spec: AttributeSpec): spec is CoreAttributeSpec => 'core' in spec;

/** The declaration of one attribute of a contract, typed as declared. */
export function attributeSpec<C extends WidgetContract, N extends C['attributes'][number]['name']>(
  contract: C,
  name: N,
): Extract<C['attributes'][number], { name: N }> {
  const spec = contract.attributes.find((a) => a.name === name);
  if (!spec) throw new Error(`${contract.tag} has no attribute ${name}`);
  return spec as Extract<C['attributes'][number], { name: N }>;
}

// ---- types derived from a contract (the widgets' settings and events are checked by tsc) ----

type Own<A> = A extends { type: 'enum'; values: readonly (infer V)[] }
  ? V
  : A extends { type: infer T extends keyof OwnTypes }
    ? OwnTypes[T]
    : never;
type CoreValue<K, F> = K extends ConfigName ? (F extends keyof DefaultsOf<K> ? DefaultsOf<K>[F] : never) : never;
type ValueOf<A> = A extends { core: { config: infer K; key: infer F } }
  ? CoreValue<K, F>
  : A extends { default: unknown }
    ? Own<A>
    : Own<A> | undefined;

/** A widget's attributes as read: name -> value (its default when absent; undefined when it has none). */
export type Settings<C extends WidgetContract> = { [A in C['attributes'][number] as A['name']]: ValueOf<A> };

export type EventName<C extends WidgetContract> = C['events'][number]['name'];
export type EventDetail<C extends WidgetContract, N extends string> =
  Extract<C['events'][number], { name: N }> extends { detail: infer D extends readonly DetailField[] }
    ? { [F in D[number] as F['name']]: DetailTypes[F['type']] }
    : never;

// ---- reading an attribute ----

/** A message of the common catalog (web/src/messages/<language>/common.json) with its arguments. */
export interface Said {
  key: string;
  params: MessageParams;
  /** Arguments that are messages themselves (what a value must be), said first. */
  parts?: Record<string, Said>;
}

/**
 * An attribute (or author data) the widget cannot use: shown in the widget, logged as a warning.
 * The message is English (the console, scripts); `said`, when given, is what the widget shows,
 * from the common catalog in the widget's language.
 */
export class AuthorError extends Error {
  override name = 'AuthorError';
  constructor(
    message: string,
    readonly said?: Said,
  ) {
    super(message);
  }
}

const interval = (min: number, max: number, openMin = false, openMax = false) =>
  `${openMin ? '(' : '['}${min}, ${max}${openMax ? ')' : ']'}`;

/** The core's field behind an attribute. */
export function fieldOf(spec: CoreAttributeSpec, configs: Configs): FieldSpec {
  const field = configs[spec.core.config].fields.find((f) => f.key === spec.core.key);
  if (!field) throw new Error(`the core has no field ${spec.core.config}.${spec.core.key}`);
  return field;
}

/** The core's field with this widget's cap applied: the range the widget accepts. */
export function acceptedField(spec: CoreAttributeSpec, configs: Configs): FieldSpec {
  const field = fieldOf(spec, configs);
  if (spec.cap === undefined || spec.cap >= field.max) return field;
  return { ...field, max: spec.cap, openMax: false };
}

/**
 * A field that must divide another of its config (FieldSpec.divides): the size it divides, the
 * other field's default (a widget that takes this attribute sets the other to its default), and
 * its divisors within the accepted range, ascending. Undefined for any other attribute.
 */
export function divisorsOf(
  spec: AttributeSpec,
  configs: Configs,
): { size: number; other: string; divisors: number[] } | undefined {
  if (!isCore(spec)) return undefined;
  const f = acceptedField(spec, configs);
  if (f.kind !== 'integer' || !f.divides) return undefined;
  const size = Number((configs[spec.core.config].defaults as unknown as Record<string, unknown>)[f.divides]);
  const divisors: number[] = [];
  for (let d = 1; d <= size; d++) if (size % d === 0 && inRange(d, f)) divisors.push(d);
  return { size, other: f.divides, divisors };
}

/** What a value must be, as a phrase: "a whole number in [1, 32]". Used in errors and the guide. */
export function valuePhrase(spec: AttributeSpec, configs: Configs): string {
  const divides = divisorsOf(spec, configs);
  if (divides) return `a divisor of ${divides.size}: ${divides.divisors.join(', ')}`;
  if (isCore(spec)) {
    const f = acceptedField(spec, configs);
    const range = interval(f.min, f.max, f.openMin, f.openMax);
    switch (f.kind) {
      case 'integer':
      case 'seed':
        return `a whole number in ${range}`;
      case 'number':
        return `a number in ${range}`;
      case 'boolean':
        return 'true or false (written without a value: true)';
      case 'integers':
        return `whole numbers separated by commas, 1 to ${f.maxCount} of them, each in ${range}`;
      case 'choice':
        return `one of ${f.choices.join(', ')}`;
    }
  }
  switch (spec.type) {
    case 'number':
      return `${spec.integer ? 'a whole number' : 'a number'} in ${interval(spec.min ?? -Infinity, spec.max ?? Infinity)}`;
    case 'enum':
      return `one of ${spec.values!.join(', ')}`;
    case 'text':
      return spec.format ?? 'text';
    case 'url':
      return 'an http(s) address, absolute or relative to the page';
    case 'iri':
      return 'an absolute IRI, such as https://example.com/course/quiz-1';
    case 'points':
      return `a JSON list of 1 to ${spec.maxCount} [x, y] pairs of numbers`;
    case 'point':
      return 'two numbers "x, y"';
  }
}

/** What a value must be, as a message of the common catalog (valuePhrase's words, translated). */
export function valueSaid(spec: AttributeSpec, configs: Configs): Said {
  const divides = divisorsOf(spec, configs);
  if (divides) return { key: 'valueDivisor', params: { size: divides.size, values: divides.divisors.join(', ') } };
  if (isCore(spec)) {
    const f = acceptedField(spec, configs);
    const range = interval(f.min, f.max, f.openMin, f.openMax);
    switch (f.kind) {
      case 'integer':
      case 'seed':
        return { key: 'valueWhole', params: { range } };
      case 'number':
        return { key: 'valueNumber', params: { range } };
      case 'boolean':
        return { key: 'valueBoolean', params: {} };
      case 'integers':
        return { key: 'valueIntegers', params: { max: f.maxCount, range } };
      case 'choice':
        return { key: 'valueChoice', params: { choices: f.choices.join(', ') } };
    }
  }
  switch (spec.type) {
    case 'number':
      return {
        key: spec.integer ? 'valueWhole' : 'valueNumber',
        params: { range: interval(spec.min ?? -Infinity, spec.max ?? Infinity) },
      };
    case 'enum':
      return { key: 'valueChoice', params: { choices: spec.values!.join(', ') } };
    case 'text':
      return spec.format ? { key: 'valueFormat', params: { format: spec.format } } : { key: 'valueText', params: {} };
    case 'url':
      return { key: 'valueUrl', params: {} };
    case 'iri':
      return { key: 'valueIri', params: {} };
    case 'points':
      return { key: 'valuePoints', params: { max: spec.maxCount ?? 0 } };
    case 'point':
      return { key: 'valuePoint', params: {} };
  }
}

/** TypeScript notation of what the attribute is read as (custom-elements.json's type). */
export function typeText(spec: AttributeSpec, configs: Configs): string {
  if (isCore(spec)) {
    const field = fieldOf(spec, configs);
    if (field.kind === 'choice') return field.choices.map((c) => `'${c}'`).join(' | ');
    return field.kind === 'boolean' ? 'boolean' : field.kind === 'integers' ? 'string' : 'number';
  }
  if (spec.type === 'enum') return spec.values!.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(' | ');
  return spec.type === 'number' ? 'number' : 'string';
}

/** TypeScript notation of the value its property reads (custom-elements.json's field type, the package's types). */
export function propertyType(spec: AttributeSpec, configs: Configs): string {
  if (isCore(spec)) {
    const field = fieldOf(spec, configs);
    if (field.kind === 'choice') return field.choices.map((c) => `'${c}'`).join(' | ');
    return field.kind === 'boolean' ? 'boolean' : field.kind === 'integers' ? 'number[]' : 'number';
  }
  const types: Record<OwnAttributeSpec['type'], string> = {
    number: 'number',
    enum: typeText(spec, configs),
    text: 'string',
    url: 'string',
    iri: 'string',
    points: 'number[][]',
    point: '[number, number]',
  };
  return types[spec.type];
}

/** The property that reflects an attribute: its name in camelCase (d-model: dModel). */
export const propertyName = (attribute: string): string =>
  attribute.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The attribute text a property's value writes; null removes the attribute (as null and
 * undefined do). A boolean follows HTML: true is the attribute without a value; false removes
 * it where its default is false, and is written "false" where the default is true or not known
 * (a core attribute before the core has loaded), so that it reads false either way.
 */
export function attributeText(value: unknown, defaultValue: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? '' : defaultValue === false ? null : 'false';
  return formatValue(value);
}

/** An attribute's value as written in HTML (also how the URL hash keeps it). */
export function formatValue(value: unknown): string {
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
    // a point keeps two decimals (where a drag left it); a list of whole numbers all of its digits
    return value.length === 2 && !value.every(Number.isInteger)
      ? value.map((v) => v.toFixed(2)).join(',')
      : value.join(',');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The default as HTML would write it; undefined when the attribute has none. */
export function defaultText(spec: AttributeSpec, configs: Configs): string | undefined {
  const value = defaultValue(spec, configs);
  return value === undefined ? undefined : formatValue(value);
}

export function defaultValue(spec: AttributeSpec, configs: Configs): unknown {
  if (isCore(spec)) return (configs[spec.core.config].defaults as unknown as Record<string, unknown>)[spec.core.key];
  return spec.default;
}

/** What the attribute does, in words: the core's help for a core attribute, with the widget's note. */
export function descriptionOf(spec: AttributeSpec, configs: Configs): string {
  if (!isCore(spec)) return spec.description;
  const help = fieldOf(spec, configs).help;
  const parts = [`${help.charAt(0).toUpperCase()}${help.slice(1)}.`];
  if (spec.note) parts.push(spec.note);
  if (spec.cap !== undefined && spec.cap < fieldOf(spec, configs).max)
    parts.push(`At most ${spec.cap} here: ${spec.capReason}.`);
  return parts.join(' ');
}

const WHOLE = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function inRange(v: number, f: { min: number; max: number; openMin?: boolean; openMax?: boolean }): boolean {
  return (f.openMin ? v > f.min : v >= f.min) && (f.openMax ? v < f.max : v <= f.max);
}

/**
 * Reads an attribute's text as its value, or throws an AuthorError naming the attribute, what it
 * must be and what it got. `base` resolves relative addresses (document.baseURI).
 */
export function parseAttribute(spec: AttributeSpec, raw: string, configs: Configs, base: string): unknown {
  const fail = (): never => {
    const got = raw.length > 60 ? raw.slice(0, 60) + '…' : raw;
    const expected = valueSaid(spec, configs);
    throw new AuthorError(`${spec.name} must be ${valuePhrase(spec, configs)}, got "${got}"`, {
      key: 'attributeValue',
      params: { attribute: spec.name, got },
      parts: { expected },
    });
  };

  const text = raw.trim();
  if (isCore(spec)) {
    const f = acceptedField(spec, configs);
    const divides = divisorsOf(spec, configs);
    const whole = (t: string) => {
      const v = Number(t);
      return WHOLE.test(t) && Number.isSafeInteger(v) && inRange(v, f) && (!divides || divides.size % v === 0)
        ? v
        : fail();
    };
    switch (f.kind) {
      case 'integer':
      case 'seed':
        return whole(text);
      case 'number':
        return NUMBER.test(text) && inRange(Number(text), f) ? Number(text) : fail();
      case 'boolean':
        // as in HTML, present without a value is true; "true" and "false" read as written
        return text === '' || text === 'true' ? true : text === 'false' ? false : fail();
      case 'integers': {
        const parts = text.split(',').map((p) => p.trim());
        return parts.length >= 1 && parts.length <= f.maxCount ? parts.map(whole) : fail();
      }
      case 'choice':
        return f.choices.includes(text) ? text : fail();
    }
  }
  switch (spec.type) {
    case 'number':
      return (spec.integer ? WHOLE : NUMBER).test(text) &&
        inRange(Number(text), { min: spec.min ?? -Infinity, max: spec.max ?? Infinity })
        ? Number(text)
        : fail();
    case 'enum':
      return spec.values!.find((v) => String(v) === text) ?? fail();
    case 'text':
      return new RegExp(`^(?:${spec.pattern ?? '.*'})$`, 'u').test(raw) ? raw : fail();
    case 'url': {
      try {
        const url = new URL(text, base);
        if (text !== '' && (url.protocol === 'https:' || url.protocol === 'http:')) return text;
      } catch {
        /* not an address */
      }
      return fail();
    }
    case 'iri': {
      try {
        if (/^[a-z][a-z0-9+.-]*:\S+$/i.test(text) && new URL(text)) return text;
      } catch {
        /* not absolute */
      }
      return fail();
    }
    case 'points': {
      let points: unknown;
      try {
        points = JSON.parse(text);
      } catch {
        return fail();
      }
      const pair = (p: unknown) =>
        Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v));
      return Array.isArray(points) &&
        points.length >= 1 &&
        points.length <= (spec.maxCount ?? Infinity) &&
        points.every(pair)
        ? points
        : fail();
    }
    case 'point': {
      // "x, y"; JSON's "[x, y]" is read too
      const parts = text
        .replace(/^\[(.*)\]$/s, '$1')
        .split(',')
        .map((p) => p.trim());
      return parts.length === 2 && parts.every((p) => NUMBER.test(p)) ? parts.map(Number) : fail();
    }
  }
}
