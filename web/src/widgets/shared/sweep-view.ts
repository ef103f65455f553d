// The scale sweep as the page shows it: table rows, figure points and live numbers. The
// numbers all come from core.scaleSweep(); this file only reshapes them.
import { withDefaults, type Core, type ScaleSweep, type ScaleSweepConfig } from '../../core';

const sweeps = new Map<string, ScaleSweep>();

/**
 * core.scaleSweep, remembered: the prose, the figure, the table and the exercises ask for the
 * same sweep, and it is the page's most expensive call. Options left out take the core's
 * defaults (the lesson's sweep).
 */
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

/**
 * The draws a reader chose for the core's default sweep on this page (a ranked table's
 * Recompute, or its saved setting), announced on the document as DEFAULT_SWEEP_EVENT: every
 * figure of the default sweep then shows that same measurement.
 */
export const DEFAULT_SWEEP_EVENT = 'attn-default-sweep-draws';
let chosenDraws: number | undefined;

export function chooseDefaultSweepDraws(draws: number): void {
  if (draws === chosenDraws) return;
  chosenDraws = draws;
  document.dispatchEvent(new CustomEvent(DEFAULT_SWEEP_EVENT));
}

export function defaultSweepDraws(): number | undefined {
  return chosenDraws;
}

/** A table as <attn-ranked-table> takes it (schemas/table.schema.json describes the format). */
export interface TableColumn {
  key: string;
  label: string;
  digits?: number;
}
export interface TableData {
  columns: TableColumn[];
  rows: Record<string, number | string | undefined>[];
}

export function scaleSweepTable(sweep: ScaleSweep): TableData {
  return {
    columns: [
      { key: 'dk', label: 'd_k' },
      { key: 'maxUnscaled', label: 'Max weight, unscaled', digits: 4 },
      { key: 'maxScaled', label: 'Max weight, scaled', digits: 4 },
      { key: 'entropyUnscaled', label: 'Entropy, unscaled', digits: 4 },
      { key: 'entropyScaled', label: 'Entropy, scaled', digits: 4 },
    ],
    rows: sweep.rows.map((r) => ({
      dk: r.dk,
      maxUnscaled: r.unscaled.maxWeight.mean,
      maxScaled: r.scaled.maxWeight.mean,
      entropyUnscaled: r.unscaled.entropy.mean,
      entropyScaled: r.scaled.entropy.mean,
    })),
  };
}

export interface SweepPoint {
  dk: number;
  scaling: 'unscaled' | 'scaled';
  measure: 'maxWeight' | 'entropy';
  mean: number;
  se: number;
}

export function scaleSweepPoints(sweep: ScaleSweep): SweepPoint[] {
  const points: SweepPoint[] = [];
  for (const r of sweep.rows)
    for (const scaling of ['unscaled', 'scaled'] as const)
      for (const measure of ['maxWeight', 'entropy'] as const) {
        const stat = r[scaling][measure];
        points.push({
          dk: r.dk,
          scaling,
          measure,
          mean: stat.mean,
          se: Number.isFinite(stat.standardError) ? stat.standardError : 0,
        });
      }
  return points;
}

/** Live numbers named sweep.<measure>.<d_k>, as the lesson text uses them. */
export function scaleSweepNumbers(sweep: ScaleSweep): Record<string, number> {
  const numbers: Record<string, number> = {
    'sweep.draws': sweep.draws,
    'sweep.tokens': sweep.tokens,
    'sweep.uniformWeight': sweep.uniform.maxWeight,
    'sweep.uniformEntropy': sweep.uniform.entropy,
  };
  for (const r of sweep.rows) {
    numbers[`sweep.maxUnscaled.${r.dk}`] = r.unscaled.maxWeight.mean;
    numbers[`sweep.maxScaled.${r.dk}`] = r.scaled.maxWeight.mean;
    numbers[`sweep.entropyUnscaled.${r.dk}`] = r.unscaled.entropy.mean;
    numbers[`sweep.entropyScaled.${r.dk}`] = r.scaled.entropy.mean;
    numbers[`sweep.jacobianUnscaled.${r.dk}`] = r.unscaled.jacobianNorm.mean;
    numbers[`sweep.jacobianScaled.${r.dk}`] = r.scaled.jacobianNorm.mean;
  }
  return numbers;
}
