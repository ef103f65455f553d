// Which circuit the page's words describe: that of the cue-task run shown in the trainer (the
// recorded run until the reader's own run finishes; see shown-run.ts), as the core's analysis
// names it. Texts written for one circuit carry data-when-circuit and are hidden unless it is
// the shown one; widgets that draw per circuit (the flowchart) listen for CIRCUIT_EVENT.
import type { CueAnalysis } from '../../core';

export type Circuit = CueAnalysis['circuit'];
export const CIRCUITS: readonly Circuit[] = ['cue', 'answer', 'none'];
/** Dispatched on document when the shown circuit changes; detail: { circuit }. */
export const CIRCUIT_EVENT = 'attn-circuit-shown';

// The recorded 2-block run's analysis only (recorded-runs.ts has the runs; importing it here
// would put every run into every widget's bundle), if this build has it.
const recorded = import.meta.glob<CueAnalysis>('../../generated/cue-2block.json', { eager: true, import: 'analysis' });
let shown: Circuit = Object.values(recorded)[0]?.circuit ?? 'none';

export function shownCircuit(): Circuit {
  return shown;
}

/** Shows the texts (and diagrams) of `circuit`, here and in everything rendered later. */
export function showCircuit(circuit: Circuit): void {
  shown = circuit;
  for (const node of document.querySelectorAll<HTMLElement>('[data-when-circuit]'))
    node.hidden = node.dataset.whenCircuit !== circuit;
  document.dispatchEvent(new CustomEvent(CIRCUIT_EVENT, { detail: { circuit } }));
}
