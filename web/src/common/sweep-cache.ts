// The core's scale sweep, remembered: the lesson's prose, its figures, its table and the
// exercises ask for the same sweep, and it is the page's most expensive call.
import { withDefaults, type Core, type ScaleSweep, type ScaleSweepConfig } from '../core';

const sweeps = new Map<string, ScaleSweep>();

const keyOf = ({ dks, draws, tokens, seed }: ScaleSweepConfig) => JSON.stringify([dks, draws, tokens, seed]);

function remember(key: string, sweep: ScaleSweep): ScaleSweep {
  if (sweeps.size >= 8) sweeps.delete(sweeps.keys().next().value!);
  sweeps.set(key, sweep);
  return sweep;
}

/** core.scaleSweep, remembered. Options left out take the core's defaults (the lesson's sweep). */
export function sweepOf(core: Core, options: Partial<ScaleSweepConfig> = {}): ScaleSweep {
  const { dks, draws, tokens, seed } = withDefaults(core.configs.scaleSweep.defaults, options);
  const key = keyOf({ dks, draws, tokens, seed });
  return sweeps.get(key) ?? remember(key, core.scaleSweep({ dks, draws, tokens, seed }));
}

/** Remembers `sweep`, the core's sweep with `config`, computed elsewhere (the lesson's numbers Worker). */
export function keepSweep(config: ScaleSweepConfig, sweep: ScaleSweep): void {
  remember(keyOf(config), sweep);
}

/**
 * sweepOf, computed one d_k at a time with `between()` awaited after each, so that the page can
 * paint and answer input in between. The rows are those of the whole sweep: the core draws each
 * d_k's matrices from a generator seeded by the seed and that d_k alone.
 */
export async function sweepInParts(
  core: Core,
  between: () => Promise<void>,
  options: Partial<ScaleSweepConfig> = {},
): Promise<ScaleSweep> {
  const { dks, draws, tokens, seed } = withDefaults(core.configs.scaleSweep.defaults, options);
  const key = keyOf({ dks, draws, tokens, seed });
  const known = sweeps.get(key);
  if (known || !dks.length) return known ?? sweepOf(core, options);
  const parts: ScaleSweep[] = [];
  for (const dk of dks) {
    parts.push(core.scaleSweep({ dks: [dk], draws, tokens, seed }));
    await between();
  }
  return remember(key, { ...parts[0], rows: parts.flatMap((part) => part.rows) });
}
