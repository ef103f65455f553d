// <attn-flowchart>: a route of the cue task (core/include/attn/cue/intervene.hpp), as a diagram.
// Mermaid draws each route label of the core in a light and a dark theme at build time
// (scripts/render-diagrams.mjs), so the page shows a static SVG image: no Mermaid download and no
// inline styles under a strict CSP. The image follows the route attribute (the lesson sets it to
// the route of the run its trainer shows; without it, the trainer's recorded run's) and the
// widget's colour theme, in the widget's language where the build rendered it in that language
// (English otherwise); the alt text says what the diagram says. Where the wide diagram would
// have to scroll (a phone), the widget shows the route's narrow variant, its boxes in one column.
// Attributes: FLOWCHART in contracts.ts.
import sizes from '../../generated/flowcharts.json';
import type { CueRoute, CueRouteLabel } from '../../core';
import { FLOWCHART } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import flowchartMessages from 'attn-messages:flowchart';
import { onWidthChange } from '../shared/plot-util';

// The recorded 2-block run's route only (importing the whole run would put it into this widget's
// bundle), if this build has it.
const recorded = import.meta.glob<CueRoute>('../../generated/cue-2block.json', { eager: true, import: 'route' });
const recordedRoute = Object.values(recorded)[0] as CueRoute | undefined;
const RECORDED_ROUTE: CueRouteLabel = recordedRoute?.label ?? 'none';

const images = import.meta.glob<string>('../../generated/flowchart-*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
});

/** The smallest size, in CSS pixels, the diagram's smallest text is shown at. */
const MIN_TEXT_PX = 12;

/** The alt text of each route's diagram (the flowchart catalog). */
const DESCRIPTIONS: Record<CueRouteLabel, string> = {
  'cue-position': 'altCuePosition',
  'answer-position': 'altAnswerPosition',
  'cue-broadcast': 'altCueBroadcast',
  other: 'altOther',
  none: 'altNone',
};

/** The narrowest an image may be shown, in CSS px: its smallest text at MIN_TEXT_PX. */
const minWidthOf = (name: keyof typeof sizes) => Math.ceil((sizes[name].width * MIN_TEXT_PX) / sizes[name].fontSize);

export class Flowchart extends AttnElement<typeof FLOWCHART> {
  static readonly contract = FLOWCHART;
  static readonly needsCore = false;
  static readonly messages = [flowchartMessages];
  private image?: HTMLImageElement;
  private box?: HTMLElement;
  private resized?: ResizeObserver;

  protected draw(): void {
    // Not loading="lazy": the widget itself starts only near the viewport, and WebKit does not load
    // a lazy image inside a scrolling box until it is in view, which a theme change may need.
    this.image = el('img', { decoding: 'async' });
    // Focusable, so keyboard users can scroll a diagram wider than a narrow screen.
    this.box = el(
      'div',
      {
        class: 'table-scroll',
        tabindex: '0',
        role: 'region',
        'aria-label': this.text('region'),
      },
      this.image,
    );
    this.replaceChildren(el('div', { class: 'attn-panel flowchart' }, this.box));
    this.show();
    // A phone turned sideways (or a column that changes width) may need the other variant.
    this.resized?.disconnect();
    this.resized = onWidthChange(this.box, () => {
      if (this.image && this.variantName(this.settings.route ?? RECORDED_ROUTE) !== this.image.dataset.size)
        this.show();
    });
  }

  protected teardown(): void {
    this.resized?.disconnect();
    this.resized = undefined;
  }

  protected themeChanged(): void {
    this.show();
  }

  /** The colour scheme this widget is drawn in: its own theme, the page's, else the reader's. */
  private shownTheme(): 'light' | 'dark' {
    const scheme = getComputedStyle(this).colorScheme.trim();
    if (scheme === 'light' || scheme === 'dark') return scheme;
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  /** The image's entry in flowcharts.json for `route` in this widget's language, theme and width. */
  private variantName(route: CueRouteLabel): keyof typeof sizes {
    const theme = this.shownTheme();
    // The image in the widget's language when the build rendered one, else the English one.
    const named = (stem: string) => {
      const own = `${stem}-${theme}.${this.messages.language}`;
      return (own in sizes ? own : `${stem}-${theme}`) as keyof typeof sizes;
    };
    const wide = named(route);
    // The narrow variant where the wide one, its text at its smallest, would not fit.
    const room = this.box?.clientWidth ?? 0;
    return room > 0 && room < minWidthOf(wide) ? named(`${route}-narrow`) : wide;
  }

  private show(): void {
    const route = this.settings.route ?? RECORDED_ROUTE;
    const theme = this.shownTheme();
    const name = this.variantName(route);
    const image = this.image!;
    image.src = images[`../../generated/flowchart-${name}.svg`];
    image.alt =
      route === 'none' && recordedRoute
        ? this.text('altNoneBelow', { solvedAt: this.formatNumber(recordedRoute.solvedAt) })
        : this.text(DESCRIPTIONS[route]);
    const { width, height } = sizes[name];
    image.width = width;
    image.height = height;
    // The image shrinks to its place, and its text with it: never below MIN_TEXT_PX (wider than
    // the place, it scrolls sideways instead).
    image.style.minWidth = `${minWidthOf(name)}px`; // CSSOM, allowed under a strict CSP
    image.dataset.route = route;
    image.dataset.theme = theme;
    image.dataset.size = name; // its entry in flowcharts.json
  }
}

define(Flowchart);
