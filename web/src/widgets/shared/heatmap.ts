// A weight matrix as a heat map (Observable Plot cells), shared by the mask and heads figures.
// A cell's weight is the opacity of one colour over the panel, so in either theme more weight
// means a fuller colour and a weight near 0 nearly the background. Blocked cells are grey; NaN
// cells are marked; every cell has a tooltip.
import { loadPlot, attachPlot } from './plot-util';
import { el } from '../element/base';

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

export async function heatmap(host: Element, input: HeatmapInput): Promise<SVGSVGElement | null> {
  const Plot = await loadPlot();
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
    },
    y: { label: null, tickSize: 0, ticks: everyFew(input.rows, (size - 36) / input.rows, 15) },
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
        title: (c) => `query ${c.query}, key ${c.key}: ${c.w.toFixed(4)}`,
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
  host.append(weightsTable(input));
  return svg;
}

/** Positions 0..n-1 to label on an axis whose cells are `cell` pixels apart, each label needing `label` pixels (12 px text and a gap). */
function everyFew(n: number, cell: number, label: number): number[] {
  const step = Math.ceil(label / cell);
  return Array.from({ length: n }, (_, i) => i).filter((i) => i % step === 0);
}

/** The same weights as a table, folded away: what a screen reader (or anyone) can read cell by cell. */
function weightsTable(input: HeatmapInput): HTMLElement {
  const keys = Array.from({ length: input.cols }, (_, j) => el('th', { scope: 'col' }, `key ${j}`));
  const rows = Array.from({ length: input.rows }, (_, i) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, `query ${i}`),
      ...Array.from({ length: input.cols }, (_, j) => {
        const k = i * input.cols + j,
          w = input.weights[k];
        const blocked = input.allowed ? input.allowed[k] === 0 : false;
        return el(
          'td',
          blocked ? { 'data-blocked': '' } : {},
          blocked ? 'blocked' : Number.isFinite(w) ? w.toFixed(3) : 'NaN',
        );
      }),
    ),
  );
  return el(
    'details',
    { class: 'weights-table' },
    el('summary', {}, 'Weights as a table', el('span', { class: 'visually-hidden' }, `: ${input.label}`)),
    // Focusable, so keyboard users can scroll a table wider than its panel.
    el(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `${input.label} (table)` },
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
