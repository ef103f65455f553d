// Numbers in the reader's language: written through Intl (the locale's decimal mark and grouping
// rules: Spanish writes 9408 and 16.640, English 9,408 and 16,640), and read back from what a
// reader types by the same rules, with the plain digits form (9408.5) accepted in every language.
// CSV and other machine-readable output keep the plain form and do not come through here.

/** The separators a locale writes: its decimal mark, and its grouping mark ('' if it has none). */
export interface Separators {
  decimal: string;
  group: string;
}

const separatorCache = new Map<string, Separators>();

export function separatorsOf(locale: string): Separators {
  let separators = separatorCache.get(locale);
  if (!separators) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    separators = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? '',
    };
    separatorCache.set(locale, separators);
  }
  return separators;
}

/** One formatter per locale and digits: a chart redraw writes dozens of numbers. */
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * `value` as the locale writes it: `digits` decimals when given (fixed), else as many as it has
 * (up to 6). NaN and infinities as Intl writes them in that locale.
 */
export function formatLocaleNumber(value: number, locale: string, digits?: number): string {
  const key = `${locale}/${digits ?? ''}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions =
      digits === undefined
        ? { maximumFractionDigits: 6 }
        : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format.format(value);
}

/** How a typed number was read. */
export interface NumberReading {
  value: number;
  /** 'locale': by the locale's marks; 'plain': digits with a point for decimals, no grouping */
  form: 'locale' | 'plain';
  /** the other value the text could mean (Spanish "9.408": 9408 by the locale, 9.408 plainly) */
  otherValue?: number;
}

const PLAIN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Spaces a locale may group with (French: a narrow no-break space) are typed as any space.
const SPACE = /[\s\u00a0\u202f]/;
const SPACES = new RegExp(SPACE.source, 'g');

/**
 * Reads what a reader typed as a number, by the locale's marks or in the plain digits form, or
 * undefined when it is neither. When both readings are valid and differ, the locale's wins and
 * the other is returned too, so the caller can show how it read the entry.
 */
export function parseLocaleNumber(text: string, locale: string): NumberReading | undefined {
  const { decimal, group } = separatorsOf(locale);
  const spaced = SPACE.test(group);
  const typed = text.trim().replace(SPACES, spaced ? ' ' : '');
  const groupMark = spaced ? ' ' : group;
  // By the locale: optional grouping in threes (each group exactly three digits), its decimal mark.
  const grouped = groupMark ? `\\d{1,3}(?:${escape(groupMark)}\\d{3})+|\\d+` : '\\d+';
  const localeForm = new RegExp(`^([+-]?)(${grouped})(?:${escape(decimal)}(\\d+))?$`);
  const match = localeForm.exec(typed);
  const byLocale = match
    ? Number(`${match[1]}${match[2].split(groupMark || '\u0000').join('')}.${match[3] ?? '0'}`)
    : undefined;
  const plain = PLAIN.test(typed) ? Number(typed) : undefined;
  if (byLocale !== undefined && Number.isFinite(byLocale)) {
    return plain !== undefined && plain !== byLocale
      ? { value: byLocale, form: 'locale', otherValue: plain }
      : { value: byLocale, form: 'locale' };
  }
  if (plain !== undefined && Number.isFinite(plain)) return { value: plain, form: 'plain' };
  return undefined;
}
