// <attn-pitfall-demo>: two pitfalls computed by the core. Masking after the softmax leaves rows
// that no longer sum to 1 (core.maskDemo). A fully masked row in half precision: the reader
// picks the number type and the masking constant, and the widget shows that case of
// core.halfPrecisionPitfall (all eight are computed once) as a heat map, with a sentence read
// off its numbers: NaN or even weights in the fully masked rows, right (sums of 1, blocked keys
// exactly zero) or not in the others. A table of all eight cases is folded below.
import type { Core, HalfPrecisionPitfall, PitfallCase } from '../../core';
import { PITFALL_DEMO } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { numberLocale } from '../../common/language';
import { loadPlot } from '../shared/plot-util';
import { HEAT_COLOURS, heatLegend, heatmap, heatmapMessages } from '../shared/heatmap';
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

/** The choices, as the core names them. */
const PRECISIONS = ['float16', 'float32'] as const;
const CONSTANTS = ['-1e30', '-1e9', '-1e4', 'lowest'] as const;
/** How close to 1/n a weight computed in half precision must be to count as even. */
const EVEN_TOLERANCE = 2e-3;

/** What the core's numbers say about one case (the sentence and the data-* attributes come from it). */
export interface PitfallReading {
  /** the fully masked rows: every weight NaN, every weight 1/n, or neither */
  maskedRows: 'nan' | 'uniform' | 'other';
  /** the other rows: right when each sums to 1 and gives every blocked key exactly 0 */
  otherRows: 'right' | 'wrong';
  /** the largest weight on a blocked key of the other rows (0 when right) */
  maxBlocked: number;
}

/** Reads one case of `half`: see PitfallReading. */
export function readPitfallCase(half: HalfPrecisionPitfall, c: PitfallCase): PitfallReading {
  const n = half.positions;
  const masked = new Set(Array.from(half.fullyMaskedRows));
  const maskedWeights: number[] = [];
  let maxBlocked = 0,
    sumsRight = true;
  for (let i = 0; i < n; i++) {
    const row = Array.from({ length: n }, (_, j) => c.weights[i * n + j]);
    if (masked.has(i)) {
      maskedWeights.push(...row);
      continue;
    }
    if (!(Math.abs(c.rowSums[i] - 1) < EVEN_TOLERANCE)) sumsRight = false;
    row.forEach((w, j) => {
      if (half.allowed[i * n + j] === 0) maxBlocked = Number.isNaN(w) ? NaN : Math.max(maxBlocked, Math.abs(w));
    });
  }
  const maskedRows = maskedWeights.every(Number.isNaN)
    ? 'nan'
    : maskedWeights.every((w) => Math.abs(w - 1 / n) < EVEN_TOLERANCE)
      ? 'uniform'
      : 'other';
  const otherRows = sumsRight && maxBlocked === 0 && c.blockedExactlyZero ? 'right' : 'wrong';
  return { maskedRows, otherRows, maxBlocked };
}
export class PitfallDemo extends AttnElement<typeof PITFALL_DEMO> {
  static readonly contract = PITFALL_DEMO;
  static readonly messages = [pitfallMessages, heatmapMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  /** the core's eight cases, computed once per drawing */
  private half!: HalfPrecisionPitfall;
  /** the reader's choices, and where the chosen case is shown */
  private precision!: HTMLSelectElement;
  private constant!: HTMLSelectElement;
  private result!: HTMLElement;
  private legend!: HTMLElement;
  private map!: HTMLElement;
  /** counts showCase() calls: a map drawn for an older choice is dropped */
  private shown = 0;

  protected draw(): Promise<void> {
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

    this.half = this.core.halfPrecisionPitfall();
    const half = this.half;
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
          rows: this.rowList(),
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

    this.precision = el(
      'select',
      { name: 'precision' },
      ...PRECISIONS.map((p) => el('option', { value: p, translate: 'no' }, p)),
    );
    this.precision.value = 'float16';
    this.constant = el('select', { name: 'constant' }, ...CONSTANTS.map((c) => el('option', { value: c })));
    this.constant.value = '-1e9';
    this.precision.addEventListener('change', () => void this.showCase());
    this.constant.addEventListener('change', () => void this.showCase());
    this.result = el('div', { class: 'pitfall-result', role: 'status' });
    this.legend = el('div', {});
    this.map = el('div', { class: 'pitfall-map' });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el('div', { class: 'table-scroll' }, sums),
        el(
          'section',
          { class: 'pitfall-try', 'data-demo': 'half-precision-try' },
          el(
            'h3',
            {},
            this.text('tryTitle', {
              positions: half.positions,
              count: half.fullyMaskedRows.length,
              rows: this.rowList(),
            }),
          ),
          el(
            'div',
            { class: 'attn-controls' },
            el('label', {}, this.text('precision'), this.precision),
            el('label', {}, this.text('constant'), this.constant),
          ),
          this.result,
          this.legend,
          this.map,
        ),
        el(
          'details',
          { class: 'pitfall-all' },
          el('summary', {}, this.text('allCases', { count: half.cases.length })),
          el('div', { class: 'table-scroll' }, cases),
        ),
      ),
    );
    return this.showCase();
  }

  /** The fully masked rows, as a list in the widget's language. */
  private rowList(): string {
    return new Intl.ListFormat(numberLocale(this.messages.language), { type: 'unit', style: 'short' }).format(
      Array.from(this.half.fullyMaskedRows, (r) => this.formatNumber(r)),
    );
  }

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  /** The heat map's colours are the theme's, resolved when drawn. */
  protected themeChanged(): void {
    if (this.half) void this.showCase();
  }

  /** The chosen case: its constant's option texts, the sentence its numbers give, and its heat map. */
  private async showCase(): Promise<void> {
    const half = this.half,
      n = half.positions;
    const locale = numberLocale(this.messages.language);
    const precision = this.precision.value;
    const of = (constant: string) => half.cases.find((c) => c.precision === precision && c.constant === constant);
    for (const option of Array.from(this.constant.options)) {
      const c = of(option.value);
      option.textContent =
        option.value === 'lowest' && c
          ? this.text('lowestOption', { value: fmt(c.requested, locale) })
          : option.value.replace('-', '−');
    }
    const c = of(this.constant.value);
    if (!c) {
      this.result.textContent = this.text('noCase', { precision, constant: this.constant.value });
      return;
    }
    const reading = readPitfallCase(half, c);
    const constant = this.constant.selectedOptions[0]?.textContent ?? c.constant;
    const rows = { count: half.fullyMaskedRows.length, rows: this.rowList() };
    const sentences = [
      c.overflowed
        ? this.text('storedOverflow', { precision, constant })
        : this.text('storedFinite', { precision, constant, stored: fmt(c.stored, locale) }),
      reading.maskedRows === 'nan'
        ? this.text('rowsNan', rows)
        : reading.maskedRows === 'uniform'
          ? this.text('rowsUniform', { ...rows, n, weight: this.formatNumber(1 / n, 4) })
          : this.text('rowsOther', rows),
      reading.otherRows === 'right'
        ? this.text('othersRight')
        : this.text('othersWrong', { weight: fmt(reading.maxBlocked, locale) }),
    ];
    this.result.dataset.maskedRows = reading.maskedRows;
    this.result.dataset.otherRows = reading.otherRows;
    this.result.dataset.precision = c.precision;
    this.result.dataset.constant = c.constant;
    this.result.replaceChildren(
      el('p', {}, el('strong', {}, this.text(`verdict_${reading.maskedRows}`)), ' ', sentences.join(' ')),
    );
    const turn = ++this.shown;
    const colours = this.themeColours(HEAT_COLOURS);
    const host = el('div', {});
    await heatmap(
      host,
      {
        rows: n,
        cols: n,
        weights: c.weights,
        allowed: half.allowed,
        colours,
        label: this.text('heatmapLabel', { precision, constant, n }),
      },
      this.messages,
    );
    const legend = await heatLegend(n, colours, this.messages, true);
    if (turn !== this.shown) return;
    this.legend.replaceChildren(legend);
    this.map.replaceChildren(host);
  }
}

define(PitfallDemo);
