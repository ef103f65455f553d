// The numbers the lesson's prose and quiz quote, computed by the core when the page loads
// (or, for the PyTorch cross-check and the recorded training runs, by the native core at build
// time: scripts/build writes those files into generated/). Every experiment runs at the core's
// defaults, which are the lesson's settings. The run.* numbers describe the cue-task run shown
// in the trainer (recorded, then the reader's own: shown-run.ts updates them). What a route's
// tests measured is the core's (CueRoute); this file only names it.
import type { Core, CueAnalysis, CueEpoch, CueRoute } from '../../core';
import type { ScaleSweep } from '../../core';
import type { LiveNumbers } from '../../common/live-format';
import { sourceFigures } from './source-figures';
import { firstBlockMove, readOffset, strongestAt } from '../../common/cue-readings';
import {
  oneBlockHeadRuns,
  oneBlockRuns,
  otherSeedRuns,
  recordedCueRuns,
  type RecordedRun,
} from '../../common/recorded-runs';
import { sweepInParts, sweepOf } from '../../common/sweep-cache';

/** What `attention-lab reference --json` writes (cli/cmd_reference.cpp). */
interface ReferenceReport {
  cases: { outputMaxAbsDiff: number; weightsMaxAbsDiff: number }[];
}
const reference = import.meta.glob<ReferenceReport>('../../generated/reference.json', {
  eager: true,
  import: 'default',
})['../../generated/reference.json'];

/** The figures of a run the page's words describe, as `prefix`.* numbers (run.*: shown-run.ts). */
export function runNumbers(run: { seed: number; analysis: CueAnalysis; route: CueRoute }, prefix = 'run'): LiveNumbers {
  const { analysis, route } = run;
  const numbers: LiveNumbers = {
    seed: run.seed,
    share: strongestAt(analysis, readOffset(route.label)),
    first: firstBlockMove(analysis, route.label),
    answerToCue: Math.max(...Array.from(analysis.firstBlockAnswerToCue)),
    cueOffset: strongestAt(analysis, -1),
    answerOffset: strongestAt(analysis, 0),
    bodyOnCue: Math.max(...Array.from(analysis.firstCue[0])),
    bodyOnPrevious: Math.max(...Array.from(analysis.previousToken[0])),
    clean: route.cleanAccuracy,
    next: route.nextAccuracy,
    previous: route.previousAccuracy,
    firstCue: route.firstCueAccuracy,
    knocked: route.knockedAccuracy,
    solvedAt: route.solvedAt,
    keepsShare: route.keepsShare,
  };
  return Object.fromEntries(Object.entries(numbers).map(([key, value]) => [`${prefix}.${key}`, value]));
}

/** Live numbers named sweep.<measure>.<d_k>, as the lesson text uses them. */
export function scaleSweepNumbers(sweep: ScaleSweep): Record<string, number> {
  const numbers: Record<string, number> = {
    'sweep.draws': sweep.draws,
    'sweep.tokens': sweep.tokens,
    'sweep.uniformWeight': sweep.uniform.maxWeight,
    'sweep.uniformEntropy': sweep.uniform.entropy,
  };
  for (const r of sweep.rows) {
    numbers[`sweep.maxUnscaled.${r.dk}`] = r.unscaled.maxWeight.mean;
    numbers[`sweep.maxScaled.${r.dk}`] = r.scaled.maxWeight.mean;
    numbers[`sweep.entropyUnscaled.${r.dk}`] = r.unscaled.entropy.mean;
    numbers[`sweep.entropyScaled.${r.dk}`] = r.scaled.entropy.mean;
    numbers[`sweep.jacobianUnscaled.${r.dk}`] = r.unscaled.jacobianNorm.mean;
    numbers[`sweep.jacobianScaled.${r.dk}`] = r.scaled.jacobianNorm.mean;
  }
  return numbers;
}

/**
 * How a validation curve rises: the climb starts at the first epoch more than 0.1 above the
 * most-frequent-symbol baseline and ends at the first epoch at 0.95 or more.
 */
function climbNumbers(prefix: string, history: CueEpoch[], baseline: number): LiveNumbers {
  const start = history.findIndex((e) => e.validationAccuracy > baseline + 0.1);
  const end = history.findIndex((e) => e.validationAccuracy >= 0.95);
  if (start < 0 || end < start) return {};
  return {
    [`${prefix}.plateauEpochs`]: start,
    [`${prefix}.plateauMax`]: Math.max(...history.slice(0, start).map((e) => e.validationAccuracy)),
    [`${prefix}.climbStart`]: start + 1,
    [`${prefix}.climbFrom`]: history[start].validationAccuracy,
    [`${prefix}.climbEnd`]: end + 1,
    [`${prefix}.climbTo`]: history[end].validationAccuracy,
    [`${prefix}.climbEpochs`]: end - start + 1,
  };
}

/** The first epoch after which some last-block head put half of its weight on the earlier cue (attention only). */
function midJumpNumbers(run: RecordedRun): LiveNumbers {
  const trace = run.analysisHistory ?? [];
  const at = trace.findIndex((a) => strongestAt(a, -1) >= 0.5);
  if (at < 0) return {};
  return {
    'cue.midJumpEpoch': at + 1,
    'cue.midJumpShare': strongestAt(trace[at], -1),
    'cue.midJumpAccuracy': run.history[at].validationAccuracy,
  };
}

function recordedNumbers(): LiveNumbers {
  const runs = recordedCueRuns();
  if (!runs) return {};
  const [one, two] = runs;
  return {
    'cue.params1': one.parameterCount,
    'cue.params2': two.parameterCount,
    'cue.best1': one.bestValidationAccuracy,
    'cue.best2': two.bestValidationAccuracy,
    'cue.baseline': two.baselineAccuracy,
    'cue.chance': two.chanceAccuracy,
    'cue.seed': two.config.seed,
    'cue.epochs': two.config.epochs,
    'cue.finalShare': strongestAt(two.analysis, -1),
    'cue.first': firstBlockMove(two.analysis, 'cue-position'),
    ...climbNumbers('cue', two.history, two.baselineAccuracy),
    ...midJumpNumbers(two),
    ...runNumbers({ seed: two.config.seed, analysis: two.analysis, route: two.route }),
  };
}

/**
 * The recorded 2-block runs on other seeds: other.* for the cue-broadcast run, induction.* for
 * the answer-position run (a previous-token head and an induction head).
 */
function otherRouteNumbers(): LiveNumbers {
  const numbers: LiveNumbers = {};
  for (const [prefix, label] of [
    ['other', 'cue-broadcast'],
    ['induction', 'answer-position'],
  ] as const) {
    const run = otherSeedRuns().find((r) => r.route.label === label);
    if (!run) continue;
    Object.assign(
      numbers,
      runNumbers({ seed: run.config.seed, analysis: run.analysis, route: run.route }, prefix),
      climbNumbers(prefix, run.history, run.baselineAccuracy),
    );
  }
  return numbers;
}

/** One block on other seeds (same settings as the recorded run), and with more heads or epochs. */
function oneBlockNumbers(): LiveNumbers {
  const runs = oneBlockRuns();
  const recorded = recordedCueRuns()?.[0].config;
  const numbers: LiveNumbers = {};
  const seeds = runs.filter(
    (r) => recorded && r.config.heads === recorded.heads && r.config.epochs === recorded.epochs,
  );
  if (seeds.length) {
    const of = (f: (r: (typeof seeds)[number]) => number) => seeds.map(f);
    Object.assign(numbers, {
      'seeds.count': seeds.length,
      'seeds.from': Math.min(...of((r) => r.config.seed)),
      'seeds.to': Math.max(...of((r) => r.config.seed)),
      'seeds.best1Min': Math.min(...of((r) => r.best)),
      'seeds.best1Max': Math.max(...of((r) => r.best)),
      'seeds.baselineMin': Math.min(...of((r) => r.baseline)),
      'seeds.baselineMax': Math.max(...of((r) => r.baseline)),
      'seeds.marginMin': Math.min(...of((r) => r.best - r.baseline)),
      'seeds.marginMax': Math.max(...of((r) => r.best - r.baseline)),
    });
  }
  // Per number of heads, the longest run.
  for (const run of runs) {
    const key = `oneBlock.heads${run.config.heads}`;
    if ((numbers[`${key}.epochs`] ?? 0) >= run.config.epochs) continue;
    Object.assign(numbers, {
      [`${key}.heads`]: run.config.heads,
      [`${key}.epochs`]: run.config.epochs,
      [`${key}.best`]: run.best,
      [`${key}.bestEpoch`]: run.bestEpoch,
    });
  }
  return numbers;
}

function buildTimeNumbers(): LiveNumbers {
  const numbers: LiveNumbers = {};
  if (reference?.cases?.length) {
    numbers['reference.output'] = Math.max(...reference.cases.map((c) => c.outputMaxAbsDiff));
    numbers['reference.weights'] = Math.max(...reference.cases.map((c) => c.weightsMaxAbsDiff));
  }
  return { ...numbers, ...recordedNumbers(), ...otherRouteNumbers(), ...oneBlockNumbers() };
}

/** The source lesson's figures, and how far the core's measurements are from them in standard errors. */
function sourceNumbers(core: Core): LiveNumbers {
  const numbers: LiveNumbers = {
    'source.best1': sourceFigures.best1,
    'source.best2': sourceFigures.best2,
    'source.cueShare': sourceFigures.cueShare,
  };
  for (const row of sweepOf(core).rows) {
    const source = sourceFigures.maxUnscaled[row.dk];
    const { mean, standardError } = row.unscaled.maxWeight;
    numbers[`sweep.maxUnscaledSe.${row.dk}`] = standardError;
    if (source === undefined) continue;
    numbers[`source.maxUnscaled.${row.dk}`] = source;
    numbers[`source.gapSe.${row.dk}`] = Math.abs(mean - source) / standardError;
  }
  return numbers;
}

/**
 * Attention has no notion of order: the same tokens in reverse order give the same outputs in
 * reverse order. The largest difference the core leaves between the two (float32 rounding).
 */
function permutationGap(core: Core): number {
  const x = core.random(0).normalMatrix(6, 4);
  const reversed = { rows: x.rows, cols: x.cols, data: new Float32Array(x.data.length) };
  for (let i = 0; i < x.rows; i++)
    reversed.data.set(x.data.subarray((x.rows - 1 - i) * x.cols, (x.rows - i) * x.cols), i * x.cols);
  const out = core.attention(x, x, x).output,
    back = core.attention(reversed, reversed, reversed).output;
  let gap = 0;
  for (let i = 0; i < x.rows; i++)
    for (let j = 0; j < x.cols; j++)
      gap = Math.max(gap, Math.abs(back.data[i * x.cols + j] - out.data[(x.rows - 1 - i) * x.cols + j]));
  return gap;
}

function maskNumbers(core: Core): LiveNumbers {
  const masks = core.maskDemo();
  const fraction = (name: string) => masks.cases.find((c) => c.name === name)!.allowedFraction;
  return {
    'masks.positions': masks.positions,
    'masks.real': masks.real,
    'masks.causal': fraction('causal'),
    'masks.padding': fraction('padding'),
    'masks.both': fraction('both'),
    'masks.maxBlocked': Math.max(...masks.cases.map((c) => c.maxBlockedWeight)),
  };
}

function headsNumbers(core: Core): LiveNumbers {
  const heads = core.headsDemo();
  return {
    'heads.params4': heads.multi.parameterCount,
    'heads.params1': heads.single.parameterCount,
    'heads.numHeads': heads.multi.numHeads,
    'heads.keyDim': heads.multi.keyDim,
    'heads.dModel': heads.dModel,
    'heads.tokens': heads.tokens,
    'heads.scoresMulti': heads.multi.numHeads * heads.tokens * heads.tokens,
    'heads.scoresSingle': heads.tokens * heads.tokens,
    'heads.maxWeightMin': Math.min(...heads.multi.meanMaxWeight),
    'heads.maxWeightMax': Math.max(...heads.multi.meanMaxWeight),
    'heads.uniform': 1 / heads.tokens,
  };
}

function pitfallNumbers(core: Core): LiveNumbers {
  const pitfall = core.halfPrecisionPitfall();
  const pitfallCase = (precision: string, constant: string) =>
    pitfall.cases.find((c) => c.precision === precision && c.constant === constant)!;
  const fullRow = pitfall.fullyMaskedRows[0];
  return {
    'pitfall.positions': pitfall.positions,
    'pitfall.float16Max': -pitfallCase('float16', 'lowest').stored,
    'pitfall.uniformWeight': pitfallCase('float32', '-1e9').weights[fullRow * pitfall.positions],
  };
}

/** The page's numbers in parts of a few core calls each. */
const PARTS: ((core: Core) => LiveNumbers)[] = [
  buildTimeNumbers,
  (core) => ({ ...scaleSweepNumbers(sweepOf(core)), ...sourceNumbers(core) }),
  (core) => ({ 'position.permutationGap': permutationGap(core) }),
  maskNumbers,
  headsNumbers,
  pitfallNumbers,
  lessonTextNumbers,
];

export function computeLiveNumbers(core: Core): LiveNumbers {
  return Object.assign({}, ...PARTS.map((part) => part(core)));
}

let cached: LiveNumbers | undefined;

/** The page's numbers, computed once; the object is updated in place when the shown run changes. */
export function getLiveNumbers(core: Core): LiveNumbers {
  cached ??= computeLiveNumbers(core);
  return cached;
}

/**
 * getLiveNumbers, computed a part at a time (the scale sweep a d_k at a time) with `between()`
 * awaited after each, so that the page can paint and answer input in between.
 */
export async function getLiveNumbersInParts(core: Core, between: () => Promise<void>): Promise<LiveNumbers> {
  if (cached) return cached;
  await sweepInParts(core, between);
  const numbers: LiveNumbers = {};
  for (const part of PARTS) {
    Object.assign(numbers, part(core));
    await between();
  }
  cached ??= numbers;
  return cached;
}

/** Makes `numbers` (computed elsewhere: the numbers Worker) the page's numbers, which updateLiveNumbers updates. */
export function keepLiveNumbers(numbers: LiveNumbers): void {
  cached = numbers;
}

/** Puts new values of some numbers into the page's numbers; returns all the page's numbers known. */
export function updateLiveNumbers(numbers: LiveNumbers): LiveNumbers {
  return cached ? Object.assign(cached, numbers) : numbers;
}

/**
 * The numbers of the lesson's explanations (issue 23): the tiny transformer's settings, how far
 * one block gets past the frequency baseline, the trained 8-head block whose heads specialise,
 * and where float16 rounding of a masking constant overflows.
 */
export function lessonTextNumbers(core: Core): LiveNumbers {
  const numbers: LiveNumbers = {};
  const runs = recordedCueRuns();
  if (runs) {
    const [one, two] = runs;
    Object.assign(numbers, {
      'model.dModel': two.config.dModel,
      'model.dFF': two.config.dFF,
      'model.dropoutPercent': Math.round(two.config.dropout * 100),
      'model.symbolMax': two.config.symbols - 1,
      'cue.best1Points': (one.bestValidationAccuracy - one.baselineAccuracy) * 100,
    });
  }
  // The longest recorded 1-block run of one head, against its own baseline.
  const single = oneBlockHeadRuns(1)[0];
  if (single) numbers['oneBlock.heads1.baseline'] = single.baseline;
  // Trained heads specialise: the last (only) block's heads, each one's weight on the earlier CUE
  // (offset -1 from the answer) in the question's row, from the core's analysis.
  const eight = oneBlockHeadRuns(8)[0];
  if (eight) {
    const { offsets, lastBlockByOffset } = eight.analysis;
    const cue = Array.from(offsets).indexOf(-1);
    const onCue = Array.from(lastBlockByOffset, (head) => head[cue]);
    const top = onCue.indexOf(Math.max(...onCue));
    const others = onCue.filter((_, head) => head !== top).sort((a, b) => a - b);
    const middle = others.length >> 1;
    Object.assign(numbers, {
      'heads8.heads': eight.config.heads,
      'heads8.epochs': eight.config.epochs,
      'heads8.cueHead': top + 1,
      'heads8.cueShare': onCue[top],
      'heads8.others': others.length,
      'heads8.secondShare': others[others.length - 1],
      'heads8.othersMedian': others.length % 2 ? others[middle] : (others[middle - 1] + others[middle]) / 2,
    });
  }
  // float16 keeps 10 fraction bits below its largest finite value (2 - 2^-10) * 2^15; a number rounds
  // to infinity from half a step above it: the step at the top is 2^(15 - 10). Both read off the
  // largest finite value the core stored.
  const pitfall = core.halfPrecisionPitfall();
  const lowest = pitfall.cases.find((c) => c.precision === 'float16' && c.constant === 'lowest');
  if (lowest && Number.isFinite(lowest.stored)) {
    const max = -lowest.stored;
    const exponent = Math.floor(Math.log2(max));
    const fractionBits = -Math.log2(2 - max / 2 ** exponent);
    const halfStep = 2 ** (exponent - fractionBits) / 2;
    numbers['half.overflowAt'] = max + halfStep;
    numbers['half.overflowMargin'] = halfStep;
  }
  return numbers;
}
