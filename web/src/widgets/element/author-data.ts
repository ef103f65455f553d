// Data a course author gives a widget (quiz questions, exercises, a table), checked against its
// JSON Schema in web/src/schemas/, the one description of each format (shipped in the package
// and shown in the embedding guide). @cfworker/json-schema interprets the schema: no generated
// code and no `new Function`, so it runs under the strict CSP. The first problem found becomes an
// AuthorError that points at the field: "questions[2].options[1].correct must be true or false,
// got "yes"". The validator is loaded with the first data to check: a page whose widgets take no
// author data never fetches it.
import type { OutputUnit, Schema, Validator } from '@cfworker/json-schema';
import exercisesSchema from '../../schemas/exercises.schema.json';
import quizSchema from '../../schemas/quiz.schema.json';
import tableSchema from '../../schemas/table.schema.json';
import { AuthorError, type Said } from './contract';
import { fetchAuthorData } from './data-fetch';

export const SCHEMAS = { quiz: quizSchema, exercises: exercisesSchema, table: tableSchema } as const;
export type SchemaName = keyof typeof SCHEMAS;

const validators = new Map<SchemaName, Promise<Validator>>();

function validatorOf(name: SchemaName): Promise<Validator> {
  let validator = validators.get(name);
  if (!validator) {
    validator = import('@cfworker/json-schema').then(
      (loaded) => new loaded.Validator(SCHEMAS[name] as Schema, '2020-12', true),
    );
    validators.set(name, validator);
    validator.catch(() => validators.delete(name)); // a failed load is tried again next time
  }
  return validator;
}

/** `data` when it follows the schema; otherwise an AuthorError naming the first field that does not. */
export async function checkAuthorData<T>(name: SchemaName, data: unknown, source: string): Promise<T> {
  const result = (await validatorOf(name)).validate(data);
  if (result.valid) {
    checkUniqueIds(name, data, source);
    return data as T;
  }
  const problem = describeProblem(SCHEMAS[name] as Schema, data, result.errors);
  throw new AuthorError(`${name} data (${source}): ${problem.text}`, {
    key: 'dataProblem',
    params: { name, source },
    parts: { problem: problem.said },
  });
}

/** The lists whose entries' ids the schemas say are unique (JSON Schema cannot check it). */
const ID_LISTS: Partial<Record<SchemaName, string>> = { quiz: 'questions', exercises: 'exercises' };

/** Throws an AuthorError naming the first id that an earlier entry of its list has too. */
function checkUniqueIds(name: SchemaName, data: unknown, source: string): void {
  const list = ID_LISTS[name];
  if (!list) return;
  const entries = (data as Record<string, { id: string }[]>)[list];
  const seen = new Map<string, number>();
  for (const [at, { id }] of entries.entries()) {
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, at);
      continue;
    }
    const [field, earlier] = [`${list}[${at}].id`, `${list}[${first}]`];
    throw new AuthorError(
      `${name} data (${source}): ${field} "${id}" is the id of ${earlier} too; ids must be unique`,
      {
        key: 'dataProblem',
        params: { name, source },
        parts: { problem: { key: 'dataDuplicateId', params: { field, id, earlier } } },
      },
    );
  }
}

/**
 * The author's data for `widget`: its child <script type="application/json"> if it has one, else
 * the JSON file its `src` names (fetched relative to the page), checked against the schema;
 * undefined when it has neither (the widget then shows the lesson's own). A request that cannot
 * be made at all (a policy, CORS, the network) rejects with an AuthorError saying why (data-fetch.ts).
 */
export async function readAuthorData<T>(
  name: SchemaName,
  inline: string | null,
  src: string | undefined,
): Promise<T | undefined> {
  if (inline !== null) return checkAuthorData<T>(name, parseJson(inline, name, 'inline'), 'inline');
  if (src === undefined) return undefined;
  const response = await fetchAuthorData(name, src);
  if (!response.ok)
    throw new AuthorError(`${name} data: ${src.slice(0, 80)} answered ${response.status}`, {
      key: 'dataAnswered',
      params: { name, src: src.slice(0, 80), status: String(response.status) },
    });
  return checkAuthorData<T>(name, parseJson(await response.text(), name, src.slice(0, 80)), src.slice(0, 80));
}

function parseJson(text: string, name: SchemaName, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message; // the browser's words
    throw new AuthorError(`${name} data (${source}) is not JSON: ${reason}`, {
      key: 'dataNotJson',
      params: { name, source, reason },
    });
  }
}

// ---- turning the validator's output into one sentence ----

// Keywords that only say "something below failed": the sentence comes from what failed below.
const STRUCTURAL = new Set([
  'properties',
  'items',
  'prefixItems',
  '$ref',
  'allOf',
  'if',
  'then',
  'else',
  'additionalProperties',
  'contains',
]);

/** "questions[2].options[1].correct" for "#/questions/2/options/1/correct"; "the data" for "#". */
export function fieldPath(instanceLocation: string): string {
  const parts = instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!parts.length) return 'the data';
  return parts
    .map((p, i) =>
      /^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_][\w-]*$/.test(p) ? `${i ? '.' : ''}${p}` : `[${JSON.stringify(p)}]`,
    )
    .join('');
}

/** The subschema a keywordLocation ("#/properties/x/items/$ref/...") points at, following $refs. */
function schemaAt(root: Schema, keywordLocation: string): Record<string, unknown> {
  let node: unknown = root;
  for (const raw of keywordLocation.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (part === '$ref') {
      const ref = (node as { $ref: string }).$ref;
      node = schemaAt(root, ref);
    } else {
      node = (node as Record<string, unknown> | undefined)?.[part];
    }
  }
  return (node ?? {}) as Record<string, unknown>;
}

function valueAt(data: unknown, instanceLocation: string): unknown {
  let node = data;
  for (const part of instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean))
    node = (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

const TYPE_WORDS: Record<string, string> = {
  boolean: 'true or false',
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** A JSON type as a message of the common catalog (the type's own name when it has none). */
const typeSaid = (type: string): Said =>
  type in TYPE_WORDS ? { key: 'dataType', params: { type } } : { key: 'dataVerbatim', params: { text: type } };

/** Several things to say as one: "a or b", in the reader's language. */
function eitherSaid(parts: Said[]): Said {
  return parts.reduce((first, second) => ({ key: 'dataEither', params: {}, parts: { first, second } }));
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function range(schema: Record<string, unknown>): string {
  const lo = schema.exclusiveMinimum ?? schema.minimum,
    hi = schema.exclusiveMaximum ?? schema.maximum;
  if (lo !== undefined && hi !== undefined)
    return `in ${schema.exclusiveMinimum !== undefined ? '(' : '['}${lo}, ${hi}${schema.exclusiveMaximum !== undefined ? ')' : ']'}`;
  if (lo !== undefined) return `${schema.exclusiveMinimum !== undefined ? 'greater than' : 'at least'} ${lo}`;
  return `${schema.exclusiveMaximum !== undefined ? 'less than' : 'at most'} ${hi}`;
}

/** range() as a message of the common catalog. */
function rangeSaid(schema: Record<string, unknown>): Said {
  const lo = (schema.exclusiveMinimum ?? schema.minimum) as number | undefined,
    hi = (schema.exclusiveMaximum ?? schema.maximum) as number | undefined;
  if (lo !== undefined && hi !== undefined) return { key: 'rangeIn', params: { range: range(schema).slice(3) } };
  if (lo !== undefined)
    return { key: schema.exclusiveMinimum !== undefined ? 'rangeAbove' : 'rangeAtLeast', params: { n: lo } };
  return { key: schema.exclusiveMaximum !== undefined ? 'rangeBelow' : 'rangeAtMost', params: { n: hi ?? 0 } };
}

/** A problem in English (the console) and as a message of the common catalog (the widget). */
interface Problem {
  text: string;
  said: Said;
}

/** The first problem the validator found, as a sentence about the field it concerns. */
function describeProblem(root: Schema, data: unknown, errors: OutputUnit[]): Problem {
  const verbatim = (text: string): Problem => ({ text, said: { key: 'dataVerbatim', params: { text } } });
  // Inside `contains`, failures are the search for a matching item, not problems; the verdict is min/maxContains.
  const leaf = errors.find(
    (e) => !STRUCTURAL.has(e.keyword) && !/\/(contains|anyOf\/\d+)\//.test(e.keywordLocation + '/'),
  );
  if (!leaf) return verbatim(errors[0]?.error ?? 'does not follow the schema');
  const at = leaf.instanceLocation;
  const field = fieldPath(at);
  const value = valueAt(data, at);
  // the subschema holding the failed keyword (a `false` schema's location is the field itself)
  const parent = leaf.keyword === 'false' ? {} : schemaAt(root, leaf.keywordLocation.replace(/\/[^/]+$/, ''));
  const got = shown(value);
  switch (leaf.keyword) {
    case 'type': {
      const types = [parent.type].flat() as string[];
      return {
        text: `${field} must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}, got ${got}`,
        said: { key: 'dataMustBe', params: { field, got }, parts: { expected: eitherSaid(types.map(typeSaid)) } },
      };
    }
    case 'required': {
      const name = /property "(.*)"/.exec(leaf.error)?.[1] ?? '?';
      return { text: `${field} needs "${name}"`, said: { key: 'dataRequired', params: { field, name } } };
    }
    case 'false':
      return {
        text: `${field} is not a field this format knows`,
        said: { key: 'dataUnknownField', params: { field } },
      };
    case 'minItems':
    case 'maxItems':
      return {
        text: `${field} must hold ${parent.minItems ?? 0} to ${parent.maxItems ?? 'any number of'} entries, got ${(value as unknown[]).length}`,
        said: {
          key: parent.maxItems === undefined ? 'dataItemsAtLeast' : 'dataItems',
          params: {
            field,
            min: Number(parent.minItems ?? 0),
            max: Number(parent.maxItems ?? 0),
            got: (value as unknown[]).length,
          },
        },
      };
    case 'minLength':
    case 'maxLength':
      return {
        text: `${field} must be text of ${parent.minLength ?? 0} to ${parent.maxLength ?? 'any number of'} characters, got ${(value as string).length}`,
        said: {
          key: parent.maxLength === undefined ? 'dataLengthAtLeast' : 'dataLength',
          params: {
            field,
            min: Number(parent.minLength ?? 0),
            max: Number(parent.maxLength ?? 0),
            got: (value as string).length,
          },
        },
      };
    case 'enum': {
      const choices = (parent.enum as unknown[]).join(', ');
      return {
        text: `${field} must be one of ${choices}, got ${got}`,
        said: {
          key: 'dataMustBe',
          params: { field, got },
          parts: { expected: { key: 'valueChoice', params: { choices } } },
        },
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        text: `${field} must be ${range(parent)}, got ${got}`,
        said: { key: 'dataMustBe', params: { field, got }, parts: { expected: rangeSaid(parent) } },
      };
    case 'minContains':
    case 'maxContains': {
      const wanted = (parent.contains as { description?: string })?.description ?? 'matching entry';
      const count =
        parent.minContains === parent.maxContains
          ? `exactly ${parent.minContains}`
          : `${parent.minContains ?? 0} to ${parent.maxContains ?? 'any number of'}`;
      // the schema's own description of the entry is English: said as it is
      return verbatim(`${field} must have ${count} ${wanted.replace(/^an? /, '')}${count.endsWith(' 1') ? '' : 's'}`);
    }
    case 'anyOf': {
      const branches = (parent.anyOf as Record<string, unknown>[]).map((b) =>
        b.maxLength !== undefined
          ? `text of at most ${b.maxLength} characters`
          : (TYPE_WORDS[String(b.type)] ?? String(b.type)),
      );
      const saidBranches = (parent.anyOf as Record<string, unknown>[]).map((b): Said =>
        b.maxLength !== undefined
          ? { key: 'dataTextAtMost', params: { max: Number(b.maxLength) } }
          : typeSaid(String(b.type)),
      );
      return {
        text: `${field} must be ${branches.join(' or ')}, got ${got}`,
        said: { key: 'dataMustBe', params: { field, got }, parts: { expected: eitherSaid(saidBranches) } },
      };
    }
    default:
      return verbatim(`${field}: ${leaf.error}`);
  }
}

/**
 * Where author data states the language of its texts (`lang`), an element carrying it: wrap an
 * author's text with marked() so a screen reader reads it in that language, and name it as the
 * learning records' element so their language maps say it. Undefined without one.
 */
export function textsLanguage(lang: string | undefined): HTMLElement | undefined {
  if (!lang) return undefined;
  const holder = document.createElement('span');
  holder.lang = lang;
  return holder;
}

/** `shown` inside a copy of `holder` (textsLanguage), or as it is without one. */
export function marked<T extends Node | string>(holder: HTMLElement | undefined, shown: T): T | HTMLElement {
  if (!holder) return shown;
  const copy = holder.cloneNode() as HTMLElement;
  copy.append(shown);
  return copy;
}
