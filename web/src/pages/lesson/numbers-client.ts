// The lesson's numbers (live-numbers.ts), computed in the numbers Worker (numbers-worker.ts), off
// the page's main thread; on a page that cannot start the Worker, on the main thread a part at a
// time, so the numbers are there either way.
import labWasm from '../../generated/attention_lab.wasm?url';
import numbersWorkerUrl from './numbers-worker.ts?worker&url';
import type { LiveNumbers } from '../../common/live-format';
import { keepSweep } from '../../common/sweep-cache';
import { getCore } from '../../core/instance';
import { startWorker } from '../../host/worker';
import { getLiveNumbersInParts, keepLiveNumbers } from './live-numbers';
import { nextTask } from './frames';
import type { NumbersReply, NumbersRequest } from './numbers-worker';

/** The Worker's numbers; rejects with why when it cannot start or the core fails in it. */
function numbersFromWorker(): Promise<LiveNumbers> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(new URL(numbersWorkerUrl, import.meta.url), {
      message(data) {
        const reply = data as NumbersReply;
        if ('error' in reply) return reject(new Error(reply.error));
        keepSweep(reply.sweepConfig, reply.sweep);
        resolve(reply.numbers);
      },
      failed: (reason) => reject(new Error(reason)),
    });
    // The .wasm's address as this bundle knows it, as the trainer tells its Workers.
    const request: NumbersRequest = { wasmUrl: new URL(labWasm, import.meta.url).href };
    worker?.postMessage(request);
  });
}

/**
 * Fills `numbers`, the page's numbers, with the lesson's: from the Worker, else from the page's
 * own core. Rejects when the core cannot load on the page either.
 */
export async function fillLessonNumbers(numbers: LiveNumbers): Promise<void> {
  try {
    Object.assign(numbers, await numbersFromWorker());
  } catch (error) {
    console.warn('attention-lab: the lesson’s numbers are computed on the page, not in a Worker:', error);
    Object.assign(numbers, await getLiveNumbersInParts(await getCore(), nextTask));
  }
  keepLiveNumbers(numbers);
}
