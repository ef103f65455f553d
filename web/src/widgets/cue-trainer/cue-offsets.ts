// Readings of the core's CueAnalysis that the trainer's text and the lesson's numbers share.
import type { CueAnalysis } from '../../core';

/** The strongest last-block head's weight at `offset` from the answer (the analysis's rule reads the same). */
export function strongestAt(analysis: CueAnalysis, offset: number): number {
  const at = Array.from(analysis.offsets).indexOf(offset);
  return Math.max(...analysis.lastBlockByOffset.map((head) => head[at]));
}

/** The first block's strongest head on the move each route needs: cue onto answer, or answer onto cue. */
export function firstBlockMove(analysis: CueAnalysis, circuit: 'cue' | 'answer'): number {
  return Math.max(...Array.from(circuit === 'cue' ? analysis.firstBlockCueToAnswer : analysis.firstBlockAnswerToCue));
}
