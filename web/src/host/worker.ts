// Starts a module Worker of the bundle from any host. A page can start a Worker only from its
// own origin: when the bundle comes from the page's origin the Worker starts from its file
// (so our strict-CSP pages need no blob:); when it comes from another origin (an asset host
// that sends CORS headers), from a one-line blob: module that imports the real one, whose own
// imports and WebAssembly then resolve against its real address. When the page does not allow
// it, the caller gets the reason in words (explain.ts), never only a console error.
import { MESSAGES, explainFile, quoteDirective, violationsFor } from './explain';

export interface WorkerHandlers {
  /** Every message the Worker posts. */
  message(data: unknown): void;
  /** The Worker could not start or died: why, and what the page or host must allow. */
  failed(reason: string): void;
}

/**
 * Why the Worker at `url` did not start, started as `started` ('file' or 'blob'). A blob: Worker
 * fetches the real module under the page's policy, as a worker script: a worker-src without the
 * asset host refuses it inside the Worker, where the page sees no violation event. So when the
 * page saw none and the file itself answers well, that is the cause left.
 */
async function explainWorker(url: URL, started: 'file' | 'blob', error: unknown): Promise<string> {
  const needed = started === 'blob' ? `blob: ${url.origin}` : "'self'";
  const refused = await violationsFor(['worker-src'], [url.origin, 'blob']);
  if (refused.length > 0) return MESSAGES.workerRefused(needed, quoteDirective(refused[0]));
  const file = await explainFile(url.href);
  if (file) return file;
  if (started === 'blob') return MESSAGES.workerRefused(needed);
  const message = error instanceof ErrorEvent ? error.message : error instanceof Error ? error.message : '';
  return MESSAGES.other(message || `the Worker ${url.href} did not start`);
}

/** Starts the module Worker at `url`; failures arrive at handlers.failed, once. */
export function startWorker(url: URL, handlers: WorkerHandlers): Worker | undefined {
  const started = url.origin === location.origin ? 'file' : 'blob';
  const address =
    started === 'file'
      ? url.href
      : URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};\n`], { type: 'text/javascript' }));
  const release = () => started === 'blob' && URL.revokeObjectURL(address);
  let failed = false;
  const fail = (error: unknown) => {
    release();
    if (failed) return;
    failed = true;
    void explainWorker(url, started, error).then(handlers.failed);
  };
  let worker: Worker;
  try {
    worker = new Worker(address, { type: 'module' });
  } catch (error) {
    // Chromium and WebKit refuse some at once (policy, origin); Firefox fires error
    fail(error);
    return undefined;
  }
  worker.addEventListener('message', (event) => {
    release();
    handlers.message(event.data);
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    fail(event);
  });
  return worker;
}
