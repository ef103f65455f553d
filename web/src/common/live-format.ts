// Live numbers in text: "{sweep.maxUnscaled.256:4}" names a value computed by the core, with an
// optional format (":4" four decimals, ":e" scientific, none: integers with separators). The
// lesson's prose uses them, and so does any quiz given numbers to fill in. Numbers are written
// as the locale writes them (Spanish: 0,4717 and 16.640; English: 0.4717 and 16,640).
import { formatLocaleNumber, separatorsOf } from './locale-numbers';

export type LiveNumbers = Record<string, number>;

// A placeholder needs a dot in its name, so TeX groups such as {d_k} are left alone.
const PLACEHOLDER = /\{([a-zA-Z][\w]*(?:\.[\w-]+)+)(?::(\d|e))?\}/g;

/** `value` in `format` as `locale` writes it (Intl; scientific notation with the locale's decimal mark). */
export function formatNumber(value: number, format?: string, locale = 'en'): string {
  if (!Number.isFinite(value)) return String(value);
  if (format === 'e') return value.toExponential(2).replace('.', separatorsOf(locale).decimal);
  if (format !== undefined) return formatLocaleNumber(value, locale, Number(format));
  // Unformatted: integers grouped as the locale groups them, other values with all their decimals.
  const decimals = Number.isInteger(value) ? 0 : (/\.(\d+)$/.exec(String(value))?.[1].length ?? 6);
  return formatLocaleNumber(value, locale, Math.min(decimals, 20));
}

export interface Piece {
  text: string;
  key?: string; // set when the piece is a live number
  format?: string; // its format ("4", "e" or none)
  missing?: boolean; // the core has not (yet) produced it
}

// Splits text into literal pieces and live-number pieces, the numbers written for `locale`.
export function splitLive(text: string, numbers: LiveNumbers, locale = 'en'): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index! > last) pieces.push({ text: text.slice(last, match.index) });
    const key = match[1];
    const value = numbers[key];
    const format = match[2];
    pieces.push(
      value === undefined
        ? { text: '…', key, format, missing: true }
        : { text: formatNumber(value, format, locale), key, format },
    );
    last = match.index! + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

// The same with every placeholder replaced by its formatted value (for attributes).
export function fillLive(text: string, numbers: LiveNumbers, locale = 'en'): string {
  return splitLive(text, numbers, locale)
    .map((p) => p.text)
    .join('');
}

// The same for TeX: a decimal comma in braces, so TeX does not read it as punctuation and space it.
export function fillLiveTex(tex: string, numbers: LiveNumbers, locale = 'en'): string {
  return splitLive(tex, numbers, locale)
    .map((p) => (p.key ? p.text.replace(/,/g, '{,}') : p.text))
    .join('');
}
