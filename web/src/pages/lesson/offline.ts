// Makes the lesson available offline (offline-update.ts), once its first load is over: after
// the page's load event and the lesson's numbers (the core's work), then a quiet network and an
// idle main thread. So the precache (the service worker's download of what the lesson may still
// need) never competes with the first load's requests, and the first load carries only this
// module; the rest is a chunk loaded then.
import type { PageLanguage } from '../../common/language';

/** How long no resource may have finished before the network counts as quiet. */
export const QUIET_MS = 3000;

/** Resolves once no resource of the page has finished loading for `ms`. */
function networkQuiet(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const last = Math.max(
        0,
        ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => entry.responseEnd),
      );
      const wait = last + ms - performance.now();
      if (wait <= 0) resolve();
      else setTimeout(check, wait);
    };
    check();
  });
}

/**
 * Offers the lesson offline, in `language`, once the page is idle after `work` (the first load's
 * own) has settled; does nothing where service workers are unavailable or in Vite's dev server.
 */
export function offerOfflineWhenIdle(language: PageLanguage, work: Promise<unknown>): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const loaded = new Promise<void>((resolve) =>
    document.readyState === 'complete' ? resolve() : addEventListener('load', () => resolve(), { once: true }),
  );
  void Promise.all([loaded, work.catch(() => undefined)])
    .then(() => networkQuiet(QUIET_MS))
    .then(
      () =>
        new Promise((resolve) =>
          'requestIdleCallback' in window ? requestIdleCallback(resolve) : setTimeout(resolve),
        ),
    )
    .then(() => import('./offline-update'))
    .then(({ offerOffline }) => offerOffline(language))
    // Online, the lesson works as before; the reason is for the page's author, not its reader.
    .catch((error: unknown) => console.warn('The lesson could not be made available offline:', error));
}
