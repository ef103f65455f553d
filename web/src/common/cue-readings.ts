// Readings of the core's CueAnalysis (where a trained cue model looks) that the trainer's text and
// the lesson's numbers share. What the route's tests measured needs no reading: the core's
// CueRoute states it (knockedHead, nextAccuracy, ...; core/include/attn/cue/intervene.hpp).
import type { CueAnalysis, CueRouteLabel } from '../core';

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
