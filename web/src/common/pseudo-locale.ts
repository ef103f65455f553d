// Two pseudo-locales made from English, for testing, never offered to readers:
//   en-XA  every letter accented, each message 40% longer and in brackets: "[Ćĥéçķ ·····]".
//          A string on screen that is not like that did not come from a catalog, and a layout
//          that breaks under it breaks in a language with longer words.
//   ar-XB  the same text written right to left (each word in a right-to-left override), on a
//          page with dir="rtl": what mirrors and what must not (matrices, formulas) shows.
// The arguments of a message (author text, numbers) are left as they are.
// Loaded only when a page asks for a pseudo-locale (language.ts names them).
import type { PseudoLocale } from './language';
import type { Compiled, Message } from './messages';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [
    letter,
    [...'àƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ'][i],
  ]),
);

// Private-use marks around an argument while a message is transformed, so it stays as it is.
const OPEN = '\ue000';
const CLOSE = '\ue001';
const ARGUMENT = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g');

/** Text in the pseudo-locale, without its brackets; arguments (between the marks) untouched. */
export function pseudoText(text: string, locale: PseudoLocale): string {
  const parts = text.split(new RegExp(`(${OPEN}\\d+${CLOSE})`));
  const letters = parts
    .filter((part) => !part.startsWith(OPEN))
    .join('')
    .replace(/\s/g, '').length;
  const pseudo = parts
    .map((part) => {
      if (part.startsWith(OPEN)) return part;
      const accented = [...part].map((c) => ACCENTED[c] ?? c).join('');
      return locale === 'ar-XB' ? accented.replace(/\S+/g, (word) => `\u202e${word}\u202c`) : accented;
    })
    .join('');
  // The padding in words of up to 8 dots, so that it wraps as words of a long language do.
  const dots = Math.ceil(letters * 0.4);
  const padding =
    letters === 0
      ? ''
      : ` ${'········'
          .repeat(Math.ceil(dots / 8))
          .slice(0, dots)
          .replace(/(.{8})(?=.)/g, '$1 ')}`;
  return `[${pseudo}${padding}]`;
}

/** An English message in the pseudo-locale; its string arguments pass through unchanged. */
export function pseudoMessage(english: Message, locale: PseudoLocale): Message {
  return (params) => {
    const kept: string[] = [];
    const marked: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(params ?? {}))
      marked[name] = typeof value === 'string' ? `${OPEN}${kept.push(value) - 1}${CLOSE}` : value;
    return pseudoText(english(marked), locale).replace(ARGUMENT, (_, i: string) => kept[Number(i)]);
  };
}

/** A namespace's English messages in a pseudo-locale. */
export function pseudoCatalog(english: Compiled, locale: PseudoLocale): Compiled {
  return Object.fromEntries(Object.entries(english).map(([key, message]) => [key, pseudoMessage(message, locale)]));
}
