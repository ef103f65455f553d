// Messages between the page and the training Worker (training-worker.ts), and the check every
// incoming request goes through: the Worker acts only on well-formed requests. A run's config
// is checked by the core when the Worker builds the models (its message comes back as an
// error reply naming the option), and so are a probe's tokens.
//
// A run trains the models its request names by their blocks (both by default): the trainer
// starts one Worker per model where the machine has two cores or more, one for both elsewhere.
// Replies name a model by its blocks too.
//
// A probe asks a trained model about one sequence: the recorded run's model (its weights are
// fetched the first time one is asked for) or the latest live run's (kept once that Worker's
// run has finished, until its next run starts: a probe never mixes two runs). The reply carries
// the core's CueProbe and how long the forward pass took in the Worker.
//
// An intervention (core/include/attn/cue/intervene.hpp) asks the same models: one head or block
// changed, the validation set and, given one, a sequence answered with and without the change.
// Its config's options are checked by the core (an error reply names the option), its lists here.
// The reply carries the core's CueIntervention and how long it took in the Worker.
import type {
  CueAnalysis,
  CueConfig,
  CueEpoch,
  CueIntervention,
  CueProbe,
  CueRoute,
  InterventionConfig,
} from '../core';

/** Which trained model a probe asks: the 1-block or the 2-block one, of the recorded or the latest live run. */
export interface ProbeTarget {
  source: 'recorded' | 'live';
  blocks: ModelBlocks;
}

/** A model of the cue task, named by its blocks. */
export type ModelBlocks = 1 | 2;
export const BOTH_MODELS: readonly ModelBlocks[] = [1, 2];

export type TrainerRequest =
  /**
   * wasmUrl (train, probe, intervene): where the core's .wasm is, when the Worker cannot find it
   * next to itself (bundled apart); weightsUrl (probe, intervene of the recorded run): where its
   * model's trained weights are, likewise; models: which to train (default both)
   */
  | { type: 'train'; runId: number; config: Partial<CueConfig>; models?: ModelBlocks[]; wasmUrl?: string }
  | { type: 'probe'; requestId: number; target: ProbeTarget; tokens: number[]; wasmUrl?: string; weightsUrl?: string }
  | {
      type: 'intervene';
      requestId: number;
      target: ProbeTarget;
      config: Partial<InterventionConfig>;
      inputs: InterventionLists;
      wasmUrl?: string;
      weightsUrl?: string;
    }
  /** loads what probes of `target` need (the core, the model with its weights) ahead of the first; answered by prepared */
  | { type: 'prepare'; requestId: number; target: ProbeTarget; wasmUrl?: string; weightsUrl?: string }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'cancel' }
  | { type: 'memory' };

export type TrainerReply =
  | { type: 'ready' }
  | {
      type: 'started';
      runId: number;
      model: number;
      parameterCount: number;
      baseline: number;
      chance: number;
      batchesPerEpoch: number;
      epochs: number;
    }
  | {
      type: 'progress';
      runId: number;
      model: number;
      epoch: number;
      batch: number;
      batchesPerEpoch: number;
      epochs: number;
      heapBytes: number;
    }
  | { type: 'epoch'; runId: number; model: number; record: CueEpoch; best: number }
  | {
      type: 'finished';
      runId: number;
      model: number;
      analysis: CueAnalysis;
      route: CueRoute;
      bestEpoch: number;
      best: number;
    }
  | { type: 'cancelled'; runId: number }
  | { type: 'memory'; heapBytes: number; usedBytes: number; training: boolean }
  | { type: 'probe'; requestId: number; target: ProbeTarget; probe: CueProbe; forwardMs: number }
  | { type: 'intervene'; requestId: number; target: ProbeTarget; intervention: CueIntervention; ms: number }
  | { type: 'prepared'; requestId: number; target: ProbeTarget }
  | {
      type: 'error';
      runId?: number;
      requestId?: number;
      /** For developers and the console, in English. */
      message: string;
      /** What a reader is told, by code (the probe-requests catalog) when the error is one the Worker names. */
      code?: WorkerErrorCode;
      values?: Record<string, number>;
    };

/** An intervention's lists (InterventionInputs as plain arrays): each may be left out. */
export interface InterventionLists {
  tokens?: number[];
  corrupted?: number[];
  positions?: number[];
  given?: number[];
}

const INTERVENTION_OPTIONS = ['action', 'ablation', 'pattern', 'block', 'head', 'corruptShift'];
const LISTS = ['tokens', 'corrupted', 'positions', 'given'] as const;
const MAX_LIST = 4096;
const numbers = (list: unknown) =>
  Array.isArray(list) && list.length <= MAX_LIST && list.every((t) => typeof t === 'number');

const isBlocks = (b: unknown): b is ModelBlocks => b === 1 || b === 2;
const modelsOk = (models: unknown) =>
  models === undefined ||
  (Array.isArray(models) && models.length > 0 && models.every(isBlocks) && new Set(models).size === models.length);
const withModels = (models: unknown) =>
  models ? { models: [...(models as ModelBlocks[])].sort((a, b) => a - b) } : {};
const urlOk = (url: unknown) => url === undefined || (typeof url === 'string' && /^(https?|blob):/.test(url));
const withWasmUrl = (url: unknown) => (url ? { wasmUrl: url as string } : {});
const withWeightsUrl = (url: unknown) => (url ? { weightsUrl: url as string } : {});

/** The Worker's own failures a widget tells a reader about: no live run yet, no recorded weights, their file refused (values.status). */
export type WorkerErrorCode = 'no-live-run' | 'no-recorded-weights' | 'weights-status';

/** A probe's or an intervention's request id, target, wasmUrl and weightsUrl, or {error}. */
function askedOf(
  type: 'probe' | 'intervene' | 'prepare',
  m: Record<string, unknown>,
): { requestId: number; target: ProbeTarget; wasmUrl?: string; weightsUrl?: string } | { error: string } {
  if (!Number.isSafeInteger(m.requestId) || (m.requestId as number) < 0)
    return { error: `${type}: requestId must be a whole number` };
  const target = m.target as Partial<ProbeTarget> | null;
  if (
    typeof target !== 'object' ||
    target === null ||
    !['recorded', 'live'].includes(target.source as string) ||
    !isBlocks(target.blocks)
  )
    return { error: `${type}: target must be { source: "recorded" or "live", blocks: 1 or 2 }` };
  if (!urlOk(m.wasmUrl)) return { error: `${type}: wasmUrl must be an http(s) or blob: address` };
  if (!urlOk(m.weightsUrl)) return { error: `${type}: weightsUrl must be an http(s) or blob: address` };
  return {
    requestId: m.requestId as number,
    target: { source: target.source!, blocks: target.blocks! },
    ...withWasmUrl(m.wasmUrl),
    ...withWeightsUrl(m.weightsUrl),
  };
}

/** The request, or {error} saying what is wrong with it. */
export function parseRequest(data: unknown): TrainerRequest | { error: string } {
  if (typeof data !== 'object' || data === null) return { error: 'a request must be an object with a "type"' };
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'train':
      if (!Number.isSafeInteger(m.runId) || (m.runId as number) < 0)
        return { error: 'train: runId must be a whole number' };
      if (typeof m.config !== 'object' || m.config === null || Array.isArray(m.config))
        return { error: 'train: config must be an object of training options' };
      if (!modelsOk(m.models))
        return { error: 'train: models must be a list of 1, 2 or both (the blocks of each model), each once' };
      if (!urlOk(m.wasmUrl)) return { error: 'train: wasmUrl must be an http(s) or blob: address' };
      return {
        type: 'train',
        runId: m.runId as number,
        config: m.config as Partial<CueConfig>,
        ...withModels(m.models),
        ...withWasmUrl(m.wasmUrl),
      };
    case 'probe': {
      const asked = askedOf('probe', m);
      if ('error' in asked) return asked;
      if (!numbers(m.tokens)) return { error: 'probe: tokens must be an array of token ids' };
      return { type: 'probe', ...asked, tokens: m.tokens as number[] };
    }
    case 'prepare': {
      const asked = askedOf('prepare', m);
      return 'error' in asked ? asked : { type: 'prepare', ...asked };
    }
    case 'intervene': {
      const asked = askedOf('intervene', m);
      if ('error' in asked) return asked;
      const config = m.config as Record<string, unknown> | null;
      if (typeof config !== 'object' || config === null || Array.isArray(config))
        return { error: 'intervene: config must be an object of intervention options' };
      const unknown = Object.keys(config).find((k) => !INTERVENTION_OPTIONS.includes(k));
      if (unknown !== undefined)
        return {
          error: `intervene: config has no option ${JSON.stringify(unknown).slice(0, 40)} (options: ${INTERVENTION_OPTIONS.join(', ')})`,
        };
      const inputs = m.inputs as Record<string, unknown> | null;
      if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
        return { error: 'intervene: inputs must be an object of lists (tokens, corrupted, positions, given)' };
      const extra = Object.keys(inputs).find((k) => !(LISTS as readonly string[]).includes(k));
      if (extra !== undefined)
        return {
          error: `intervene: inputs has no list ${JSON.stringify(extra).slice(0, 40)} (lists: ${LISTS.join(', ')})`,
        };
      const lists: InterventionLists = {};
      for (const name of LISTS) {
        if (inputs[name] === undefined) continue;
        if (!numbers(inputs[name]))
          return { error: `intervene: inputs.${name} must be an array of at most ${MAX_LIST} numbers` };
        lists[name] = inputs[name] as number[];
      }
      return { type: 'intervene', ...asked, config: config as Partial<InterventionConfig>, inputs: lists };
    }
    case 'pause':
    case 'resume':
    case 'cancel':
    case 'memory':
      return { type: m.type };
    default:
      return { error: `unknown request type ${JSON.stringify(String(m.type)).slice(0, 40)}` };
  }
}
