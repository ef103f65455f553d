// The framed widget: embed.html?widget=TAG shows one widget filling the page, for pages that can
// only use iframes. Its other query parameters become the widget's attributes. It posts to the
// page that frames it (host/frame-protocol.ts), each at most once per frame the browser lays out:
// - its content height, whenever that changes (a smaller one once it has held a moment), so the
//   host's frames script (host/frames.ts) sizes the frame to it: no scroll bar, nothing cut off;
// - every event of the widget, with its detail as it is.
// The widget starts at once, not when it nears the viewport as on a page: in a frame, "near the
// viewport" is judged through the frame's own box, so a widget in a frame off-screen (or in one
// its host shrank) would not start, and its frame would keep a height that is not its content's.
// A widget's data (src) comes from the frame's own origin only (data-fetch.ts says why, in place).
// ?parent-origin=ORIGIN declares the one origin that may receive the messages. Learner data
// (every event of attn-quiz and attn-exercises: answers, scores, learning records) is posted
// only to a declared parent-origin; without one, the height and the other widgets' events go to
// any parent, and the quiz's and exercises' events to none.
import { eventsOf } from '../../widgets/element/contract';
import { CONTRACTS } from '../../widgets/element/contracts';
import { MESSAGE_SOURCE, isHostMessage } from '../../host/frame-protocol';
import { startAtOnce } from '../../widgets/element/base';
import { inFramedWidget } from '../../widgets/element/data-fetch';
import './frame-page.css';

/** How long a smaller content height must hold before the frame is told (ms). */
const SHRINK_AFTER_MS = 250;

/** Widgets whose events carry what the reader answered and scored. */
export const LEARNER_DATA_WIDGETS = ['attn-quiz', 'attn-exercises'];

/** Every event a widget can raise, as the contracts declare them; all are forwarded. */
export const WIDGET_EVENTS = [...new Set(CONTRACTS.flatMap((c) => eventsOf(c).map((e) => e.name)))];

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
  console.warn(
    `embed.html: parent-origin must be an origin such as https://course.example.org (scheme, host and port, no path), got "${declared.slice(0, 80)}"; ignored`,
  );
  return null;
}

/**
 * Puts the widget `tag`, configured by `params` (and then by `prepare`, before it is on the page),
 * into `host` (or, for a tag not in `known`, an error naming the known ones), and posts its height
 * and events to the parent.
 */
export function frameWidget(
  host: HTMLElement,
  tag: string,
  params: URLSearchParams,
  known: readonly string[],
  prepare?: (widget: HTMLElement) => void,
): void {
  inFramedWidget(); // its data (src) from the frame's own origin only: a refusal says so
  let content: HTMLElement;
  if (known.includes(tag)) {
    content = document.createElement(tag);
    for (const [name, value] of params) {
      if (FRAME_PARAMETERS.includes(name)) continue;
      if (/^[a-z][a-z0-9-]{0,39}$/.test(name) && value.length <= 2000) content.setAttribute(name, value);
    }
    prepare?.(content);
    startAtOnce(content);
  } else {
    content = document.createElement('p');
    content.className = 'attn-error';
    content.setAttribute('role', 'alert');
    content.textContent = `Unknown widget "${tag.slice(0, 40)}". Known: ${known.join(', ')}.`;
  }
  host.append(content);
  if (window.parent !== window) postToParent(content, tag, parentOrigin(params));
}

/** Posts the framed `content`'s height and, for a widget, its events, to the parent at `origin` (null: any). */
function postToParent(content: HTMLElement, tag: string, origin: string | null): void {
  const post = (message: { type: 'height'; height: number } | { type: 'event'; name: string; detail: unknown }) =>
    window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, origin ?? '*');
  const learnerData = LEARNER_DATA_WIDGETS.includes(tag);
  // The root's box is the content's height, margins included, whatever the frame's own height.
  // Nothing is posted before the widget has drawn something other than the author's data (its
  // <script type="application/json">): the frame keeps the height its page gave it meanwhile.
  // Growth is posted at once, so nothing is cut off; a smaller height only once it has held for
  // SHRINK_AFTER_MS, so content replaced in steps (the trainer clears its results, then adds a
  // progress row per model) moves the page around it once, not per step. Measured when the
  // root's size changes and after each of the widget's events: a browser may hold back the
  // resize observations of a frame out of view until it is shown (after an event, the widget's
  // task ends first: it may change more after it dispatched).
  let posted = -1;
  let waiting: { height: number; timer: ReturnType<typeof setTimeout> } | undefined; // a smaller height
  const postHeight = (height: number) => post({ type: 'height', height: (posted = height) });
  const measure = () => {
    if (content.localName.startsWith('attn-') && content.querySelector(':scope > :not(script)') === null) return;
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === waiting?.height) return;
    clearTimeout(waiting?.timer);
    waiting = undefined;
    if (height > posted) postHeight(height);
    else if (height < posted)
      waiting = {
        height,
        timer: setTimeout(() => {
          waiting = undefined;
          postHeight(height);
        }, SHRINK_AFTER_MS),
      };
  };
  new ResizeObserver(measure).observe(document.documentElement);
  let afterEvent: ReturnType<typeof setTimeout> | undefined;
  for (const name of WIDGET_EVENTS) {
    const forwarded = !(learnerData && name !== 'attn-ready' && origin === null);
    content.addEventListener(name, (event) => {
      if (forwarded) post({ type: 'event', name, detail: structuredClone((event as CustomEvent).detail ?? null) });
      clearTimeout(afterEvent);
      afterEvent = setTimeout(measure);
    });
  }
  // A host that sizes the frame (frames.ts answers the first height) needs no scroll bar in it,
  // not even for the frame it takes the host to follow a growth; without one, content scrolls.
  addEventListener('message', (event) => {
    if (event.source === window.parent && isHostMessage(event.data) && (origin === null || event.origin === origin))
      document.documentElement.classList.add('attn-sized-frame');
  });
}
