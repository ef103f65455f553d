// The scale sweep as the widgets show it: table rows and figure points. The numbers all come
// from core.scaleSweep() (remembered: common/sweep-cache.ts); this file only reshapes them.
import type { ScaleSweep } from '../../core';
import type { Messages } from '../../common/messages';
export { sweepOf } from '../../common/sweep-cache';
/** The sweep catalog (column labels): listed in the messages of a widget that shows the sweep's table. */
export { default as sweepMessages } from 'attn-messages:sweep';

/**
 * The draws a reader chose for the core's default sweep on this page (a ranked table's
 * Recompute, or its saved setting), announced as DEFAULT_SWEEP_EVENT, which bubbles from the
 * widget that chose them to the document: every figure of the default sweep then shows that same
 * measurement.
 */
export const DEFAULT_SWEEP_EVENT = 'attn-default-sweep-draws';
let chosenDraws: number | undefined;

export function chooseDefaultSweepDraws(draws: number, chooser: HTMLElement): void {
  if (draws === chosenDraws) return;
  chosenDraws = draws;
  chooser.dispatchEvent(new CustomEvent(DEFAULT_SWEEP_EVENT, { bubbles: true }));
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

/** The sweep as a table, its column labels in the language of `messages` (the sweep catalog's). */
export function scaleSweepTable(sweep: ScaleSweep, messages: Messages): TableData {
  return {
    columns: [
      { key: 'dk', label: 'd_k' },
      { key: 'maxUnscaled', label: messages.text('maxUnscaled'), digits: 4 },
      { key: 'maxScaled', label: messages.text('maxScaled'), digits: 4 },
      { key: 'entropyUnscaled', label: messages.text('entropyUnscaled'), digits: 4 },
      { key: 'entropyScaled', label: messages.text('entropyScaled'), digits: 4 },
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
