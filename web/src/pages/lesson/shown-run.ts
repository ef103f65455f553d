// The cue-task run the lesson's words describe: the trainer's recorded run, until the trainer
// says (attn-run-shown) that it shows another. Showing a run updates, in the lesson only, the
// run.* live numbers, which texts written for one route (data-when-route) are shown, and the route
// its flowcharts draw.
import type { CueAnalysis, CueRoute, CueRouteLabel } from '../../core';
import { recordedCueRuns } from '../../common/recorded-runs';
import { applyLiveNumbers } from '../../common/rich-text';
import { runNumbers, updateLiveNumbers } from './live-numbers';

let shown: CueRouteLabel = recordedCueRuns()?.[1].route.label ?? 'none';

/** The route of the run the lesson describes. */
export function shownRoute(): CueRouteLabel {
  return shown;
}

/** A node of the lesson shown only while `route` is the shown run's. */
export function routeVariant<T extends HTMLElement>(node: T, route: CueRouteLabel): T {
  node.dataset.whenRoute = route;
  node.hidden = route !== shown;
  return node;
}

/** Makes `lesson`'s words, and the flowcharts in it, describe `run`. */
export function showRun(lesson: HTMLElement, run: { seed: number; analysis: CueAnalysis; route: CueRoute }): void {
  applyLiveNumbers(lesson, updateLiveNumbers(runNumbers(run)));
  shown = run.route.label;
  for (const node of lesson.querySelectorAll<HTMLElement>('[data-when-route]'))
    node.hidden = node.dataset.whenRoute !== shown;
  for (const chart of lesson.querySelectorAll('attn-flowchart')) chart.setAttribute('route', shown);
}
