// Which route the page's words describe: that of the cue-task run shown in the trainer (the
// recorded run until the reader's own run finishes; see shown-run.ts), as the core's
// interventions name it (core/include/attn/cue/intervene.hpp). Texts written for one route carry
// data-when-route and are hidden unless it is the shown one; widgets that draw per route (the
// flowchart) listen for ROUTE_EVENT.
import type { CueRoute, CueRouteLabel } from '../../core';

export const ROUTES: readonly CueRouteLabel[] = ['cue-position', 'answer-position', 'cue-broadcast', 'other', 'none'];
/** Dispatched on document when the shown route changes; detail: { route }. */
export const ROUTE_EVENT = 'attn-route-shown';

// The recorded 2-block run's route only (recorded-runs.ts has the runs; importing it here would
// put every run into every widget's bundle), if this build has it.
const recorded = import.meta.glob<CueRoute>('../../generated/cue-2block.json', { eager: true, import: 'route' });
let shown: CueRouteLabel = Object.values(recorded)[0]?.label ?? 'none';

export function shownRoute(): CueRouteLabel {
  return shown;
}

/** Shows the texts (and diagrams) of `route`, here and in everything rendered later. */
export function showRoute(route: CueRouteLabel): void {
  shown = route;
  for (const node of document.querySelectorAll<HTMLElement>('[data-when-route]'))
    node.hidden = node.dataset.whenRoute !== route;
  document.dispatchEvent(new CustomEvent(ROUTE_EVENT, { detail: { route } }));
}
