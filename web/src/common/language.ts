// Which of the shipped languages a reader gets. A request (a lang attribute, ?lang=, the
// browser's list) names a language as BCP 47 does; it matches a shipped one with the same
// language and script (so zh-SG gets Simplified Chinese, zh-TW does not), else the next request
// in line is tried, else English. Messages missing from a language fall back to English one by one.
// The pseudo-locales (pseudo-locale.ts) are served only when asked for by their exact tag.

/** The languages whose messages ship, English first (every message exists in English). */
export const SHIPPED = ['en', 'es', 'zh-CN'] as const;
export type Language = (typeof SHIPPED)[number];
/** The pseudo-locales (pseudo-locale.ts makes their messages) and their writing direction. */
export const PSEUDO_LOCALES = { 'en-XA': 'ltr', 'ar-XB': 'rtl' } as const;
export type PseudoLocale = keyof typeof PSEUDO_LOCALES;

/** What a page or widget may be shown in: a shipped language, a pseudo-locale, or one an author added. */
export type PageLanguage = Language | PseudoLocale | (string & {});

/** Languages an author gave messages for (overrideMessages), each as given: matched like the shipped ones. */
const added = new Map<string, string>();

/** Makes `tag` a language the widgets speak (an author gave messages in it). */
export function addLanguage(tag: string): void {
  const key = languageAndScript(tag);
  if (key && !shippedByScript.has(key)) added.set(key, tag);
}

/** Each shipped language's name in itself, for a language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español', 'zh-CN': '简体中文' };

const isPseudo = (tag: string): tag is PseudoLocale => Object.hasOwn(PSEUDO_LOCALES, tag);

/** The locale whose rules write and read numbers in a language (a pseudo-locale's are English's). */
export const numberLocale = (language: PageLanguage): string => (isPseudo(language) ? 'en' : language);

/** The writing direction of a language. */
export const directionOf = (language: PageLanguage): 'ltr' | 'rtl' =>
  isPseudo(language) ? PSEUDO_LOCALES[language] : 'ltr';

/** Language and script of a tag, or undefined when it is not a well-formed BCP 47 tag. */
function languageAndScript(tag: string): string | undefined {
  try {
    const locale = new Intl.Locale(tag).maximize();
    return `${locale.language}-${locale.script}`;
  } catch {
    return undefined;
  }
}

const shippedByScript = new Map(SHIPPED.map((tag) => [languageAndScript(tag), tag]));

/** The first of `requests` (most wanted first) that a shipped language serves, else English. */
export function pickLanguage(requests: readonly (string | null | undefined)[]): PageLanguage {
  for (const request of requests) {
    if (!request) continue;
    if (isPseudo(request.trim())) return request.trim() as PseudoLocale;
    const key = languageAndScript(request.trim());
    const shipped = shippedByScript.get(key) ?? added.get(key!);
    if (shipped) return shipped;
  }
  return 'en';
}

/**
 * The language an element's reader gets: its own lang, else the nearest lang up the tree (across
 * shadow roots to their hosts), else the browser's languages.
 */
export function languageOf(element: Element): PageLanguage {
  const requests: string[] = [];
  for (let node: Element | null = element; node;) {
    const withLang = node.closest('[lang]');
    if (withLang) {
      requests.push(withLang.getAttribute('lang') ?? '');
      break;
    }
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return pickLanguage([...requests, ...(globalThis.navigator?.languages ?? [])]);
}

/** What a page's ?lang= asks for (null when it has none). */
const askedLanguage = (): string | null => new URLSearchParams(location.search).get('lang');

/**
 * The language of one of this project's pages (the lesson, the guide, a framed widget): its
 * ?lang= when that names a language shown here, else the reader's browser's.
 */
export function pageLanguage(): PageLanguage {
  const asked = askedLanguage();
  return pickLanguage(asked === null ? navigator.languages : [asked]);
}

/** Shows the page in pageLanguage(): it becomes <html lang> and dir, which every widget on the page follows. */
export function applyPageLanguage(): PageLanguage {
  const asked = askedLanguage();
  const language = pageLanguage();
  if (asked !== null && language === 'en' && !/^en\b/i.test(asked))
    console.warn(`?lang: ${asked.slice(0, 40)} is not a language shown here; English instead`);
  const root = document.documentElement;
  root.lang = language;
  root.dir = directionOf(language);
  return language;
}
