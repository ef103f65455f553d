// Messages between the page and the training Worker (training-worker.ts), and the check every
// incoming request goes through: the Worker acts only on well-formed requests.
import type { CueAnalysis, CueEpoch } from './core';

export const MAX_EPOCHS = 1000;
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

export type TrainerRequest =
  | { type: 'train'; runId: number; seed: number; epochs: number }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'cancel' }
  | { type: 'memory' };

export type TrainerReply =
  | { type: 'ready' }
  | { type: 'started'; runId: number; model: number; parameterCount: number; baseline: number; chance: number; batchesPerEpoch: number; epochs: number }
  | { type: 'progress'; runId: number; model: number; epoch: number; batch: number; batchesPerEpoch: number; epochs: number; heapBytes: number }
  | { type: 'epoch'; runId: number; model: number; record: CueEpoch; best: number }
  | { type: 'finished'; runId: number; model: number; analysis: CueAnalysis; bestEpoch: number; best: number }
  | { type: 'cancelled'; runId: number }
  | { type: 'memory'; heapBytes: number; liveAllocations: number; training: boolean }
  | { type: 'error'; runId?: number; message: string };

const whole = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The request, or {error} saying what is wrong with it. */
export function parseRequest(data: unknown): TrainerRequest | { error: string } {
  if (typeof data !== 'object' || data === null) return { error: 'a request must be an object with a "type"' };
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'train':
      if (!whole(m.runId, 0, MAX_SEED)) return { error: 'train: runId must be a whole number' };
      if (!whole(m.seed, 0, MAX_SEED)) return { error: `train: seed must be a whole number from 0 to ${MAX_SEED}` };
      if (!whole(m.epochs, 1, MAX_EPOCHS)) return { error: `train: epochs must be a whole number from 1 to ${MAX_EPOCHS}` };
      return { type: 'train', runId: m.runId, seed: m.seed, epochs: m.epochs };
    case 'pause':
    case 'resume':
    case 'cancel':
    case 'memory':
      return { type: m.type };
    default:
      return { error: `unknown request type ${JSON.stringify(String(m.type)).slice(0, 40)}` };
  }
}
