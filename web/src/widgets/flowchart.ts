// <attn-flowchart>: the two-block circuit as a diagram. Mermaid draws it at build time
// (scripts/render-diagrams.mjs), so the page shows a static SVG image: no Mermaid download and
// no inline styles under a strict CSP. The alt text says what the diagram says.
import flowchartUrl from '../generated/flowchart.svg?url';
import { FLOWCHART } from './contracts';
import { AttnElement, define, el } from './base';

const DESCRIPTION =
  'Flowchart. The last position holds the CUE again as the question. Block 1: each position takes in its left neighbour. ' +
  'Block 2: the question is matched against the earlier CUE. Then the model reads that CUE position, which now carries the answer. ' +
  'Beside it: a single block matches or shifts, never both, and stays near guessing.';

export class Flowchart extends AttnElement<typeof FLOWCHART> {
  static readonly contract = FLOWCHART;
  static readonly needsCore = false;

  protected draw(): void {
    this.replaceChildren(el('div', { class: 'attn-panel flowchart' }, el('img', { src: flowchartUrl, alt: DESCRIPTION, width: '640', height: '420', loading: 'lazy', decoding: 'async' })));
  }
}

define('attn-flowchart', Flowchart);
