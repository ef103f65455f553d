// <attn-pitfall-demo>: two pitfalls computed by the core. Masking after the softmax leaves rows
// that no longer sum to 1 (core.maskDemo); a fully masked row in half precision with -1e30 or
// -1e9 turns into NaN, while a constant the type can hold stays finite (core.halfPrecisionPitfall).
import type { Core } from '../../core';
import { PITFALL_DEMO } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';

const fmt = (v: number) =>
  Number.isNaN(v) ? 'NaN' : v === -Infinity ? '−∞' : Math.abs(v) >= 1e4 ? v.toExponential(2) : v.toFixed(4);

export class PitfallDemo extends AttnElement<typeof PITFALL_DEMO> {
  static readonly contract = PITFALL_DEMO;
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  protected draw(): void {
    const masks = this.core.maskDemo();
    const both = masks.cases.find((c) => c.name === 'both')!;
    const sums = el(
      'table',
      { class: 'ranked', 'data-demo': 'mask-after-softmax' },
      el(
        'caption',
        {},
        `Row sums of the weights, causal and padding mask together (${masks.positions} positions, ${masks.real} real)`,
      ),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'query'),
          el('th', { scope: 'col' }, 'mask, then softmax'),
          el('th', { scope: 'col' }, 'softmax, then mask'),
        ),
      ),
      el(
        'tbody',
        {},
        ...Array.from(both.rowSums, (s, i) =>
          el(
            'tr',
            {},
            el('td', {}, String(i)),
            el('td', {}, s.toFixed(4)),
            el('td', {}, both.mistakeRowSums[i].toFixed(4)),
          ),
        ),
      ),
    );

    const half = this.core.halfPrecisionPitfall();
    const cases = el(
      'table',
      { class: 'ranked', 'data-demo': 'half-precision' },
      el(
        'caption',
        {},
        `Masked-score constants on ${half.positions} positions, rows ${half.fullyMaskedRows.join(', ')} fully masked`,
      ),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['precision', 'constant', 'stored as', 'fully masked rows', 'all weights finite'].map((h) =>
            el('th', { scope: 'col' }, h),
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
            el('td', {}, c.precision),
            el('td', {}, c.constant),
            el('td', {}, fmt(c.stored)),
            el('td', {}, c.fullyMaskedRowsNan ? 'NaN' : 'uniform'),
            el('td', {}, c.allFinite ? 'yes' : 'no'),
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
