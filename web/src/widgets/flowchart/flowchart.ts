// <attn-flowchart>: a route of the cue task (core/include/attn/cue/intervene.hpp), as a diagram.
// Mermaid draws each route label of the core in a light and a dark theme at build time
// (scripts/render-diagrams.mjs), so the page shows a static SVG image: no Mermaid download and no
// inline styles under a strict CSP. The image follows the route attribute (the lesson sets it to
// the route of the run its trainer shows; without it, the trainer's recorded run's) and the
// widget's colour theme; the alt text says what the diagram says. Attributes: FLOWCHART in
// contracts.ts.
import sizes from '../../generated/flowcharts.json';
import type { CueRoute, CueRouteLabel } from '../../core';
import { FLOWCHART } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';

// The recorded 2-block run's route only (importing the whole run would put it into this widget's
// bundle), if this build has it.
const recorded = import.meta.glob<CueRoute>('../../generated/cue-2block.json', { eager: true, import: 'route' });
const recordedRoute = Object.values(recorded)[0] as CueRoute | undefined;
const RECORDED_ROUTE: CueRouteLabel = recordedRoute?.label ?? 'none';
/** The core's threshold for a solved run, as its routes state it. */
const BELOW_SOLVED = recordedRoute ? ` (validation accuracy below ${recordedRoute.solvedAt})` : '';

const images = import.meta.glob<string>('../../generated/flowchart-*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
});

/** The smallest size, in CSS pixels, the diagram's smallest text is shown at. */
const MIN_TEXT_PX = 12;

const ONE_BLOCK =
  'Beside it: one block of one head, in the recorded run, stays near the most-frequent-symbol baseline.';
const QUESTION = 'The last position holds the CUE again as the question.';
const DESCRIPTIONS: Record<CueRouteLabel, string> = {
  'cue-position':
    `Flowchart of the cue-position route. ${QUESTION} Block 1: the CUE position looks one step ahead and copies in the answer after it. ` +
    'Block 2: the question is matched against the earlier CUE. Then the model reads the CUE position, offset −1, which now carries the answer. ' +
    'The test behind it: an ideal next-token pattern in block 1 keeps the accuracy. ' +
    ONE_BLOCK,
  'answer-position':
    `Flowchart of the answer-position route. ${QUESTION} Block 1, a previous-token head: the answer position looks one step back and takes in the CUE before it. ` +
    'Block 2, an induction head: the question is matched against “the CUE came just before me”. Then the model reads the answer position itself, offset 0. ' +
    'The test behind it: an ideal previous-token pattern in block 1 keeps the accuracy. ' +
    ONE_BLOCK,
  'cue-broadcast':
    `Flowchart of the cue-broadcast route. ${QUESTION} Block 1: every position looks at the CUE and takes it in by content. ` +
    'Block 2: the question finds the position right after the CUE. Then the model reads the answer position, offset 0. ' +
    'The test behind it: an ideal look-at-the-CUE pattern in block 1 keeps the accuracy. ' +
    ONE_BLOCK,
  other: `Flowchart: ${QUESTION} The run is solved by a route none of the tests names: no ideal pattern in block 1 (next-token, previous-token, look-at-the-CUE) keeps the accuracy.`,
  none:
    `Flowchart: ${QUESTION} The run is not solved yet${BELOW_SOLVED}, so there is no route to name. ` +
    'Dashed arrows lead to the three routes trained models take: read the CUE at offset −1, read the answer at offset 0, or read the position after a CUE every position knows.',
};

export class Flowchart extends AttnElement<typeof FLOWCHART> {
  static readonly contract = FLOWCHART;
  static readonly needsCore = false;
  private image?: HTMLImageElement;

  protected draw(): void {
    // Not loading="lazy": the widget itself starts only near the viewport, and WebKit does not load
    // a lazy image inside a scrolling box until it is in view, which a theme change may need.
    this.image = el('img', { decoding: 'async' });
    // Focusable, so keyboard users can scroll a diagram wider than a narrow screen.
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel flowchart' },
        el(
          'div',
          {
            class: 'table-scroll',
            tabindex: '0',
            role: 'region',
            'aria-label': 'Flowchart (scrolls sideways on a narrow screen)',
          },
          this.image,
        ),
      ),
    );
    this.show();
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

  private show(): void {
    const route = this.settings.route ?? RECORDED_ROUTE;
    const theme = this.shownTheme();
    const name = `${route}-${theme}` as keyof typeof sizes;
    const image = this.image!;
    image.src = images[`../../generated/flowchart-${name}.svg`];
    image.alt = DESCRIPTIONS[route];
    const { width, height, fontSize } = sizes[name];
    image.width = width;
    image.height = height;
    // The image shrinks to its place, and its text with it: never below MIN_TEXT_PX (wider than
    // the place, it scrolls sideways instead).
    image.style.minWidth = `${Math.ceil((width * MIN_TEXT_PX) / fontSize)}px`; // CSSOM, allowed under a strict CSP
    image.dataset.route = route;
    image.dataset.theme = theme;
  }
}

define(Flowchart);
