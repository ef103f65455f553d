// attention-lab.js, the one script a course page includes: it defines each widget when the first
// element of its kind appears on the page (in the HTML, or added later), so that a page downloads
// the code of the widgets it holds and no other: one soft lookup costs a fraction of the lesson.
// The lesson page and the npm package define every widget at once instead (index.ts).
//
// Elements inside a shadow root are out of this script's sight: a page that puts widgets there
// imports discover() from this file and calls it with the root (the embedding guide, embed.html).
import './widgets.css';
import { showFailure } from '../host/failure';

/** Each widget's module, which defines its element when it loads. */
const WIDGETS: Record<string, () => Promise<unknown>> = {
  'attn-soft-lookup': () => import('./soft-lookup/soft-lookup'),
  'attn-attention-steps': () => import('./attention-steps/attention-steps'),
  'attn-ranked-table': () => import('./ranked-table/ranked-table'),
  'attn-scale-figure': () => import('./scale-figure/scale-figure'),
  'attn-mask-figure': () => import('./mask-figure/mask-figure'),
  'attn-heads-figure': () => import('./heads-figure/heads-figure'),
  'attn-pitfall-demo': () => import('./pitfall-demo/pitfall-demo'),
  'attn-flowchart': () => import('./flowchart/flowchart'),
  'attn-quiz': () => import('./quiz/quiz'),
  'attn-exercises': () => import('./exercises/exercises'),
  'attn-cue-trainer': () => import('./cue-trainer/cue-trainer'),
  'attn-cue-probe': () => import('./cue-probe/cue-probe'),
};

const loading = new Set<string>();

function define(tag: string): void {
  const load = WIDGETS[tag];
  if (!load || loading.has(tag) || customElements.get(tag)) return;
  loading.add(tag);
  load().catch((error: unknown) => {
    loading.delete(tag); // the next element of this kind tries again
    for (const widget of document.querySelectorAll<HTMLElement>(tag)) void showFailure(widget, error);
  });
}

/** Defines the widgets among `root`'s elements (the document is watched already). */
export function discover(root: ParentNode = document): void {
  for (const node of root.querySelectorAll(':not(:defined)')) define(node.localName);
}

new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      define(node.localName);
      if (node.firstElementChild) discover(node);
    }
}).observe(document, { childList: true, subtree: true });
discover();
