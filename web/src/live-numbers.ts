// The numbers the lesson's prose and quiz quote, computed by the core when the page loads
// (or, for the PyTorch cross-check and the recorded training run, by the native core at build
// time: those files are written by scripts/build into generated/).
import type { Core } from './core';
import type { LiveNumbers } from './format';
import { scaleSweepNumbers } from './sweep-view';

// Build-time results; absent files simply leave their numbers missing.
const generated = import.meta.glob<{ default: unknown }>('./generated/*.json', { eager: true });

interface ReferenceReport { cases: { output_max_abs_diff: number; weights_max_abs_diff: number }[] }
interface CueRun { parameters: number; best_accuracy: number; baseline: number; chance: number; offsets?: { offset: number; mean: number }[] }

function buildTimeNumbers(): LiveNumbers {
  const numbers: LiveNumbers = {};
  const reference = generated['./generated/reference.json']?.default as ReferenceReport | undefined;
  if (reference?.cases?.length) {
    numbers['reference.output'] = Math.max(...reference.cases.map((c) => c.output_max_abs_diff));
    numbers['reference.weights'] = Math.max(...reference.cases.map((c) => c.weights_max_abs_diff));
  }
  const one = generated['./generated/cue-1block.json']?.default as CueRun | undefined;
  const two = generated['./generated/cue-2block.json']?.default as CueRun | undefined;
  if (one && two) {
    Object.assign(numbers, {
      'cue.params1': one.parameters, 'cue.params2': two.parameters,
      'cue.best1': one.best_accuracy, 'cue.best2': two.best_accuracy,
      'cue.baseline': two.baseline, 'cue.chance': two.chance,
    });
    const cue = two.offsets?.find((o) => o.offset === -1);
    if (cue) numbers['cue.cueShare'] = cue.mean;
  }
  return numbers;
}

export function computeLiveNumbers(core: Core): LiveNumbers {
  const masks = core.maskDemo({ positions: 10, real: 6, seed: 0 });
  const fraction = (name: string) => masks.cases.find((c) => c.name === name)!.allowedFraction;
  return {
    ...buildTimeNumbers(),
    ...scaleSweepNumbers(core.scaleSweep({ dks: [4, 16, 64, 256], draws: 200, tokens: 12, seed: 0 })),
    'masks.positions': masks.positions,
    'masks.real': masks.real,
    'masks.causal': fraction('causal'),
    'masks.padding': fraction('padding'),
    'masks.both': fraction('both'),
    'masks.maxBlocked': Math.max(...masks.cases.map((c) => c.maxBlockedWeight)),
    'heads.params4': core.parameterCount({ dModel: 64, numHeads: 4 }),
    'heads.params1': core.parameterCount({ dModel: 64, numHeads: 1 }),
  };
}

let cached: LiveNumbers | undefined;

export function getLiveNumbers(core: Core): LiveNumbers {
  cached ??= computeLiveNumbers(core);
  return cached;
}
