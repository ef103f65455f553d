// The cue-task run the page's words describe: the trainer's recorded run, then the reader's
// latest finished run. Showing one updates the run.* live numbers everywhere (prose, quiz,
// exercises) and the circuit-dependent texts and diagram (shown-circuit.ts).
import type { CueAnalysis } from '../../core';
import { runNumbers, updateLiveNumbers } from './live-numbers';
import { applyLiveNumbers } from './rich-text';
import { showCircuit } from './shown-circuit';

export function showRun(run: { seed: number; analysis: CueAnalysis }): void {
  applyLiveNumbers(document, updateLiveNumbers(runNumbers(run)));
  showCircuit(run.analysis.circuit);
}
