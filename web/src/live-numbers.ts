// The numbers the lesson's prose and quiz quote, computed by the core when the page loads
// (or, for the PyTorch cross-check and the recorded training run, by the native core at build
// time: those files are written by scripts/build into generated/).
import type { Core } from './core';
import type { LiveNumbers } from './format';
import { DEFAULT_SWEEP, scaleSweepNumbers, sweepOf } from './sweep-view';

// Build-time results; absent files simply leave their numbers missing.
const generated = import.meta.glob<{ default: unknown }>('./generated/*.json', { eager: true });

interface ReferenceReport { cases: { output_max_abs_diff: number; weights_max_abs_diff: number }[] }
/** What `attention-lab cue --json` writes (cli/cmd_cue.cpp). */
export interface CueRun {
  seed: number;
  config: { blocks: number; epochs: number };
  parameters: number;
  chance: number;
  baseline_most_frequent: number;
  best_validation_accuracy: number;
  epochs: { epoch: number; validation_accuracy: number; validation_loss: number; train_loss: number }[];
  attention: { offsets: number[]; last_block_by_offset: number[][]; first_block_cue_to_next: number[]; circuit: string };
}

/** The recorded runs of the 1-block and the 2-block model, if this build has them. */
export function recordedCueRuns(): [CueRun, CueRun] | undefined {
  const one = generated['./generated/cue-1block.json']?.default as CueRun | undefined;
  const two = generated['./generated/cue-2block.json']?.default as CueRun | undefined;
  return one && two ? [one, two] : undefined;
}

function buildTimeNumbers(): LiveNumbers {
  const numbers: LiveNumbers = {};
  const reference = generated['./generated/reference.json']?.default as ReferenceReport | undefined;
  if (reference?.cases?.length) {
    numbers['reference.output'] = Math.max(...reference.cases.map((c) => c.output_max_abs_diff));
    numbers['reference.weights'] = Math.max(...reference.cases.map((c) => c.weights_max_abs_diff));
  }
  const runs = recordedCueRuns();
  if (runs) {
    const [one, two] = runs;
    Object.assign(numbers, {
      'cue.params1': one.parameters, 'cue.params2': two.parameters,
      'cue.best1': one.best_validation_accuracy, 'cue.best2': two.best_validation_accuracy,
      'cue.baseline': two.baseline_most_frequent, 'cue.chance': two.chance,
    });
    // Share of the last block's attention (averaged over heads) on offset -1, the earlier cue.
    const at = two.attention.offsets.indexOf(-1);
    const heads = two.attention.last_block_by_offset;
    if (at >= 0 && heads.length) numbers['cue.cueShare'] = heads.reduce((sum, h) => sum + h[at], 0) / heads.length;
  }
  return numbers;
}

/** Parameters of a multi-head layer, as the core counts them. */
export function parameterCount(core: Core, dModel: number, numHeads: number): number {
  const layer = core.createMultiHead({ dModel, numHeads, weights: { seed: 0 } });
  try {
    return layer.parameterCount;
  } finally {
    layer.dispose();
  }
}

export function computeLiveNumbers(core: Core): LiveNumbers {
  const masks = core.maskDemo({ positions: 10, real: 6, seed: 0 });
  const fraction = (name: string) => masks.cases.find((c) => c.name === name)!.allowedFraction;
  return {
    ...buildTimeNumbers(),
    ...scaleSweepNumbers(sweepOf(core, DEFAULT_SWEEP)),
    'masks.positions': masks.positions,
    'masks.real': masks.real,
    'masks.causal': fraction('causal'),
    'masks.padding': fraction('padding'),
    'masks.both': fraction('both'),
    'masks.maxBlocked': Math.max(...masks.cases.map((c) => c.maxBlockedWeight)),
    'heads.params4': parameterCount(core, 64, 4),
    'heads.params1': parameterCount(core, 64, 1),
  };
}

let cached: LiveNumbers | undefined;

export function getLiveNumbers(core: Core): LiveNumbers {
  cached ??= computeLiveNumbers(core);
  return cached;
}
