// The cue-task run the page's words describe: the trainer's recorded run, then the reader's
// latest finished run. Showing one updates the run.* live numbers everywhere (prose, quiz,
// exercises) and the route-dependent texts and diagram (shown-route.ts).
import type { CueAnalysis, CueRoute } from '../../core';
import { runNumbers, updateLiveNumbers } from './live-numbers';
import { applyLiveNumbers } from './rich-text';
import { showRoute } from './shown-route';

export function showRun(run: { seed: number; analysis: CueAnalysis; route: CueRoute }): void {
  applyLiveNumbers(document, updateLiveNumbers(runNumbers(run)));
  showRoute(run.route.label);
}
