// <attn-mask-figure>: the causal, padding and combined masks applied to one seeded score
// matrix by the core (core.maskDemo), drawn as heat maps of the resulting weights (one scale,
// shown once, with even attention over all positions marked) with the share of allowed pairs
// under each. Sequence length and real length are adjustable.
// Attributes and events: MASK_FIGURE in contracts.ts (the core's defaults and ranges).
import type { Core, MaskDemo } from '../../core';
import { acceptedField, attributeSpec } from '../element/contract';
import { MASK_FIGURE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { loadPlot } from '../shared/plot-util';
import { combineSvgs, downloadCsv, downloadSvg } from '../shared/download';
import { HEAT_COLOURS, heatLegend, heatmap, heatmapMessages } from '../shared/heatmap';
import maskMessages from 'attn-messages:mask-figure';
import { numberLocale } from '../../common/language';

/** Each mask's name in the catalog. */
const LABELS: Record<string, string> = { causal: 'maskCausal', padding: 'maskPadding', both: 'maskBoth' };

export class MaskFigure extends AttnElement<typeof MASK_FIGURE> {
  static readonly contract = MASK_FIGURE;
  static readonly messages = [maskMessages, heatmapMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  private shownPositions = 0;
  private shownReal = 0;
  private grid!: HTMLElement;
  private legend!: HTMLElement;
  private panels: SVGSVGElement[] = [];
  /** counts drawPanels() calls: maps made before a later call (an edit or a theme's redraw) are dropped */
  private drawings = 0;
  /** counts the reader's edits: only the latest one says attn-change, once its lengths are drawn */
  private edits = 0;
  private error!: HTMLElement;
  /** the most positions this figure draws */
  private limit = 0;

  /** The locale the widget writes numbers in. */
  private get locale(): string {
    return numberLocale(this.messages.language);
  }

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  protected async draw(): Promise<void> {
    this.shownPositions = this.settings.positions;
    this.shownReal = this.settings.real;
    this.limit = acceptedField(attributeSpec(MASK_FIGURE, 'positions'), this.core.configs).max;
    const n = el('input', {
      type: 'number',
      min: '1',
      max: String(this.limit),
      step: '1',
      value: String(this.shownPositions),
    });
    const real = el('input', {
      type: 'number',
      min: '1',
      max: String(this.limit),
      step: '1',
      value: String(this.shownReal),
    });
    this.error = el('p', { class: 'attn-error', role: 'alert' });
    const apply = () => this.update(n.value, real.value);
    n.addEventListener('change', apply);
    real.addEventListener('change', apply);
    this.grid = el('div', { class: 'mask-grid' });
    this.legend = el('div', {});
    const csv = el('button', { type: 'button' }, this.text('downloadCsv'));
    csv.addEventListener('click', () => this.downloadCsv());
    const svg = el('button', { type: 'button' }, this.text('downloadSvg'));
    svg.addEventListener('click', () => downloadSvg('masks.svg', combineSvgs(this.panels, 3)));
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el(
          'div',
          { class: 'attn-controls' },
          el('label', {}, this.text('positions'), n),
          el('label', {}, this.text('realTokens'), real),
        ),
        this.error,
        this.legend,
        this.grid,
        el('div', { class: 'attn-download' }, csv, svg),
      ),
    );
    await this.update(String(this.shownPositions), String(this.shownReal));
  }

  /** The heat maps' colours are the theme's, resolved when drawn. */
  protected themeChanged(): void {
    void this.drawPanels();
  }

  private async update(nText: string, realText: string): Promise<void> {
    const n = Number(nText),
      real = Number(realText);
    if (!Number.isInteger(n) || n < 1 || n > this.limit)
      return void (this.error.textContent = this.text('positionsRange', {
        max: this.formatNumber(this.limit),
        got: nText.slice(0, 20),
      }));
    if (!Number.isInteger(real) || real < 1 || real > n)
      return void (this.error.textContent = this.text('realRange', {
        max: this.formatNumber(n),
        got: realText.slice(0, 20),
      }));
    this.error.textContent = '';
    this.shownPositions = n;
    this.shownReal = real;
    const edit = ++this.edits;
    const demo = await this.drawPanels();
    // A newer edit says so itself; a theme's redraw of these lengths does not stop this one saying it.
    if (edit !== this.edits) return;
    this.remember({ positions: n, real });
    this.emit('attn-change', {
      positions: n,
      real,
      fractions: Object.fromEntries(demo.cases.map((c) => [c.name, c.allowedFraction])),
    });
  }

  /**
   * The three heat maps of the current lengths, in the theme's colours; resolves to the core's
   * demo. Maps finished after a later call started are dropped: that call shows its own.
   */
  private async drawPanels(): Promise<MaskDemo> {
    const drawing = ++this.drawings;
    const n = this.shownPositions,
      real = this.shownReal;
    const demo = this.core.maskDemo({ positions: n, real, seed: this.settings.seed });
    const colours = this.themeColours(HEAT_COLOURS);
    const svgs: SVGSVGElement[] = [];
    const panels = await Promise.all(
      demo.cases.map(async (c, i) => {
        const plot = el('div', {});
        const name = LABELS[c.name] ? this.text(LABELS[c.name]) : c.name;
        const svg = await heatmap(
          plot,
          {
            rows: n,
            cols: n,
            weights: c.weights,
            allowed: c.allowed,
            colours,
            label: this.text('heatmapLabel', {
              mask: name,
              n,
              percent: new Intl.NumberFormat(this.locale, {
                style: 'percent',
                minimumFractionDigits: 1,
                maximumFractionDigits: 1,
              }).format(c.allowedFraction),
            }),
          },
          this.messages,
        );
        if (svg) svgs[i] = svg;
        return el(
          'div',
          { 'data-mask': c.name },
          el('h3', {}, name),
          plot,
          el('p', {}, this.text('allowed', { fraction: this.formatNumber(c.allowedFraction, 4) })),
          el(
            'p',
            {},
            this.text('largestBlocked', {
              weight:
                c.maxBlockedWeight === 0
                  ? this.formatNumber(0)
                  : new Intl.NumberFormat(this.locale, {
                      notation: 'scientific',
                      minimumFractionDigits: 2,
                      maximumFractionDigits: 2,
                    }).format(c.maxBlockedWeight),
            }),
          ),
        );
      }),
    );
    const legend = await heatLegend(n, colours, this.messages, true);
    if (drawing !== this.drawings) return demo;
    this.panels = svgs;
    this.grid.replaceChildren(...panels);
    this.legend.replaceChildren(legend);
    return demo;
  }

  private downloadCsv(): void {
    const demo = this.core.maskDemo({ positions: this.shownPositions, real: this.shownReal, seed: this.settings.seed });
    const rows: unknown[][] = [];
    for (const c of demo.cases)
      for (let i = 0; i < this.shownPositions * this.shownPositions; i++)
        rows.push([c.name, Math.floor(i / this.shownPositions), i % this.shownPositions, c.allowed[i], c.weights[i]]);
    downloadCsv('masks.csv', ['mask', 'query', 'key', 'allowed', 'weight'], rows);
  }
}

define(MaskFigure);
