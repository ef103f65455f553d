// Readings of the core's CueAnalysis (attention) and CueRoute (interventions) that the trainer's
// text and the lesson's numbers share.
import type { CueAnalysis, CueRoute, CueRouteLabel } from '../../core';

/** The strongest last-block head's weight at `offset` from the answer. */
export function strongestAt(analysis: CueAnalysis, offset: number): number {
  const at = Array.from(analysis.offsets).indexOf(offset);
  return Math.max(...analysis.lastBlockByOffset.map((head) => head[at]));
}

/** The offset from the answer that the last block reads on a route: the earlier CUE (−1) or the answer (0). */
export function readOffset(label: CueRouteLabel): number {
  return label === 'cue-position' ? -1 : 0;
}

/**
 * Block 1's strongest head on the move a route rests on: the CUE onto the answer after it
 * (cue-position), the answer onto the CUE before it (answer-position), every position onto the
 * CUE (the others).
 */
export function firstBlockMove(analysis: CueAnalysis, label: CueRouteLabel): number {
  if (label === 'cue-position') return Math.max(...Array.from(analysis.firstBlockCueToAnswer));
  if (label === 'answer-position') return Math.max(...Array.from(analysis.firstBlockAnswerToCue));
  return Math.max(...Array.from(analysis.firstCue[0]));
}

/** What the route's tests measured, as the rule of core/include/attn/cue/intervene.hpp reads them. */
export interface RouteEvidence {
  clean: number;
  baseline: number;
  /** block 1's tested head with the ideal next-token, previous-token and first-CUE patterns */
  next: number;
  previous: number;
  firstCue: number;
  /** the block-1 head a knock-out tests for this route (1-based), and the accuracy without it */
  knockedHead: number;
  knocked: number;
  /** the last block's first head knocked out */
  lastKnocked: number;
}

export function routeEvidence(route: CueRoute, analysis: CueAnalysis): RouteEvidence {
  const accuracy = (action: string, pattern: string, block: number, head: number) =>
    route.tests.find((t) => t.action === action && t.pattern === pattern && t.block === block && t.head === head)
      ?.accuracy ?? NaN;
  const strongest = (weights: ArrayLike<number>) => {
    const list = Array.from(weights);
    return list.indexOf(Math.max(...list)) + 1;
  };
  const knockedHead =
    route.label === 'cue-position'
      ? strongest(analysis.firstBlockCueToAnswer)
      : route.label === 'answer-position'
        ? strongest(analysis.firstBlockAnswerToCue)
        : route.testedHead;
  const lastBlock = Math.max(...route.tests.map((t) => t.block));
  return {
    clean: route.cleanAccuracy,
    baseline: route.baselineAccuracy,
    next: accuracy('pattern', 'next', 1, route.testedHead),
    previous: accuracy('pattern', 'previous', 1, route.testedHead),
    firstCue: accuracy('pattern', 'first-cue', 1, route.testedHead),
    knockedHead,
    knocked: accuracy('knock-out', '', 1, knockedHead),
    lastKnocked: accuracy('knock-out', '', lastBlock, 1),
  };
}
