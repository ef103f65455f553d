// Waiting for the browser between pieces of work, so it can paint and answer input.

/** Resolves once the page has been painted (at once in a hidden page, which paints nothing). */
export function painted(): Promise<void> {
  if (document.visibilityState === 'hidden') return nextTask();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Resolves in a new task, so the browser can paint and handle input in between. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** How long firstPaint() waits at most for the browser to report a paint. */
const FIRST_PAINT_WAIT_MS = 5000;

/**
 * Resolves once the page's first contentful paint has been presented, as the browser reports it
 * (else once a frame has been painted); at once in a hidden page, and at the latest after
 * FIRST_PAINT_WAIT_MS.
 */
export function firstPaint(): Promise<void> {
  if (document.visibilityState === 'hidden' || !PerformanceObserver.supportedEntryTypes?.includes('paint'))
    return painted();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length) done();
    });
    observer.observe({ type: 'paint', buffered: true });
    document.addEventListener('visibilitychange', done, { once: true });
    setTimeout(done, FIRST_PAINT_WAIT_MS);
  });
}
