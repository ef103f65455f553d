// <attn-heads-figure>: one seeded input through a 64-wide layer as 4 heads of 16 and as 1 head
// of 64 (core.headsDemo): equal parameter counts, and each head's attention weights as a
// heat map, four different lookups from the same tokens.
// Attributes: HEADS_FIGURE in contracts.ts (the core's defaults and ranges).
import type { Core } from '../../core';
import { HEADS_FIGURE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { loadPlot } from '../shared/plot-util';
import { heatmap } from '../shared/heatmap';
import { combineSvgs, downloadCsv, downloadSvg } from '../shared/download';

export class HeadsFigure extends AttnElement<typeof HEADS_FIGURE> {
  static readonly contract = HEADS_FIGURE;
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  /** The heat maps' colour is the theme's accent, resolved when drawn. */
  protected themeChanged(): void {
    void this.draw();
  }

  protected async draw(): Promise<void> {
    const { 'd-model': dModel, heads: numHeads, tokens, seed } = this.settings;
    const demo = this.core.headsDemo({ dModel, numHeads, tokens, seed });
    const t = demo.tokens;
    // Untrained heads are close to uniform: shade up to the largest weight shown, so their
    // differences are visible (the same scale for every panel).
    const max = Math.max(...[...demo.multi.weights, ...demo.single.weights].flatMap((w) => Array.from(w)));
    const colour = this.themeColours(['--attn-accent'])['--attn-accent'];
    const svgs: SVGSVGElement[] = [];
    const panel = async (title: string, weights: ArrayLike<number>) => {
      const host = el('div', {});
      const svg = await heatmap(host, {
        rows: t,
        cols: t,
        weights,
        max,
        colour,
        label: `${title}: attention weights of ${t} tokens`,
        size: 150,
      });
      if (svg) svgs.push(svg);
      return el('div', {}, el('h3', {}, title), host);
    };
    const heads = await Promise.all(
      demo.multi.weights.map((w, h) => panel(`Head ${h + 1} of ${demo.multi.numHeads}`, w)),
    );
    const csv = el('button', { type: 'button' }, 'Download CSV');
    csv.addEventListener('click', () => {
      const layers = [
        ...demo.multi.weights.map((w, h) => [`${demo.multi.numHeads} heads: head ${h + 1}`, w] as const),
        [`1 head`, demo.single.weights[0]] as const,
      ];
      downloadCsv(
        'heads.csv',
        ['layer', 'query', 'key', 'weight'],
        layers.flatMap(([name, w]) => Array.from(w, (v, i) => [name, Math.floor(i / t), i % t, v])),
      );
    });
    const svg = el('button', { type: 'button' }, 'Download SVG');
    svg.addEventListener('click', () => downloadSvg('heads.svg', combineSvgs(svgs, 5)));
    const single = await panel(`1 head of ${demo.dModel}`, demo.single.weights[0]);
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el(
          'p',
          {},
          `${demo.multi.numHeads} heads of ${demo.multi.keyDim}: `,
          el('strong', { 'data-count': 'multi' }, demo.multi.parameterCount.toLocaleString('en-US')),
          ` parameters; 1 head of ${demo.dModel}: `,
          el('strong', { 'data-count': 'single' }, demo.single.parameterCount.toLocaleString('en-US')),
          ` parameters. These heads are untrained, so their attention is close to even and which key each ranks first is noise (they rank different keys first on ${demo.queriesWithDifferingArgmax} of ${t} queries). Fullest colour: ${max.toFixed(3)}, the largest weight shown.`,
        ),
        el('div', { class: 'mask-grid' }, ...heads, single),
        el('div', { class: 'attn-download' }, csv, svg),
      ),
    );
  }
}

define(HeadsFigure);
