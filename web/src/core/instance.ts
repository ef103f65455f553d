// The page's core, loaded on first use and shared by every widget: the whole core (loadCore) for
// the widgets that need the experiments or the trainer, and for those that need only attention
// the attention core (loadAttentionCore, a smaller module), unless the whole one is there or
// coming already (cores-coming.ts).
import { coresComing } from './cores-coming.js';
import { loadAttentionCore, loadCore } from './load.js';
import type { AttentionCore, Configs, Core } from './types.js';

let whole: Promise<Core> | undefined;
let attentionOnly: Promise<AttentionCore> | undefined;
let configs: Configs | undefined;

/** Keeps the configs of the first core that loads (both modules export the same). */
function keepConfigs<T extends AttentionCore>(loading: Promise<T>): Promise<T> {
  return loading.then((core) => {
    configs ??= core.configs;
    return core;
  });
}

export function getCore(): Promise<Core> {
  coresComing.add('whole');
  whole ??= keepConfigs(loadCore());
  return whole;
}

export function getAttentionCore(): Promise<AttentionCore> {
  if (coresComing.has('whole')) return getCore(); // getCore() marks it coming too
  coresComing.add('attention');
  return (attentionOnly ??= keepConfigs(loadAttentionCore()));
}

/** The core's configs once either core has loaded on this page (by a widget or the page itself), else undefined. */
export function loadedConfigs(): Configs | undefined {
  return configs;
}
