// Landing on a section: from a link's #fragment on the first visit (the lesson is rendered by
// script, after the browser looked for the fragment) and from the contents. The target stays at
// the top of the view while the page around it settles (widgets drawing, the numbers filled in),
// until the reader scrolls, presses a key or touches the page, or HOLD_MS have passed.

const HOLD_MS = 10_000;
const READER_INPUT = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

let release: (() => void) | undefined;

/** Scrolls `target` to the top of the view (smoothly when `smooth`) and keeps it there as the page settles. */
export function landOn(target: Element, smooth: boolean): void {
  release?.();
  const behavior: ScrollBehavior = smooth ? 'smooth' : 'instant';
  target.scrollIntoView({ block: 'start', behavior });
  // Where the target is in the page (not in the view, which a smooth scroll moves).
  const top = () => target.getBoundingClientRect().top + scrollY;
  let last = top();
  // A size change moves the target only if it was above it: align again then.
  const observer = new ResizeObserver(() => {
    const now = top();
    if (now !== last) target.scrollIntoView({ block: 'start', behavior });
    last = now;
  });
  observer.observe(document.body);
  for (const widget of document.querySelectorAll('#lesson figure.widget > *')) observer.observe(widget);
  const timer = setTimeout(() => release?.(), HOLD_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of READER_INPUT) removeEventListener(type, stop, true);
    release = undefined;
  };
  for (const type of READER_INPUT) addEventListener(type, stop, { capture: true, passive: true });
  release = stop;
}

/**
 * The element the address's #fragment names, if it names one. The hash may also hold widgets'
 * settings ("#quiz&lookup.q=0.40,1.20", hash-state.ts, which writes a bare name as "quiz="): the
 * first entry without a value that names an element is the target.
 */
export function fragmentTarget(hash = location.hash): Element | null {
  const id = (text: string) => {
    try {
      return document.getElementById(decodeURIComponent(text));
    } catch {
      return null; // not a well-formed escape
    }
  };
  if (hash.length < 2) return null;
  const whole = id(hash.slice(1));
  if (whole) return whole;
  for (const entry of hash.slice(1).split('&')) {
    const [name, value] = entry.split('=');
    if (!value && name) {
      const found = id(name);
      if (found) return found;
    }
  }
  return null;
}
