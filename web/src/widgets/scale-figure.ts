// <attn-scale-figure>: largest weight and entropy against d_k, with and without the 1/sqrt(d_k)
// scale, error bars of one standard error, and the uniform bound, from core.scaleSweep().
// Attributes: SCALE_FIGURE in contracts.ts (the core's defaults and ranges).
import type { ScaleSweep } from '../core';
import { SCALE_FIGURE } from './contracts';
import { AttnElement, define, el } from './base';
import { scaleSweepPoints, sweepOf } from './sweep-view';
import { downloadCsv, downloadSvg } from './download';
import { attachPlot, loadPlot, SERIES_COLOURS } from './plot-util';

export class ScaleFigure extends AttnElement<typeof SCALE_FIGURE> {
  static readonly contract = SCALE_FIGURE;

  private sweep!: ScaleSweep;

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  protected async draw(): Promise<void> {
    const { dk, draws, tokens, seed } = this.settings;
    this.sweep = sweepOf(this.core, { dks: dk, draws, tokens, seed });
    const dks = this.sweep.rows.map((r) => r.dk);
    const Plot = await loadPlot();
    const points = scaleSweepPoints(this.sweep);
    const panels = [
      { measure: 'maxWeight', title: 'Largest weight', bound: this.sweep.uniform.maxWeight, boundLabel: `uniform 1/${this.sweep.tokens}` },
      { measure: 'entropy', title: 'Entropy (nats)', bound: this.sweep.uniform.entropy, boundLabel: `uniform log ${this.sweep.tokens}` },
    ] as const;
    const svgs: SVGSVGElement[] = [];
    const grid = el('div', { class: 'figure-grid' });
    for (const panel of panels) {
      const data = points.filter((p) => p.measure === panel.measure);
      const figure = Plot.plot({
        className: 'attn-plot',
        width: 340,
        height: 240,
        marginLeft: 44,
        x: { type: 'log', base: 2, label: 'd_k', ticks: dks },
        y: { label: panel.title, domain: panel.measure === 'maxWeight' ? [0, 1] : [0, this.sweep.uniform.entropy * 1.08], grid: true },
        color: { domain: ['unscaled', 'scaled'], range: SERIES_COLOURS, legend: false },
        marks: [
          Plot.ruleY([panel.bound], { stroke: 'currentColor', strokeDasharray: '4 3', strokeOpacity: 0.6 }),
          Plot.text([panel.bound], { x: dks[0], y: (d: number) => d, text: () => panel.boundLabel, dy: -6, textAnchor: 'start', fill: 'currentColor' }),
          Plot.ruleX(data, { x: 'dk', y1: (d) => d.mean - d.se, y2: (d) => d.mean + d.se, stroke: 'scaling', strokeWidth: 2 }),
          Plot.line(data, { x: 'dk', y: 'mean', stroke: 'scaling', strokeWidth: 2 }),
          Plot.dot(data, { x: 'dk', y: 'mean', fill: 'scaling', r: 3.5, title: (d) => `${d.scaling}, d_k = ${d.dk}: ${d.mean.toFixed(4)} ± ${d.se.toFixed(4)}` }),
        ],
      });
      const host = el('div', {}, el('h3', {}, panel.title));
      const plotHost = el('div', {});
      host.append(plotHost);
      const svg = attachPlot(plotHost, figure);
      if (svg) {
        svg.setAttribute('role', 'img');
        svg.setAttribute('aria-label', `${panel.title} against d_k: ` + data.map((d) => `${d.scaling} ${d.dk}: ${d.mean.toFixed(3)}`).join(', '));
        svgs.push(svg);
      }
      grid.append(host);
    }
    const legend = el('p', { class: 'attn-controls' }, el('span', { class: 'swatch-unscaled' }, 'unscaled, softmax(QKᵀ)'), el('span', { class: 'swatch-scaled' }, 'scaled, softmax(QKᵀ/√d_k)'));
    const csv = el('button', { type: 'button' }, 'Download CSV');
    csv.addEventListener('click', () => downloadCsv('scale-sweep.csv', ['d_k', 'scaling', 'measure', 'mean', 'standard_error'], points.map((p) => [p.dk, p.scaling, p.measure, p.mean, p.se])));
    const svgButtons = svgs.map((svg, i) => {
      const b = el('button', { type: 'button' }, `Download ${panels[i].title.toLowerCase()} (SVG)`);
      b.addEventListener('click', () => downloadSvg(`scale-sweep-${panels[i].measure}.svg`, svg));
      return b;
    });
    this.replaceChildren(el('div', { class: 'attn-panel' }, grid, legend, el('div', { class: 'attn-download' }, csv, ...svgButtons)));
  }
}

define('attn-scale-figure', ScaleFigure);
