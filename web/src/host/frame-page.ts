// The framed widget: embed.html?widget=TAG shows one widget filling the page, for pages that can
// only use iframes. Its other query parameters become the widget's attributes. It posts to the
// page that frames it (frame-protocol.ts), each at most once per frame the browser lays out:
// - its content height, whenever that changes, so the host's frames script (frames.ts) sizes
//   the frame to it: no scroll bar, nothing cut off;
// - every event of the widget, with its detail as it is.
// ?parent-origin=ORIGIN declares the one origin that may receive the messages. Learner data
// (every event of attn-quiz and attn-exercises: answers, scores, learning records) is posted
// only to a declared parent-origin; without one, the height and the other widgets' events go to
// any parent, and the quiz's and exercises' events to none.
import { MESSAGE_SOURCE } from './frame-protocol';

/** Widgets whose events carry what the reader answered and scored. */
export const LEARNER_DATA_WIDGETS = ['attn-quiz', 'attn-exercises'];

/** Every event a widget can raise (a widget raises some of them); all are forwarded. */
export const WIDGET_EVENTS = ['attn-ready', 'attn-change', 'attn-quiz-answered', 'attn-exercise-checked', 'attn-train-progress', 'attn-train-epoch', 'attn-train-finished'];

/** Query parameters that configure the frame, not the widget. */
const FRAME_PARAMETERS = ['widget', 'parent-origin'];

/** The declared parent origin, or null (none, or not an origin: warned, then ignored). */
export function parentOrigin(params: URLSearchParams): string | null {
  const declared = params.get('parent-origin');
  if (declared === null) return null;
  try {
    const origin = new URL(declared).origin;
    if (origin === declared && origin !== 'null') return origin;
  } catch {
    // reported below
  }
  console.warn(`embed.html: parent-origin must be an origin such as https://course.example.org (scheme, host and port, no path), got "${declared.slice(0, 80)}"; ignored`);
  return null;
}

/** Puts the widget `tag`, configured by `params`, into `host`, and starts posting to the parent. */
export function frameWidget(host: HTMLElement, tag: string, params: URLSearchParams): HTMLElement {
  const widget = document.createElement(tag);
  for (const [name, value] of params) {
    if (FRAME_PARAMETERS.includes(name)) continue;
    if (/^[a-z][a-z0-9-]{0,39}$/.test(name) && value.length <= 2000) widget.setAttribute(name, value);
  }
  host.append(widget);
  if (window.parent === window) return widget;

  const origin = parentOrigin(params);
  const post = (message: { type: 'height'; height: number } | { type: 'event'; name: string; detail: unknown }) => window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, origin ?? '*');
  const learnerData = LEARNER_DATA_WIDGETS.includes(tag);
  for (const name of WIDGET_EVENTS) {
    if (learnerData && name !== 'attn-ready' && origin === null) continue;
    widget.addEventListener(name, (event) => post({ type: 'event', name, detail: structuredClone((event as CustomEvent).detail ?? null) }));
  }
  // The root's box is the content's height, margins included, whatever the frame's own height.
  let posted = -1;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== posted) post({ type: 'height', height: (posted = height) });
  }).observe(document.documentElement);
  return widget;
}
