// A weight matrix as a heat map (Observable Plot cells), shared by the mask, heads and pitfall
// figures. Weights are coloured on one fixed 0-1 scale, so the same weight looks the same in
// every map and near-even attention looks near-even: a square-root ramp (small weights still
// differ from none) from the panel through the accent to the text colour, in Lab, so that in
// either theme more weight means more contrast with the panel. Blocked cells are hatched (a
// pattern over the weight's colour, not a colour that could read as a weight); NaN cells are
// marked; every cell has a
// tooltip. heatLegend() draws the scale once per figure with uniform attention (1/n) marked.
// What it says comes from the heatmap catalog (a widget showing heat maps lists it in its
// messages and passes its Messages); the map itself and its table are left to right in every
// language.
import { loadPlot, attachPlot, type PlotModule } from './plot-util';
import { el } from '../element/base';
import { numberLocale } from '../../common/language';
import { formatLocaleNumber } from '../../common/locale-numbers';
import type { Messages } from '../../common/messages';
export { default as heatmapMessages } from 'attn-messages:heatmap';

/** The theme colours a heat map is drawn in; a widget resolves them (themeColours) when it draws. */
export const HEAT_COLOURS = ['--attn-panel', '--attn-accent', '--attn-fg', '--attn-muted'] as const;
export type HeatColours = Record<(typeof HEAT_COLOURS)[number], string>;

export interface HeatmapInput {
  rows: number;
  cols: number;
  weights: ArrayLike<number>; // (rows, cols) row-major
  allowed?: ArrayLike<number>; // (rows, cols), 1 = may attend; omitted: all allowed
  label: string; // for screen readers
  size?: number; // pixels, square, at least (grown so that every cell is MIN_CELL wide)
  colours: HeatColours;
}

/** The narrowest cell drawn, in pixels: readable (and a target) on a phone. */
export const MIN_CELL = 16;
/** The plot's margins around the cells: left + right, top + bottom. */
const MARGIN_X = 40,
  MARGIN_Y = 42;

/** The colour of weight w (0..1, clamped) on the fixed scale, in the theme of `colours`. */
export async function weightColour(colours: HeatColours): Promise<(w: number) => string> {
  const scale = rampOf(await loadPlot(), colours);
  return (w) => String(scale.apply(Math.min(1, Math.max(0, w))));
}

function rampOf(Plot: PlotModule, colours: HeatColours) {
  return Plot.scale({
    color: {
      type: 'sqrt',
      domain: [0, 1],
      range: [colours['--attn-panel'], colours['--attn-accent'], colours['--attn-fg']],
      interpolate: 'lab',
    },
  });
}

let patterns = 0;

/** Draws the map into `host` (with its table of weights folded below); resolves to its svg. */
export async function heatmap(host: Element, input: HeatmapInput, messages: Messages): Promise<SVGSVGElement | null> {
  const Plot = await loadPlot();
  const colour = rampOf(Plot, input.colours);
  const locale = numberLocale(messages.language);
  const write = (v: number, digits?: number) => formatLocaleNumber(v, locale, digits);
  const cells = Array.from({ length: input.rows * input.cols }, (_, i) => ({
    query: Math.floor(i / input.cols),
    key: i % input.cols,
    w: input.weights[i],
    blocked: input.allowed ? input.allowed[i] === 0 : false,
  }));
  const size = Math.max(input.size ?? 180, MIN_CELL * input.cols + MARGIN_X, MIN_CELL * input.rows + MARGIN_Y);
  const hatch = `attn-hatch-${++patterns}`;
  const finite = cells.filter((c) => Number.isFinite(c.w));
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
      padding: 0, // cells a whole band wide (their inset leaves the gap)
      tickSize: 0,
      ticks: everyFew(input.cols, (size - MARGIN_X) / input.cols, 8 * String(input.cols - 1).length + 4),
      tickFormat: (v: number) => write(v),
    },
    y: {
      label: null,
      padding: 0,
      tickSize: 0,
      ticks: everyFew(input.rows, (size - MARGIN_Y) / input.rows, 15),
      tickFormat: (v: number) => write(v),
    },
    marks: [
      // Every finite weight in its colour, blocked or not: a blocked pair's weight is 0 (the
      // panel's colour) unless the arithmetic went wrong or the whole row is blocked.
      Plot.cell(finite, {
        x: 'key',
        y: 'query',
        fill: (c) => String(colour.apply(Math.min(1, Math.max(0, c.w)))),
        inset: 0.5,
        title: (c) =>
          messages.text(c.blocked ? 'cellBlocked' : 'cellTitle', { query: c.query, key: c.key, weight: write(c.w, 4) }),
      }),
      // Blocked pairs hatched over their colour.
      Plot.cell(
        cells.filter((c) => c.blocked && Number.isFinite(c.w)),
        { x: 'key', y: 'query', fill: `url(#${hatch})`, inset: 0.5 },
      ),
      // NaN, blocked or not: a mark of its own, unlike any weight.
      Plot.cell(
        cells.filter((c) => !Number.isFinite(c.w)),
        {
          x: 'key',
          y: 'query',
          fill: '#d62828',
          inset: 0.5,
          title: (c) => messages.text('cellTitle', { query: c.query, key: c.key, weight: 'NaN' }),
        },
      ),
      Plot.text(
        cells.filter((c) => !Number.isFinite(c.w)),
        { x: 'key', y: 'query', text: () => '!', fill: 'white', fontWeight: 700 },
      ),
    ],
  });
  const svg = attachPlot(host, figure);
  svg?.prepend(hatchPattern(hatch, input.colours));
  svg?.setAttribute('role', 'img');
  svg?.setAttribute('aria-label', input.label);
  svg?.setAttribute('dir', 'ltr');
  host.append(weightsTable(input, messages, write));
  return svg;
}

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(name: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Diagonal lines in the muted text colour, over whatever is below: blocked, in either theme, and unlike any weight. */
function hatchPattern(id: string, colours: HeatColours): SVGElement {
  const pattern = svgEl('pattern', {
    id,
    width: 6,
    height: 6,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
    'data-hatch': '',
  });
  pattern.append(svgEl('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: colours['--attn-muted'], 'stroke-width': 2.5 }));
  const defs = svgEl('defs', {});
  defs.append(pattern);
  return defs;
}

/**
 * The scale of every heat map of a figure: the ramp from 0 to 1 (square-root spaced, as the
 * colours are), uniform attention over `n` keys marked with its weight, and the blocked hatch
 * when `blocked`.
 */
export async function heatLegend(
  n: number,
  colours: HeatColours,
  messages: Messages,
  blocked: boolean,
): Promise<HTMLElement> {
  const colour = await weightColour(colours);
  const locale = numberLocale(messages.language);
  const write = (v: number, digits?: number) => formatLocaleNumber(v, locale, digits);
  const width = 220,
    bar = 14,
    top = 4;
  const x = (w: number) => 8 + (width - 16) * Math.sqrt(w);
  const id = `attn-ramp-${++patterns}`;
  const gradient = svgEl('linearGradient', { id, x1: 0, x2: 1, y1: 0, y2: 0 });
  for (let i = 0; i <= 10; i++) gradient.append(svgEl('stop', { offset: i / 10, 'stop-color': colour((i / 10) ** 2) }));
  const defs = svgEl('defs', {});
  defs.append(gradient);
  const ramp = svgEl('svg', {
    width,
    height: top + bar + 16,
    viewBox: `0 0 ${width} ${top + bar + 16}`,
    'aria-hidden': 'true',
    class: 'heat-ramp',
  });
  ramp.append(defs, svgEl('rect', { x: x(0), y: top, width: x(1) - x(0), height: bar, fill: `url(#${id})` }));
  for (const w of [0, 0.25, 1]) {
    const label = svgEl('text', {
      x: x(w),
      y: top + bar + 13,
      'text-anchor': w === 0 ? 'start' : w === 1 ? 'end' : 'middle',
      fill: 'currentColor',
      'font-size': 11,
    });
    label.textContent = write(w);
    ramp.append(label);
  }
  const uniform = 1 / n;
  ramp.append(
    svgEl('line', {
      x1: x(uniform),
      x2: x(uniform),
      y1: top - 3,
      y2: top + bar + 3,
      stroke: colours['--attn-fg'],
      'stroke-width': 2,
      'data-uniform-mark': '',
    }),
  );
  const swatch = (fill: string, attrs: Record<string, string> = {}) => {
    const s = svgEl('svg', {
      width: 14,
      height: 14,
      viewBox: '0 0 14 14',
      'aria-hidden': 'true',
      class: 'heat-swatch',
    });
    s.append(svgEl('rect', { x: 0.5, y: 0.5, width: 13, height: 13, fill, stroke: colours['--attn-muted'], ...attrs }));
    return s;
  };
  const items: HTMLElement[] = [
    el('span', { class: 'heat-key' }, messages.text('scale'), ' ', ramp),
    el(
      'span',
      { class: 'heat-key', 'data-uniform': String(uniform) },
      swatch(colour(uniform), { 'data-uniform-swatch': '' }),
      ' ',
      messages.text('evenOver', { n, weight: write(uniform, 3) }),
    ),
  ];
  if (blocked) {
    const hatch = `attn-hatch-${++patterns}`;
    const s = swatch(colours['--attn-panel']);
    s.prepend(hatchPattern(hatch, colours));
    s.append(svgEl('rect', { x: 0.5, y: 0.5, width: 13, height: 13, fill: `url(#${hatch})`, 'data-hatch-swatch': '' }));
    items.push(el('span', { class: 'heat-key' }, s, ' ', messages.text('blocked')));
  }
  return el('p', { class: 'heat-legend' }, ...items);
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
          !Number.isFinite(w)
            ? 'NaN'
            : !blocked
              ? write(w, 3)
              : w === 0
                ? messages.text('blocked')
                : messages.text('blockedWeight', { weight: write(w, 3) }),
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
