// The cue-task runs the native core recorded at build time (scripts/build: `attention-lab cue
// ... --json`, same core as the browser's), on which the lesson's words about training rest:
// the trainer's recorded run (both models, default seed; the 2-block one with its attention
// after every epoch), 1 block on other seeds and with more heads and epochs, and a seed whose
// 2-block model takes the other route. Absent files (a build without them) leave them out. Their
// trained weights are addressed in recorded-weights.ts.
import type { CueAnalysis, CueConfig, CueReport } from '../core';

/** What `attention-lab cue --json` writes: the core's CueReport, the time, and with --trace the analysis per epoch. */
export type RecordedRun = CueReport & { elapsedSeconds: number; analysisHistory?: CueAnalysis[] };

const trainerRuns = import.meta.glob<RecordedRun>('../generated/cue-*block.json', {
  eager: true,
  import: 'default',
});
// The claims' runs: only the keys the page reads are bundled (Vite exports a JSON file's keys).
const runConfigs = import.meta.glob<CueConfig>('../generated/runs/*.json', { eager: true, import: 'config' });
const runBests = import.meta.glob<number>('../generated/runs/*.json', {
  eager: true,
  import: 'bestValidationAccuracy',
});
const runBestEpochs = import.meta.glob<number>('../generated/runs/*.json', { eager: true, import: 'bestEpoch' });
const runBaselines = import.meta.glob<number>('../generated/runs/*.json', {
  eager: true,
  import: 'baselineAccuracy',
});
const otherRoute = import.meta.glob<RecordedRun>('../generated/runs/two-block-*.json', {
  eager: true,
  import: 'default',
});

/** The trainer's recorded runs of the 1-block and the 2-block model, if this build has them. */
export function recordedCueRuns(): [RecordedRun, RecordedRun] | undefined {
  const one = trainerRuns['../generated/cue-1block.json'];
  const two = trainerRuns['../generated/cue-2block.json'];
  return one && two ? [one, two] : undefined;
}

/** A recorded run reduced to what the lesson quotes. */
export interface RunSummary {
  config: CueConfig;
  best: number;
  bestEpoch: number;
  baseline: number;
}

/** Every recorded 1-block run of the claims (other seeds, more heads, more epochs). */
export function oneBlockRuns(): RunSummary[] {
  return Object.keys(runConfigs)
    .filter((path) => runConfigs[path].blocks === 1)
    .map((path) => ({
      config: runConfigs[path],
      best: runBests[path],
      bestEpoch: runBestEpochs[path],
      baseline: runBaselines[path],
    }));
}

/** The recorded 2-block runs on other seeds, in full (the other route's circuit and curve). */
export function otherSeedRuns(): RecordedRun[] {
  return Object.values(otherRoute);
}

// The 1-block runs with several heads, with the core's analysis of where their trained heads look.
const manyHeadAnalyses = import.meta.glob<CueAnalysis>('../generated/runs/one-block-heads*.json', {
  eager: true,
  import: 'analysis',
});

/** The recorded 1-block runs with `heads` heads per block (longest first), each with its analysis. */
export function oneBlockHeadRuns(heads: number): (RunSummary & { analysis: CueAnalysis })[] {
  return Object.keys(manyHeadAnalyses)
    .filter((path) => runConfigs[path]?.heads === heads)
    .map((path) => ({
      config: runConfigs[path],
      best: runBests[path],
      bestEpoch: runBestEpochs[path],
      baseline: runBaselines[path],
      analysis: manyHeadAnalyses[path],
    }))
    .sort((a, b) => b.config.epochs - a.config.epochs);
}
