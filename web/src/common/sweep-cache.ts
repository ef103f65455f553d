// The core's scale sweep, remembered: the lesson's prose, its figures, its table and the
// exercises ask for the same sweep, and it is the page's most expensive call.
import { withDefaults, type Core, type ScaleSweep, type ScaleSweepConfig } from '../core';

const sweeps = new Map<string, ScaleSweep>();

/** core.scaleSweep, remembered. Options left out take the core's defaults (the lesson's sweep). */
export function sweepOf(core: Core, options: Partial<ScaleSweepConfig> = {}): ScaleSweep {
  const { dks, draws, tokens, seed } = withDefaults(core.configs.scaleSweep.defaults, options);
  const key = JSON.stringify([dks, draws, tokens, seed]);
  let sweep = sweeps.get(key);
  if (!sweep) {
    sweep = core.scaleSweep({ dks, draws, tokens, seed });
    if (sweeps.size >= 8) sweeps.delete(sweeps.keys().next().value!);
    sweeps.set(key, sweep);
  }
  return sweep;
}
