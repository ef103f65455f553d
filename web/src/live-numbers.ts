// The numbers the lesson's prose and quiz quote, computed by the core when the page loads
// (or, for the PyTorch cross-check and the recorded training run, by the native core at build
// time: those files are written by scripts/build into generated/). Every experiment runs at
// the core's defaults, which are the lesson's settings.
import type { Core, CueReport } from './core';
import type { LiveNumbers } from './format';
import { scaleSweepNumbers, sweepOf } from './widgets/sweep-view';

// Build-time results; absent files simply leave their numbers missing.
const generated = import.meta.glob<{ default: unknown }>('./generated/*.json', { eager: true });

/** What `attention-lab reference --json` writes (cli/cmd_reference.cpp). */
interface ReferenceReport { cases: { outputMaxAbsDiff: number; weightsMaxAbsDiff: number }[] }
/** What `attention-lab cue --json` writes: the core's CueReport and the time it took. */
export type RecordedRun = CueReport & { elapsedSeconds: number };

/** The recorded runs of the 1-block and the 2-block model, if this build has them. */
export function recordedCueRuns(): [RecordedRun, RecordedRun] | undefined {
  const one = generated['./generated/cue-1block.json']?.default as RecordedRun | undefined;
  const two = generated['./generated/cue-2block.json']?.default as RecordedRun | undefined;
  return one && two ? [one, two] : undefined;
}

function buildTimeNumbers(): LiveNumbers {
  const numbers: LiveNumbers = {};
  const reference = generated['./generated/reference.json']?.default as ReferenceReport | undefined;
  if (reference?.cases?.length) {
    numbers['reference.output'] = Math.max(...reference.cases.map((c) => c.outputMaxAbsDiff));
    numbers['reference.weights'] = Math.max(...reference.cases.map((c) => c.weightsMaxAbsDiff));
  }
  const runs = recordedCueRuns();
  if (runs) {
    const [one, two] = runs;
    Object.assign(numbers, {
      'cue.params1': one.parameterCount, 'cue.params2': two.parameterCount,
      'cue.best1': one.bestValidationAccuracy, 'cue.best2': two.bestValidationAccuracy,
      'cue.baseline': two.baselineAccuracy, 'cue.chance': two.chanceAccuracy,
    });
    // Share of the last block's attention (averaged over heads) on offset -1, the earlier cue.
    const at = Array.from(two.analysis.offsets).indexOf(-1);
    if (at >= 0) numbers['cue.cueShare'] = two.analysis.lastBlockMeanByOffset[at];
  }
  return numbers;
}

export function computeLiveNumbers(core: Core): LiveNumbers {
  const masks = core.maskDemo();
  const fraction = (name: string) => masks.cases.find((c) => c.name === name)!.allowedFraction;
  const heads = core.headsDemo();
  return {
    ...buildTimeNumbers(),
    ...scaleSweepNumbers(sweepOf(core)),
    'masks.positions': masks.positions,
    'masks.real': masks.real,
    'masks.causal': fraction('causal'),
    'masks.padding': fraction('padding'),
    'masks.both': fraction('both'),
    'masks.maxBlocked': Math.max(...masks.cases.map((c) => c.maxBlockedWeight)),
    'heads.params4': heads.multi.parameterCount,
    'heads.params1': heads.single.parameterCount,
  };
}

let cached: LiveNumbers | undefined;

export function getLiveNumbers(core: Core): LiveNumbers {
  cached ??= computeLiveNumbers(core);
  return cached;
}
