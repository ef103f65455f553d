// attention-lab.js, the one script a course page includes: it defines each widget when the first
// element of its kind appears on the page (in the HTML, or added later; one marked loading="lazy"
// when it nears the viewport), so that a page downloads the code of the widgets it holds and no
// other: one soft lookup costs a fraction of the lesson.
// The npm package defines every widget at once instead (index.ts).
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
import { installedStore } from './element/progress-store';
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

/**
 * Elements marked loading="lazy", as images are: their kind is defined once one of them comes
 * within about two screens of the viewport, so a long page (the lesson) loads the widgets its
 * reader scrolls to, not all of them at once. On a page with a progress store (a course package)
 * every widget is defined at once: the graded ones report their score as the page opens.
 */
const nearView = new IntersectionObserver(
  (entries) => {
    const near = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target);
    const tags = new Set(near.map((element) => element.localName));
    // One element near is enough to define its kind: the others of that kind need no watching.
    near.forEach((element) => nearView.unobserve(element));
    for (const tag of tags) document.querySelectorAll(tag).forEach((element) => nearView.unobserve(element));
    preloadCore([...tags].map(define));
  },
  { rootMargin: '1200px 0px' },
);

/** Defines `element`'s kind now, or once it nears the viewport when it is lazy; returns the core it will load now. */
function see(element: Element): CoreKind {
  if (element.getAttribute('loading') !== 'lazy' || installedStore()) return define(element.localName);
  if (!customElements.get(element.localName)) nearView.observe(element);
  return false;
}

/** Defines the widgets among `root`'s elements (the document is watched already). */
export function discover(root: ParentNode = document): void {
  preloadCore([...root.querySelectorAll(':not(:defined)')].map(see));
}

new MutationObserver((records) => {
  const cores: CoreKind[] = [];
  for (const record of records)
    for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      cores.push(see(node));
      if (node.firstElementChild) discover(node);
    }
  preloadCore(cores);
}).observe(document, { childList: true, subtree: true });
discover();

// An author's own wording of a message (the guide's "Languages"): import { overrideMessages } from '…/attention-lab.js'.
export { overrideMessages } from '../common/messages';
export { setProgressStore, type ProgressStore } from './element/progress-store';
