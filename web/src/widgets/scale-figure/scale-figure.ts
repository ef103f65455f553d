// <attn-scale-figure>: largest weight and entropy against d_k, with and without the 1/sqrt(d_k)
// scale, error bars of one standard error, and the uniform bound, from core.scaleSweep().
// A figure of the core's default sweep follows the draws a reader chose for that sweep in a
// ranked table on the same page (sweep-view.ts), so the two show the same measurement.
// Attributes: SCALE_FIGURE in contracts.ts (the core's defaults and ranges).
import type { Core, ScaleSweep } from '../../core';
import { SCALE_FIGURE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import {
  DEFAULT_SWEEP_EVENT,
  defaultSweepDraws,
  scaleSweepPoints,
  sweepOf,
  type SweepPoint,
} from '../shared/sweep-view';
import { downloadCsv, downloadSvg } from '../shared/download';
import { attachPlot, loadPlot, onWidthChange, SERIES_COLOURS, widthFor } from '../shared/plot-util';
import scaleMessages from 'attn-messages:scale-figure';
import { numberLocale } from '../../common/language';
import type { Messages } from '../../common/messages';

/** The two panels: the measure, and the catalog keys of its title and of its download button. */
const PANELS = [
  { measure: 'maxWeight', title: 'titleMaxWeight', download: 'downloadMaxWeight' },
  { measure: 'entropy', title: 'titleEntropy', download: 'downloadEntropy' },
] as const;
const DOT_RADIUS = 3.5;

export class ScaleFigure extends AttnElement<typeof SCALE_FIGURE> {
  static readonly contract = SCALE_FIGURE;
  static readonly messages = [scaleMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  private sweep!: ScaleSweep;
  private svgs: SVGSVGElement[] = [];
  private plotHosts: HTMLElement[] = [];
  private errorNote!: HTMLElement;
  private resize?: ResizeObserver;
  private readonly follow = () => {
    if (this.followsDefaultSweep() && defaultSweepDraws() !== this.sweep?.draws) void this.show();
  };

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  /** Does this figure show the core's default sweep, whose draws a reader may choose elsewhere on the page? */
  private followsDefaultSweep(): boolean {
    return ['dk', 'draws', 'tokens', 'seed'].every((name) => !this.hasAttribute(name));
  }

  protected async draw(): Promise<void> {
    const grid = el('div', { class: 'figure-grid' });
    this.plotHosts = PANELS.map((panel) => {
      const plotHost = el('div', {});
      grid.append(el('div', {}, el('h3', {}, this.text(panel.title)), plotHost));
      return plotHost;
    });
    const legend = el(
      'p',
      { class: 'attn-controls' },
      el(
        'span',
        { class: 'swatch-unscaled' },
        this.text('legendUnscaled'),
        ' ',
        el('span', { dir: 'ltr', translate: 'no' }, 'softmax(QKᵀ)'),
      ),
      el(
        'span',
        { class: 'swatch-scaled' },
        this.text('legendScaled'),
        ' ',
        el('span', { dir: 'ltr', translate: 'no' }, 'softmax(QKᵀ/√d_k)'),
      ),
    );
    this.errorNote = el('p', { class: 'figure-note', 'data-note': 'error-bars' });
    const csv = el('button', { type: 'button' }, this.text('downloadCsv'));
    csv.addEventListener('click', () =>
      downloadCsv(
        'scale-sweep.csv',
        ['d_k', 'scaling', 'measure', 'mean', 'standard_error'],
        scaleSweepPoints(this.sweep).map((p) => [p.dk, p.scaling, p.measure, p.mean, p.se]),
      ),
    );
    const svgButtons = PANELS.map((panel, i) => {
      const b = el('button', { type: 'button' }, this.text(panel.download));
      b.addEventListener('click', () => this.svgs[i] && downloadSvg(`scale-sweep-${panel.measure}.svg`, this.svgs[i]));
      return b;
    });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        grid,
        legend,
        this.errorNote,
        el('div', { class: 'attn-download' }, csv, ...svgButtons),
      ),
    );
    document.addEventListener(DEFAULT_SWEEP_EVENT, this.follow);
    this.resize?.disconnect(); // the previous drawing's
    this.resize = onWidthChange(this.plotHosts[0], () => void this.plot());
    await this.show();
  }

  protected teardown(): void {
    document.removeEventListener(DEFAULT_SWEEP_EVENT, this.follow);
    this.resize?.disconnect();
  }

  /** Measures the sweep (the draws chosen on the page, for the default sweep) and plots it. */
  private async show(): Promise<void> {
    const { dk, draws, tokens, seed } = this.settings;
    const chosen = this.followsDefaultSweep() ? defaultSweepDraws() : undefined;
    this.sweep = sweepOf(this.core, { dks: dk, draws: chosen ?? draws, tokens, seed });
    this.dataset.draws = String(this.sweep.draws);
    await this.plot();
  }

  private async plot(): Promise<void> {
    const sweep = this.sweep;
    const dks = sweep.rows.map((r) => r.dk);
    const Plot = await loadPlot();
    const points = scaleSweepPoints(sweep);
    const locale = numberLocale(this.messages.language);
    const write = (v: number, digits?: number) => this.formatNumber(v, digits);
    const bounds = {
      maxWeight: { value: sweep.uniform.maxWeight, label: this.text('boundMaxWeight', { tokens: sweep.tokens }) },
      entropy: { value: sweep.uniform.entropy, label: this.text('boundEntropy', { tokens: sweep.tokens }) },
    };
    // y ticks as the locale writes them, with no more decimals than the ticks need.
    const yTicks = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    this.svgs = [];
    PANELS.forEach((panel, i) => {
      const data = points.filter((p) => p.measure === panel.measure);
      const bound = bounds[panel.measure];
      const title = this.text(panel.title);
      const figure = Plot.plot({
        className: 'attn-plot',
        width: widthFor(this.plotHosts[i], 340),
        height: 260,
        marginLeft: 44,
        marginTop: 30, // the y label above the top tick label (Firefox's fonts made them touch at 20)
        marginBottom: 44, // the axis label below the tick labels (it would cover the last one), its descenders inside
        x: {
          type: 'log',
          base: 2,
          label: 'd_k',
          labelOffset: 36,
          ticks: dks,
          tickFormat: (v: number) => write(v),
        },
        y: {
          label: title,
          tickFormat: (v: number) => yTicks.format(v),
          domain: panel.measure === 'maxWeight' ? [0, 1] : [0, sweep.uniform.entropy * 1.08],
          grid: true,
        },
        color: { domain: ['unscaled', 'scaled'], range: SERIES_COLOURS, legend: false },
        marks: [
          Plot.ruleY([bound.value], { stroke: 'currentColor', strokeDasharray: '4 3', strokeOpacity: 0.6 }),
          Plot.text([bound.value], {
            x: dks[0],
            y: (d: number) => d,
            text: () => bound.label,
            dy: -8,
            textAnchor: 'start',
            fill: 'currentColor',
          }),
          Plot.ruleX(data, {
            x: 'dk',
            y1: (d) => d.mean - d.se,
            y2: (d) => d.mean + d.se,
            stroke: 'scaling',
            strokeWidth: 2,
          }),
          Plot.line(data, { x: 'dk', y: 'mean', stroke: 'scaling', strokeWidth: 2 }),
          Plot.dot(data, {
            x: 'dk',
            y: 'mean',
            fill: 'scaling',
            r: DOT_RADIUS,
            title: (d) =>
              this.text(d.scaling === 'scaled' ? 'pointTitleScaled' : 'pointTitleUnscaled', {
                dk: write(d.dk),
                mean: write(d.mean, 4),
                se: write(d.se, 4),
              }),
          }),
        ],
      });
      const svg = attachPlot(this.plotHosts[i], figure);
      if (!svg) return;
      svg.setAttribute('role', 'img');
      svg.setAttribute('dir', 'ltr');
      svg.setAttribute(
        'aria-label',
        this.text('plotLabel', {
          title,
          points: data
            .map((d) =>
              this.text(d.scaling === 'scaled' ? 'plotPointScaled' : 'plotPointUnscaled', {
                dk: write(d.dk),
                mean: write(d.mean, 3),
              }),
            )
            .join(this.text('listSeparator')),
        }),
      );
      this.svgs[i] = svg;
    });
    this.errorNote.textContent = errorBarNote(points, sweep.draws, this.messages, write);
  }
}

/** What the error bars show, with the largest standard error per measure (they are often shorter than a dot). */
function errorBarNote(
  points: SweepPoint[],
  draws: number,
  messages: Messages,
  write: (v: number, digits?: number) => string,
): string {
  const largest = (measure: SweepPoint['measure']) =>
    write(Math.max(...points.filter((p) => p.measure === measure).map((p) => p.se)), 4);
  return messages.text('errorBars', { draws, maxWeight: largest('maxWeight'), entropy: largest('entropy') });
}

define(ScaleFigure);
