// Registers the lesson's service worker (service-worker.ts, built to dist/lesson-sw.js beside
// index.html) with the lesson's page as its whole scope: the guide (embed.html) and any author's
// page on the same host stay outside it. dist/ keeps the lesson and the guide side by side in one
// folder, and a scope is a prefix of addresses, so the only scope that covers the lesson and
// nothing else is its page's own address (any ?query included).
//
// A newer version (a new worker, installed and waiting) is offered, never forced: a notice says
// it is ready, with a button to reload; only that button lets the new worker take over and
// reloads, so a training in progress is never broken.
import offlineMessages from 'attn-messages:offline';
import type { PageLanguage } from '../../common/language';
import { messagesIn, type Messages } from '../../common/messages';
import './offline.css';

/** The worker's and its scope's file names, beside the lesson's page (scripts/vite-lesson-offline.ts). */
const WORKER = 'lesson-sw.js';
const SCOPE = 'index.html';

/** Shows the notice that `waiting` (an installed, waiting worker) is ready, with its reload button; once. */
function offerUpdate(waiting: ServiceWorker, messages: Messages): void {
  if (document.getElementById('offline-update')) return;
  const notice = document.createElement('div');
  notice.id = 'offline-update';
  notice.className = 'offline-update';
  notice.setAttribute('role', 'status');
  const text = document.createElement('p');
  text.textContent = messages.text('updateReady');
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.textContent = messages.text('updateReload');
  reload.addEventListener('click', () => {
    reload.disabled = true;
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
    waiting.postMessage('skip-waiting');
  });
  notice.append(text, reload);
  document.body.append(notice);
}

/**
 * Registers the worker and offers each newer version it installs. Marks <html data-offline> with
 * "ready" once a worker holds the lesson's files (the test waits for it) and "update" while a
 * newer one waits.
 */
export async function offerOffline(language: PageLanguage): Promise<void> {
  const base = document.baseURI;
  const registration = await navigator.serviceWorker.register(new URL(WORKER, base), {
    scope: new URL(SCOPE, base).href,
  });
  const messages = await messagesIn(language, offlineMessages);
  const root = document.documentElement;
  // A worker waiting while another controls the page is a newer version; the first worker of a
  // first visit never waits (nothing controls the page yet) and needs no offer.
  const offer = (worker: ServiceWorker | null) => {
    if (!worker || !navigator.serviceWorker.controller) return;
    root.dataset.offline = 'update';
    offerUpdate(worker, messages);
  };
  const watch = (worker: ServiceWorker | null) =>
    worker?.addEventListener('statechange', () => worker.state === 'installed' && offer(registration.waiting));
  offer(registration.waiting);
  watch(registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
  await navigator.serviceWorker.ready;
  root.dataset.offline ??= 'ready';
}
