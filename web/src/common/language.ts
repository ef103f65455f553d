// Which of the shipped languages a reader gets. A request (a lang attribute, ?lang=, the
// browser's list) names a language as BCP 47 does; it matches a shipped one with the same
// language and script (so zh-SG gets Simplified Chinese, zh-TW does not), else the next request
// in line is tried, else English. Messages missing from a language fall back to English one by one.

/** The languages whose messages ship, English first (every message exists in English). */
export const SHIPPED = ['en', 'es', 'zh-CN'] as const;
export type Language = (typeof SHIPPED)[number];

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
export function pickLanguage(requests: readonly (string | null | undefined)[]): Language {
  for (const request of requests) {
    if (!request) continue;
    const shipped = shippedByScript.get(languageAndScript(request.trim()));
    if (shipped) return shipped;
  }
  return 'en';
}

/**
 * The language an element's reader gets: its own lang, else the nearest lang up the tree (across
 * shadow roots to their hosts), else the browser's languages.
 */
export function languageOf(element: Element): Language {
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
