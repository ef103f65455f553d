// The lesson page's own words around the prose, from the lesson catalog: <title>, the
// description, the header, the contents' label, the footer, the note that the prose is in
// English, and the language switcher (each language named in itself, with its lang).
import { LANGUAGE_NAMES, SHIPPED, type PageLanguage } from '../../common/language';
import type { Messages } from '../../common/messages';
import { el } from '../../widgets/element/base';

/**
 * The lesson's address in `language`, relative to the page: ?lang= set, the rest of the query
 * and the hash (the reader's settings) kept.
 */
export function addressIn(language: string, href = location.href): string {
  const url = new URL(href);
  url.searchParams.set('lang', language);
  return `${url.search}${url.hash}`;
}

/** The switcher's links, the current language marked aria-current; each link follows the hash as it changes. */
export function languageSwitcher(current: PageLanguage, messages: Messages): HTMLElement {
  const links = SHIPPED.map((language) =>
    el(
      'a',
      {
        href: addressIn(language),
        lang: language,
        hreflang: language,
        ...(language === current ? { 'aria-current': 'true' } : {}),
      },
      LANGUAGE_NAMES[language],
    ),
  );
  const nav = el(
    'nav',
    { class: 'languages', 'aria-label': messages.text('languages') },
    el('ul', {}, ...links.map((link) => el('li', {}, link))),
  );
  // The settings live in the hash, which the widgets replace without an event: the link is
  // brought up to date whenever it may be followed or copied.
  const refresh = (event: Event) => {
    const link = (event.target as Element).closest('a');
    if (link?.hreflang) link.href = addressIn(link.hreflang);
  };
  for (const type of ['click', 'pointerdown', 'focusin', 'contextmenu']) nav.addEventListener(type, refresh);
  return nav;
}

/** Says the page's own words in the messages' language. */
export function applyChrome(messages: Messages, proseInEnglish: boolean): void {
  const text = (id: string, key: string) => {
    const node = document.getElementById(id);
    if (node) node.textContent = messages.text(key);
  };
  document.title = messages.text('pageTitle');
  document.querySelector('meta[name="description"]')?.setAttribute('content', messages.text('description'));
  text('skip-link', 'skipLink');
  text('lesson-kicker', 'kicker');
  text('lesson-title', 'lessonTitle');
  text('lesson-subtitle', 'subtitle');
  text('core-status', 'coreLoading');
  // The status's place holds its longest message from the start, so the page below stays put.
  const sizer = document.getElementById('core-status-sizer');
  if (sizer) sizer.textContent = messages.text('coreReady', { ms: 88_888 });
  text('footer-text', 'footer');
  text('footer-embed', 'footerEmbed');
  document.getElementById('toc')?.parentElement?.setAttribute('aria-label', messages.text('contents'));
  document.getElementById('languages-slot')?.replaceChildren(languageSwitcher(messages.language, messages));
  if (proseInEnglish)
    document
      .querySelector('.core-status-slot')
      ?.after(el('p', { class: 'note prose-language' }, messages.text('proseInEnglish')));
}
