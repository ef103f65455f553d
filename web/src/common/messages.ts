// What a reader reads, in their language: the message catalogs (web/src/messages/, compiled at
// build time: scripts/vite-messages.ts) looked up by key. A namespace's English messages are
// always at hand; another language's load when first asked for, once per page, and a message
// that language lacks is said in English (and marked lang="en" by whoever shows it, if they care).
import { addLanguage, type PageLanguage } from './language';

/** One compiled message: its arguments by name, as ICU MessageFormat wrote them. */
export type Message = (params?: Record<string, unknown>) => string;
export type Compiled = Record<string, Message>;

/** A namespace's catalog module (`import quiz from 'attn-messages:quiz'`). */
export interface Catalog {
  namespace: string;
  en: Compiled;
  load: Partial<Record<string, () => Promise<{ default: Compiled }>>>;
}

/** The arguments a message takes: numbers and text (numbers already written for the reader's locale, where fixed decimals matter). */
export type MessageParams = Record<string, string | number>;

/** Says the catalog's messages in one language. */
export interface Messages {
  readonly language: PageLanguage;
  /** The message `key` with its arguments; an unknown key says so in brackets (a test finds it). */
  text(key: string, params?: MessageParams): string;
  /** Is `key` said in English, this language lacking it? */
  isEnglish(key: string): boolean;
}

const loaded = new Map<string, Promise<Compiled>>();
/** An author's own wording of some messages: `${language}/${namespace}` -> key -> message. */
const overrides = new Map<string, Compiled>();

// {name} in an author's override: the argument of that name.
const ARGUMENT = /\{(\w+)\}/g;

/**
 * An author's own wording of messages of one namespace in one language, used from then on (a
 * widget drawn before says it at its next drawing). A language no catalog ships becomes one the
 * widgets speak: its messages are these, and English for the rest. A string takes the message's arguments as
 * {name}, numbers written as the language writes them; a function gets them all and returns the
 * text (for plurals). The keys: web/src/messages/en/<namespace>.json.
 *
 *   overrideMessages('es', 'quiz', { check: 'Verificar', score: 'Aciertos: {score} de {total}' })
 */
export function overrideMessages(
  language: string,
  namespace: string,
  messages: Record<string, string | ((params: Record<string, unknown>) => string)>,
): void {
  addLanguage(language);
  const id = `${language}/${namespace}`;
  const compiled: Compiled = { ...overrides.get(id) };
  for (const [key, message] of Object.entries(messages)) {
    compiled[key] =
      typeof message === 'function'
        ? (params) => message(params ?? {})
        : (params) =>
            message.replace(ARGUMENT, (whole, name: string) => {
              const value = params?.[name];
              if (value === undefined) return whole;
              return typeof value === 'number' ? new Intl.NumberFormat(language).format(value) : String(value);
            });
  }
  overrides.set(id, compiled);
}

/** The language's messages of a catalog, loaded once per page; English when it has none or fails to load. */
function compiledIn(catalog: Catalog, language: PageLanguage): Promise<Compiled> {
  const load = catalog.load[language];
  if (language === 'en' || !load) return Promise.resolve({});
  const id = `${catalog.namespace}/${language}`;
  let compiled = loaded.get(id);
  if (!compiled) {
    compiled = load().then(
      (module) => module.default,
      (error: unknown) => {
        console.warn(
          `attention-lab: the ${language} messages (${catalog.namespace}) did not load; English instead`,
          error,
        );
        return {};
      },
    );
    loaded.set(id, compiled);
  }
  return compiled;
}

/** The messages of `catalogs` (looked up in order) in `language`, once its catalogs have loaded. */
export async function messagesIn(language: PageLanguage, ...catalogs: Catalog[]): Promise<Messages> {
  const compiled = await Promise.all(catalogs.map((catalog) => compiledIn(catalog, language)));
  const find = (key: string) => {
    for (const [i, catalog] of catalogs.entries()) {
      const own = overrides.get(`${language}/${catalog.namespace}`);
      if (own && Object.hasOwn(own, key)) return { message: own[key], english: false };
      if (Object.hasOwn(compiled[i], key)) return { message: compiled[i][key], english: false };
      if (Object.hasOwn(catalog.en, key)) return { message: catalog.en[key], english: language !== 'en' };
    }
    return undefined;
  };
  return {
    language,
    text(key, params) {
      const found = find(key);
      if (!found) {
        console.warn(`attention-lab: no message ${key} in ${catalogs.map((c) => c.namespace).join(', ')}`);
        return `[${key}]`;
      }
      return found.message(params);
    },
    isEnglish: (key) => find(key)?.english ?? true,
  };
}

/**
 * The message `key` with elements in the places of the arguments that are Nodes (a <strong>
 * around a prediction, a file name as code): its parts in order, to append. The sentence stays
 * one message, so a translation may put the element anywhere.
 */
export function textAround(
  messages: Messages,
  key: string,
  params: Record<string, string | number | Node>,
): (Node | string)[] {
  const nodes: Node[] = [];
  const plain: MessageParams = {};
  for (const [name, value] of Object.entries(params))
    plain[name] = value instanceof Node ? `\uE000${nodes.push(value) - 1}\uE001` : value;
  return messages
    .text(key, plain)
    .split(/\uE000(\d+)\uE001/)
    .map((part, i) => (i % 2 ? nodes[Number(part)] : part))
    .filter((part) => part !== '');
}
