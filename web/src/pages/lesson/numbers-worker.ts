// The lesson's numbers Worker: loads the core (an instance of its own) and computes the numbers
// the lesson's prose and quiz quote (live-numbers.ts), off the page's main thread, so that on a
// phone the page answers while the core compiles and the scale sweep runs. Its one request names
// where the .wasm is; it answers with the numbers and the sweep they read (the page's scale
// figures draw the same sweep), or with why it could not, and closes.
import { loadCore, withDefaults, type ScaleSweep, type ScaleSweepConfig } from '../../core';
import type { LiveNumbers } from '../../common/live-format';
import { sweepOf } from '../../common/sweep-cache';
import { getLiveNumbers } from './live-numbers';

/** The page's request. */
export interface NumbersRequest {
  wasmUrl: string;
}

/** The Worker's answer: the numbers and the sweep at the core's defaults (`sweepConfig`), or an error's message. */
export type NumbersReply =
  { numbers: LiveNumbers; sweep: ScaleSweep; sweepConfig: ScaleSweepConfig } | { error: string };

addEventListener(
  'message',
  (event: MessageEvent<NumbersRequest>) => {
    const answer = async (): Promise<NumbersReply> => {
      const wasmUrl = typeof event.data?.wasmUrl === 'string' ? event.data.wasmUrl : undefined;
      const core = await loadCore({ wasmUrl });
      const numbers = getLiveNumbers(core);
      const sweepConfig = withDefaults(core.configs.scaleSweep.defaults, {});
      return { numbers, sweep: sweepOf(core, sweepConfig), sweepConfig };
    };
    answer()
      .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
      .then((reply) => {
        postMessage(reply);
        close();
      });
  },
  { once: true },
);
