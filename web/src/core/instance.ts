// The page's core, loaded on first use and shared by every widget: the whole core (loadCore) for
// the widgets that need the experiments or the trainer, and for those that need only attention
// the attention core (loadAttentionCore, a smaller module), unless the whole one is there already.
import { loadAttentionCore, loadCore } from './load.js';
import type { AttentionCore, Core } from './types.js';

let whole: Promise<Core> | undefined;
let attentionOnly: Promise<AttentionCore> | undefined;

export function getCore(): Promise<Core> {
  whole ??= loadCore();
  return whole;
}

export function getAttentionCore(): Promise<AttentionCore> {
  return whole ?? (attentionOnly ??= loadAttentionCore());
}
