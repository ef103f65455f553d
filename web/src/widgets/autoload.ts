// attention-lab.js, the one script a course page includes: it defines each widget when the first
// element of its kind appears on the page (in the HTML, or added later), so that a page downloads
// the code of the widgets it holds and no other: one soft lookup costs a fraction of the lesson.
// The lesson page and the npm package define every widget at once instead (index.ts).
//
// Elements inside a shadow root are out of this script's sight: a page that puts widgets there
// imports discover() from this file and calls it with the root (the embedding guide, embed.html).
//
// Everything a widget needs starts loading when its tag is seen, side by side: its chunk with the
// chunks that imports (the bundler's preload list), and its core (preload-core.ts).
import './widgets.css';
import { showFailure } from '../host/failure';
import { TAGS, type WidgetTag } from './element/tags';
import { unknownTagWarning } from './element/closest-tag';
import { preloadCore } from './preload-core';
import { WIDGET_CORES, type CoreKind } from './widget-cores';

/** Each widget's module, which defines its element when it loads. */
const WIDGETS: Record<WidgetTag, () => Promise<unknown>> = {
  [TAGS.softLookup]: () => import('./soft-lookup/soft-lookup'),
  [TAGS.attentionSteps]: () => import('./attention-steps/attention-steps'),
  [TAGS.rankedTable]: () => import('./ranked-table/ranked-table'),
  [TAGS.scaleFigure]: () => import('./scale-figure/scale-figure'),
  [TAGS.maskFigure]: () => import('./mask-figure/mask-figure'),
  [TAGS.headsFigure]: () => import('./heads-figure/heads-figure'),
  [TAGS.pitfallDemo]: () => import('./pitfall-demo/pitfall-demo'),
  [TAGS.flowchart]: () => import('./flowchart/flowchart'),
  [TAGS.quiz]: () => import('./quiz/quiz'),
  [TAGS.exercises]: () => import('./exercises/exercises'),
  [TAGS.cueTrainer]: () => import('./cue-trainer/cue-trainer'),
  [TAGS.cueProbe]: () => import('./cue-probe/cue-probe'),
};

const loading = new Set<string>();
/** attn-* tags that are no widget (a misspelling shows nothing): warned about once each. */
const unknown = new Set<string>();

/** Starts defining `tag`'s widget; returns the core it will load (false: none, or not a widget's tag). */
function define(tag: string): CoreKind {
  const load = Object.hasOwn(WIDGETS, tag) ? WIDGETS[tag as WidgetTag] : undefined;
  if (!load && tag.startsWith('attn-') && !unknown.has(tag) && !customElements.get(tag)) {
    unknown.add(tag);
    console.warn(unknownTagWarning(tag));
  }
  if (!load || loading.has(tag) || customElements.get(tag)) return false;
  loading.add(tag);
  load().catch((error: unknown) => {
    loading.delete(tag); // the next element of this kind tries again
    for (const element of document.querySelectorAll<HTMLElement>(tag)) void showFailure(element, error);
  });
  return WIDGET_CORES[tag as WidgetTag];
}

/** Defines the widgets among `root`'s elements (the document is watched already). */
export function discover(root: ParentNode = document): void {
  preloadCore([...root.querySelectorAll(':not(:defined)')].map((node) => define(node.localName)));
}

new MutationObserver((records) => {
  const cores: CoreKind[] = [];
  for (const record of records)
    for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      cores.push(define(node.localName));
      if (node.firstElementChild) discover(node);
    }
  preloadCore(cores);
}).observe(document, { childList: true, subtree: true });
discover();

// An author's own wording of a message (the guide's "Languages"): import { overrideMessages } from '…/attention-lab.js'.
export { overrideMessages } from '../common/messages';
export { setProgressStore, type ProgressStore } from './element/progress-store';
