// The language of this project's own pages (the lesson, the guide, a framed widget): what a
// course page does with its <html lang>, these pages take from ?lang= or the reader's browser.
import { directionOf, pickLanguage, type Language, type PageLanguage } from '../common/language';

/** Each shipped language's name in itself, for a language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español', 'zh-CN': '简体中文' };

/**
 * The language of one of this project's pages (the lesson, the guide, a framed widget): its
 * ?lang= when that names a language shown here, else the reader's browser's. It becomes
 * <html lang> and dir, which every widget on the page follows.
 */
export function applyPageLanguage(): PageLanguage {
  const asked = new URLSearchParams(location.search).get('lang');
  const root = document.documentElement;
  const language = pickLanguage(asked === null ? navigator.languages : [asked]);
  if (asked !== null && language === 'en' && !/^en\b/i.test(asked))
    console.warn(`?lang: ${asked.slice(0, 40)} is not a language shown here; English instead`);
  root.lang = language;
  root.dir = directionOf(language);
  return language;
}
