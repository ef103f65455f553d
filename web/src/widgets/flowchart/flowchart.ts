// <attn-flowchart>: the circuit of the cue-task run the page describes, as a diagram. Mermaid
// draws each circuit (cue-position route, answer-position route, none yet) in a light and a
// dark theme at build time (scripts/render-diagrams.mjs), so the page shows a static SVG image:
// no Mermaid download and no inline styles under a strict CSP. The image follows the circuit
// the core's analysis names for the shown run (shown-circuit.ts) and the widget's colour theme;
// the alt text says what the diagram says. Attributes: FLOWCHART in contracts.ts (theme only).
import sizes from '../../generated/flowcharts.json';
import { CIRCUIT_EVENT, shownCircuit, type Circuit } from '../../pages/lesson/shown-circuit';
import { FLOWCHART } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';

const images = import.meta.glob<string>('../../generated/flowchart-*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
});

/** The smallest size, in CSS pixels, the diagram's smallest text is shown at. */
const MIN_TEXT_PX = 12;

const ONE_BLOCK = 'Beside it: one block of one head, in the recorded run, stays at the most-frequent-symbol baseline.';
const DESCRIPTIONS: Record<Circuit, string> = {
  cue:
    'Flowchart of the cue-position route. The last position holds the CUE again as the question. Block 1: the CUE position looks one step ahead and copies in the answer after it. ' +
    'Block 2: the question is matched against the earlier CUE. Then the model reads the CUE position, offset −1, which now carries the answer. ' +
    ONE_BLOCK,
  answer:
    'Flowchart of the answer-position route. The last position holds the CUE again as the question. Block 1: the answer position looks one step back and takes in the CUE before it. ' +
    'Block 2: the question is matched against “the CUE came just before me”. Then the model reads the answer position itself, offset 0. ' +
    ONE_BLOCK,
  none:
    'Flowchart: the last position holds the CUE again as the question, and the model has no route yet: no head of the last block puts half of its weight on the earlier CUE or on the answer. ' +
    'Dashed arrows lead to the two routes a trained model takes: read the CUE at offset −1, or read the answer at offset 0.',
};

export class Flowchart extends AttnElement<typeof FLOWCHART> {
  static readonly contract = FLOWCHART;
  static readonly needsCore = false;
  private image?: HTMLImageElement;
  private readonly update = () => this.show();

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
    document.addEventListener(CIRCUIT_EVENT, this.update);
    this.show();
  }

  protected teardown(): void {
    document.removeEventListener(CIRCUIT_EVENT, this.update);
  }

  protected themeChanged(): void {
    this.show();
  }

  /** The colour scheme this widget is drawn in: its own theme, the page's, else the reader's. */
  private theme(): 'light' | 'dark' {
    const scheme = getComputedStyle(this).colorScheme.trim();
    if (scheme === 'light' || scheme === 'dark') return scheme;
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  private show(): void {
    const circuit = shownCircuit();
    const theme = this.theme();
    const name = `${circuit}-${theme}` as keyof typeof sizes;
    const image = this.image!;
    image.src = images[`../../generated/flowchart-${name}.svg`];
    image.alt = DESCRIPTIONS[circuit];
    const { width, height, fontSize } = sizes[name];
    image.width = width;
    image.height = height;
    // The image shrinks to its place, and its text with it: never below MIN_TEXT_PX (wider than
    // the place, it scrolls sideways instead).
    image.style.minWidth = `${Math.ceil((width * MIN_TEXT_PX) / fontSize)}px`; // CSSOM, allowed under a strict CSP
    image.dataset.circuit = circuit;
    image.dataset.theme = theme;
  }
}

define('attn-flowchart', Flowchart);
