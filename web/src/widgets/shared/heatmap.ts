// A weight matrix as a heat map (Observable Plot cells), shared by the mask and heads figures.
// A cell's weight is the opacity of one colour over the panel, so in either theme more weight
// means a fuller colour and a weight near 0 nearly the background. Blocked cells are grey; NaN
// cells are marked; every cell has a tooltip. What it says comes from the heatmap catalog (a
// widget showing heat maps lists it in its messages and passes its Messages); the map itself and
// its table are left to right in every language.
import { loadPlot, attachPlot } from './plot-util';
import { el } from '../element/base';
import { numberLocale } from '../../common/language';
import { formatLocaleNumber } from '../../common/locale-numbers';
import type { Messages } from '../../common/messages';
export { default as heatmapMessages } from 'attn-messages:heatmap';

export interface HeatmapInput {
  rows: number;
  cols: number;
  weights: ArrayLike<number>; // (rows, cols) row-major
  allowed?: ArrayLike<number>; // (rows, cols), 1 = may attend; omitted: all allowed
  label: string; // for screen readers
  size?: number; // pixels, square
  max?: number; // the weight drawn in the full colour (default 1); figures of near-uniform weights lower it
  colour: string; // the full colour (a resolved CSS colour: the widget's accent in its theme)
}

/** How opaque an open cell of weight w is: faint at 0 (so it differs from a blocked cell), full at max. */
const OPACITY_FLOOR = 0.06;

export async function heatmap(host: Element, input: HeatmapInput, messages: Messages): Promise<SVGSVGElement | null> {
  const Plot = await loadPlot();
  const locale = numberLocale(messages.language);
  const write = (v: number, digits?: number) => formatLocaleNumber(v, locale, digits);
  const cells = Array.from({ length: input.rows * input.cols }, (_, i) => ({
    query: Math.floor(i / input.cols),
    key: i % input.cols,
    w: input.weights[i],
    blocked: input.allowed ? input.allowed[i] === 0 : false,
  }));
  const size = input.size ?? 180;
  const open = cells.filter((c) => !c.blocked && Number.isFinite(c.w));
  const figure = Plot.plot({
    className: 'attn-plot',
    width: size,
    height: size,
    margin: 18,
    marginTop: 24, // room for the 12 px column labels
    marginLeft: 22,
    x: {
      axis: 'top',
      label: null,
      tickSize: 0,
      ticks: everyFew(input.cols, (size - 40) / input.cols, 8 * String(input.cols - 1).length + 4),
      tickFormat: (v: number) => write(v),
    },
    y: {
      label: null,
      tickSize: 0,
      ticks: everyFew(input.rows, (size - 36) / input.rows, 15),
      tickFormat: (v: number) => write(v),
    },
    marks: [
      Plot.cell(
        cells.filter((c) => c.blocked),
        { x: 'key', y: 'query', fill: '#8a8f98', fillOpacity: 0.35, inset: 0.5 },
      ),
      Plot.cell(open, {
        x: 'key',
        y: 'query',
        fill: input.colour,
        inset: 0.5,
        title: (c) => messages.text('cellTitle', { query: c.query, key: c.key, weight: write(c.w, 4) }),
        fillOpacity: (c) => OPACITY_FLOOR + (1 - OPACITY_FLOOR) * Math.min(1, Math.max(0, c.w / (input.max ?? 1))),
      }),
      Plot.cell(
        cells.filter((c) => !Number.isFinite(c.w)),
        { x: 'key', y: 'query', fill: '#d62828', inset: 0.5, title: () => 'NaN' },
      ),
    ],
  });
  const svg = attachPlot(host, figure);
  svg?.setAttribute('role', 'img');
  svg?.setAttribute('aria-label', input.label);
  svg?.setAttribute('dir', 'ltr');
  host.append(weightsTable(input, messages, write));
  return svg;
}

/** Positions 0..n-1 to label on an axis whose cells are `cell` pixels apart, each label needing `label` pixels (12 px text and a gap). */
function everyFew(n: number, cell: number, label: number): number[] {
  const step = Math.ceil(label / cell);
  return Array.from({ length: n }, (_, i) => i).filter((i) => i % step === 0);
}

/** The same weights as a table, folded away: what a screen reader (or anyone) can read cell by cell. */
function weightsTable(
  input: HeatmapInput,
  messages: Messages,
  write: (v: number, digits?: number) => string,
): HTMLElement {
  const keys = Array.from({ length: input.cols }, (_, j) =>
    el('th', { scope: 'col' }, messages.text('key', { key: j })),
  );
  const rows = Array.from({ length: input.rows }, (_, i) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, messages.text('query', { query: i })),
      ...Array.from({ length: input.cols }, (_, j) => {
        const k = i * input.cols + j,
          w = input.weights[k];
        const blocked = input.allowed ? input.allowed[k] === 0 : false;
        return el(
          'td',
          blocked ? { 'data-blocked': '' } : {},
          blocked ? messages.text('blocked') : Number.isFinite(w) ? write(w, 3) : 'NaN',
        );
      }),
    ),
  );
  return el(
    'details',
    { class: 'weights-table' },
    // The summary follows the page's direction; the table below it does not.
    el(
      'summary',
      {},
      messages.text('asTable'),
      el('span', { class: 'visually-hidden' }, messages.text('labelSuffix', { label: input.label })),
    ),
    // Focusable, so keyboard users can scroll a table wider than its panel.
    el(
      'div',
      {
        class: 'table-scroll',
        dir: 'ltr',
        tabindex: '0',
        role: 'region',
        'aria-label': messages.text('tableLabel', { label: input.label }),
      },
      el(
        'table',
        { class: 'ranked' },
        el('caption', { class: 'visually-hidden' }, input.label),
        el('thead', {}, el('tr', {}, el('td', {}), ...keys)),
        el('tbody', {}, ...rows),
      ),
    ),
  );
}
