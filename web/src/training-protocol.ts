// Messages between the page and the training Worker (training-worker.ts), and the check every
// incoming request goes through: the Worker acts only on well-formed requests. A run's config
// is checked by the core when the Worker builds the models (its message comes back as an
// error reply naming the option).
import type { CueAnalysis, CueConfig, CueEpoch } from './core';

export type TrainerRequest =
  /** wasmUrl: where the core's .wasm is, when the Worker cannot find it next to itself (bundled apart) */
  | { type: 'train'; runId: number; config: Partial<CueConfig>; wasmUrl?: string }
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
  | { type: 'memory'; heapBytes: number; usedBytes: number; training: boolean }
  | { type: 'error'; runId?: number; message: string };

/** The request, or {error} saying what is wrong with it. */
export function parseRequest(data: unknown): TrainerRequest | { error: string } {
  if (typeof data !== 'object' || data === null) return { error: 'a request must be an object with a "type"' };
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'train':
      if (!Number.isSafeInteger(m.runId) || (m.runId as number) < 0) return { error: 'train: runId must be a whole number' };
      if (typeof m.config !== 'object' || m.config === null || Array.isArray(m.config))
        return { error: 'train: config must be an object of training options' };
      if (m.wasmUrl !== undefined && (typeof m.wasmUrl !== 'string' || !/^(https?|blob):/.test(m.wasmUrl)))
        return { error: 'train: wasmUrl must be an http(s) or blob: address' };
      return { type: 'train', runId: m.runId as number, config: m.config as Partial<CueConfig>, ...(m.wasmUrl ? { wasmUrl: m.wasmUrl as string } : {}) };
    case 'pause':
    case 'resume':
    case 'cancel':
    case 'memory':
      return { type: m.type };
    default:
      return { error: `unknown request type ${JSON.stringify(String(m.type)).slice(0, 40)}` };
  }
}
