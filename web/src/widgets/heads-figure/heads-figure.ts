// <attn-heads-figure>: one seeded input through a 64-wide layer as 4 heads of 16 and as 1 head
// of 64 (core.headsDemo): equal parameter counts, and each head's attention weights as a
// heat map on the fixed 0-1 scale, four different lookups from the same tokens, each close to
// even (the scale marks even attention).
// Attributes: HEADS_FIGURE in contracts.ts (the core's defaults and ranges).
import type { Core } from '../../core';
import { HEADS_FIGURE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { loadPlot } from '../shared/plot-util';
import { HEAT_COLOURS, heatLegend, heatmap, heatmapMessages } from '../shared/heatmap';
import headsMessages from 'attn-messages:heads-figure';
import { combineSvgs, downloadCsv, downloadSvg } from '../shared/download';

export class HeadsFigure extends AttnElement<typeof HEADS_FIGURE> {
  static readonly contract = HEADS_FIGURE;
  static readonly messages = [headsMessages, heatmapMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  /** The heat maps' colours are the theme's, resolved when drawn. */
  protected themeChanged(): void {
    void this.draw();
  }

  protected async draw(): Promise<void> {
    const { 'd-model': dModel, heads: numHeads, tokens, seed } = this.settings;
    const demo = this.core.headsDemo({ dModel, numHeads, tokens, seed });
    const t = demo.tokens;
    // The largest weight shown, which the text names (the colours keep the fixed 0-1 scale).
    const max = Math.max(...[...demo.multi.weights, ...demo.single.weights].flatMap((w) => Array.from(w)));
    const colours = this.themeColours(HEAT_COLOURS);
    const svgs: SVGSVGElement[] = [];
    const panel = async (title: string, weights: ArrayLike<number>) => {
      const host = el('div', {});
      const svg = await heatmap(
        host,
        { rows: t, cols: t, weights, colours, label: this.text('heatmapLabel', { title, tokens: t }), size: 150 },
        this.messages,
      );
      if (svg) svgs.push(svg);
      return el('div', {}, el('h3', {}, title), host);
    };
    const heads = await Promise.all(
      demo.multi.weights.map((w, h) => panel(this.text('headOf', { head: h + 1, heads: demo.multi.numHeads }), w)),
    );
    const csv = el('button', { type: 'button' }, this.text('downloadCsv'));
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
    const svg = el('button', { type: 'button' }, this.text('downloadSvg'));
    svg.addEventListener('click', () => downloadSvg('heads.svg', combineSvgs(svgs, 5)));
    const single = await panel(this.text('singleHead', { width: demo.dModel }), demo.single.weights[0]);
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el(
          'p',
          {},
          ...withStrong(
            this.text('counts', {
              heads: demo.multi.numHeads,
              keyDim: demo.multi.keyDim,
              width: demo.dModel,
              multi: MARK_MULTI,
              single: MARK_SINGLE,
            }),
            {
              [MARK_MULTI]: el('strong', { 'data-count': 'multi' }, this.formatNumber(demo.multi.parameterCount)),
              [MARK_SINGLE]: el('strong', { 'data-count': 'single' }, this.formatNumber(demo.single.parameterCount)),
            },
          ),
          ' ',
          this.text('untrained', {
            differing: demo.queriesWithDifferingArgmax,
            tokens: t,
            max: this.formatNumber(max, 3),
            even: this.formatNumber(1 / t, 3),
          }),
        ),
        await heatLegend(t, colours, this.messages, false),
        el('div', { class: 'mask-grid' }, ...heads, single),
        el('div', { class: 'attn-download' }, csv, svg),
      ),
    );
  }
}

// Stand-ins for the bold counts inside the counts message, replaced by their elements.
const MARK_MULTI = '\u{E000}';
const MARK_SINGLE = '\u{E001}';

/** A message's text split at its stand-ins, each replaced by its element. */
function withStrong(text: string, nodes: Record<string, HTMLElement>): (string | HTMLElement)[] {
  return text
    .split(/([\u{E000}\u{E001}])/u)
    .filter((part) => part !== '')
    .map((part) => nodes[part] ?? part);
}

define(HeadsFigure);
