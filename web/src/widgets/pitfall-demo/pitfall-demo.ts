// <attn-pitfall-demo>: two pitfalls computed by the core. Masking after the softmax leaves rows
// that no longer sum to 1 (core.maskDemo); a fully masked row in half precision with -1e30 or
// -1e9 turns into NaN, while a constant the type can hold stays finite (core.halfPrecisionPitfall).
import type { Core } from '../../core';
import { PITFALL_DEMO } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { numberLocale } from '../../common/language';
import pitfallMessages from 'attn-messages:pitfall-demo';

/** A stored constant as `locale` writes it: large ones in scientific notation, −∞ and NaN as symbols. */
function fmt(v: number, locale: string): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === -Infinity) return '−∞';
  const options: Intl.NumberFormatOptions =
    Math.abs(v) >= 1e4
      ? { notation: 'scientific', minimumFractionDigits: 2, maximumFractionDigits: 2 }
      : { minimumFractionDigits: 4, maximumFractionDigits: 4 };
  return new Intl.NumberFormat(locale, options).format(v).replace('-', '−');
}

export class PitfallDemo extends AttnElement<typeof PITFALL_DEMO> {
  static readonly contract = PITFALL_DEMO;
  static readonly messages = [pitfallMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  protected draw(): void {
    const masks = this.core.maskDemo();
    const both = masks.cases.find((c) => c.name === 'both')!;
    const sums = el(
      'table',
      { class: 'ranked', 'data-demo': 'mask-after-softmax' },
      el('caption', {}, this.text('sumsCaption', { positions: masks.positions, real: masks.real })),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, this.text('query')),
          el('th', { scope: 'col' }, this.text('maskThenSoftmax')),
          el('th', { scope: 'col' }, this.text('softmaxThenMask')),
        ),
      ),
      el(
        'tbody',
        {},
        ...Array.from(both.rowSums, (s, i) =>
          el(
            'tr',
            {},
            el('td', {}, this.formatNumber(i)),
            el('td', {}, this.formatNumber(s, 4)),
            el('td', {}, this.formatNumber(both.mistakeRowSums[i], 4)),
          ),
        ),
      ),
    );

    const half = this.core.halfPrecisionPitfall();
    const locale = numberLocale(this.messages.language);
    const cases = el(
      'table',
      { class: 'ranked', 'data-demo': 'half-precision' },
      el(
        'caption',
        {},
        this.text('halfCaption', {
          positions: half.positions,
          count: half.fullyMaskedRows.length,
          rows: new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(
            Array.from(half.fullyMaskedRows, (r) => this.formatNumber(r)),
          ),
        }),
      ),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['precision', 'constant', 'storedAs', 'fullyMaskedRows', 'allFinite'].map((h) =>
            el('th', { scope: 'col' }, this.text(h)),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        ...half.cases.map((c) =>
          el(
            'tr',
            { 'data-precision': c.precision, 'data-constant': c.constant },
            el('td', { dir: 'ltr', translate: 'no' }, c.precision),
            el('td', { dir: 'ltr', translate: 'no' }, c.constant),
            el('td', { dir: 'ltr', translate: 'no' }, fmt(c.stored, locale)),
            el('td', {}, c.fullyMaskedRowsNan ? 'NaN' : this.text('uniform')),
            el('td', {}, this.text(c.allFinite ? 'yes' : 'no')),
          ),
        ),
      ),
    );
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el('div', { class: 'table-scroll' }, sums),
        el('div', { class: 'table-scroll' }, cases),
      ),
    );
  }
}

define(PitfallDemo);
