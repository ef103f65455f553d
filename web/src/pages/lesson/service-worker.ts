// The lesson's service worker (built by scripts/vite-lesson-offline.ts into dist/lesson-sw.js,
// its precache list and version written in as LESSON_PRECACHE, a JSON text). Its scope is the lesson's page
// alone (offline-update.ts registers it so), so it never answers for the guide or an author's
// page on the same host.
//
// Installing, it stores every file the lesson needs in a cache named by its version; then it
// answers the lesson's requests from that cache (the page, whatever its ?query, from the cached
// index.html), and lets everything else go to the network. A newer worker installs beside the
// running one and waits: only the reader's "reload" (the page posts 'skip-waiting') makes it
// take over, so a lesson in use is never swapped under its reader. Activated, it deletes the
// caches of older versions.

/** Written in at build time, as JSON: the version (a hash of the listed files) and the files, relative to this worker. */
declare const LESSON_PRECACHE: string;
const PRECACHE = JSON.parse(LESSON_PRECACHE) as { version: string; files: readonly string[] };

// The worker's globals, which the page's DOM types do not describe.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly location: Location;
}
const worker = globalThis as unknown as WorkerScope;

const PREFIX = 'attention-lab-lesson-';
const CACHE = `${PREFIX}${PRECACHE.version}`;
/** A file Vite named by its content: the copy in the HTTP cache is the right one; any other is checked with the server. */
const HASHED = /(^|\/)assets\/[^/]+-[\w-]{8}\.\w+$/;
const PAGE = new URL(PRECACHE.files[0], worker.location.href).href;
const LISTED = new Set(PRECACHE.files.map((file) => new URL(file, worker.location.href).href));

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        cache.addAll(
          PRECACHE.files.map(
            (file) =>
              new Request(new URL(file, worker.location.href), { cache: HASHED.test(file) ? 'default' : 'no-cache' }),
          ),
        ),
      ),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
        ),
      ),
  );
});

worker.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') void worker.skipWaiting();
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.hash = '';
  // The page under any ?query (language, theme, a reader's settings) is the one cached page.
  const isPage = request.mode === 'navigate' && `${url.origin}${url.pathname}` === PAGE;
  if (!isPage && !LISTED.has(url.href)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(isPage ? PAGE : request, { ignoreVary: true }))
      .then((cached) => cached ?? fetch(request)),
  );
});
