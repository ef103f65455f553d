// The guide's "Languages" part: how each shipped language writes and reads numbers, computed by
// the same functions the widgets use (so the table cannot say one thing while the widgets do
// another); what each widget keeps left to right (its contract); and the live examples in the
// guide's ?lang= (the guide's own text stays English).
import { LANGUAGE_NAMES, SHIPPED, pickLanguage } from '../../common/language';
import { formatLocaleNumber, parseLocaleNumber } from '../../common/locale-numbers';
import { el } from '../../widgets/element/base';
import { CONTRACTS } from '../../widgets/element/contracts';

/** What a reader types, to show how each language reads it. */
const TYPED = ['0.5', '0,5', '9408', '9,408', '9.408', '16.640'];

/** How `typed` reads in `language`: its value, and the other reading when the text is ambiguous. */
function reading(typed: string, language: string): string {
  const read = parseLocaleNumber(typed, language);
  if (!read) return 'refused';
  return read.otherValue === undefined ? String(read.value) : `${read.value} (not ${read.otherValue})`;
}

/** The table of number rules per shipped language: how it writes three numbers, how it reads what is typed. */
export function renderNumberRules(table: HTMLTableElement): void {
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'language'),
    el('th', { scope: 'col' }, 'writes 0.4717, 9408, 16640'),
    ...TYPED.map((typed) => el('th', { scope: 'col' }, 'reads ', el('code', {}, typed))),
  );
  const rows = SHIPPED.map((language) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, `${LANGUAGE_NAMES[language]} (${language})`),
      el('td', {}, [0.4717, 9408, 16640].map((n) => formatLocaleNumber(n, language)).join('   ')),
      ...TYPED.map((typed) => el('td', {}, reading(typed, language))),
    ),
  );
  table.replaceChildren(
    el('caption', {}, 'How each language writes numbers, and reads what a reader types (values in plain digits)'),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}

/** The table of what each widget keeps left to right on a right-to-left page, from the contracts. */
export function renderRightToLeft(table: HTMLTableElement): void {
  table.replaceChildren(
    el('caption', {}, 'What each widget keeps left to right under dir="rtl"; the rest mirrors'),
    el(
      'thead',
      {},
      el('tr', {}, el('th', { scope: 'col' }, 'widget'), el('th', { scope: 'col' }, 'stays left to right')),
    ),
    el(
      'tbody',
      {},
      ...CONTRACTS.map((c) =>
        el('tr', {}, el('th', { scope: 'row' }, el('code', {}, `<${c.tag}>`)), el('td', {}, c.leftToRight)),
      ),
    ),
  );
}

/** The guide's ?lang=: its live examples speak it (the guide's own text stays English). */
export function exampleLanguage(): string | undefined {
  const asked = new URLSearchParams(location.search).get('lang');
  return asked === null ? undefined : pickLanguage([asked]);
}
