// The validation curves of the 1-block cue-task runs the native core recorded at build time, for
// the task that asks when a run first reaches an accuracy. Each run loads only when a reader
// checks such a task (the curves are not part of the lesson's first load). Read as text (?raw):
// a module of its own, so the lesson's bundle, which imports a few keys of the same files
// (recorded-runs.ts), does not take in the curves.
import type { CueConfig, CueEpoch } from '../../core';

const runs = import.meta.glob<string>('../../generated/runs/one-block-*.json', { query: '?raw', import: 'default' });

/** The run with these settings: `reach` by which epoch; undefined: no such run in this build. */
export interface FirstReach {
  /** the first epoch (from 1) whose validation accuracy is `reach` or more; 0: never */
  epoch: number;
  /** its accuracy, or the run's best when it never reaches `reach` */
  accuracy: number;
}

/** When the recorded 1-block run with `heads` heads, `epochs` epochs and `seed` first reaches `reach`. */
export async function firstReach(
  heads: number,
  epochs: number,
  seed: number,
  reach: number,
): Promise<FirstReach | undefined> {
  const all = await Promise.all(
    Object.values(runs).map(async (load) => JSON.parse(await load()) as { config: CueConfig; history: CueEpoch[] }),
  );
  for (const { config: c, history } of all) {
    if (c.blocks !== 1 || c.heads !== heads || c.epochs !== epochs || c.seed !== seed) continue;
    const at = history.findIndex((e) => e.validationAccuracy >= reach);
    return at >= 0
      ? { epoch: at + 1, accuracy: history[at].validationAccuracy }
      : { epoch: 0, accuracy: Math.max(...history.map((e) => e.validationAccuracy)) };
  }
  return undefined;
}
