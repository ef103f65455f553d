// The cue-task training Worker: trains the models a run names (the 1-block, the 2-block or both
// side by side) in the core (its own WebAssembly instance), a batch of each in turn for a slice
// of about SLICE_MS, so the page stays responsive and Pause or Cancel take effect within one
// slice; and answers probes of a trained model (training-protocol.ts) between slices, so a probe
// waits at most a slice (plus an epoch's validation when one ends in it); interventions on the
// same models likewise. Messages are checked;
// anything malformed is answered with an error message and changes nothing.
import { loadCore, type Core, type CueConfig, type CueModel, type InterventionConfig } from '../core';
import { recordedCueRuns } from '../common/recorded-runs';
import { recordedWeightsUrl } from '../common/recorded-weights';
import {
  BOTH_MODELS,
  parseRequest,
  type InterventionLists,
  type ModelBlocks,
  type ProbeTarget,
  type TrainerReply,
  type WorkerErrorCode,
} from './training-protocol';

const SLICE_MS = 10;
/**
 * A model's progress is posted at most this often (and whenever an epoch ends): the page draws it
 * at most once a frame, and each message costs its main thread a task.
 */
const PROGRESS_MS = 50;

/** Lets the messages that arrived in the meantime in (a MessageChannel, unlike setTimeout, adds no 4 ms clamp). */
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

let core: Core | undefined;
let coreLoading: Promise<Core> | undefined; // one instance, however many runs wait for it
let wasmUrl: string | undefined; // the latest request's, if it said where the .wasm is
let run: { id: number; models: CueModel[]; paused: boolean; cancelled: boolean; resume?: () => void } | undefined;
// Probes are answered by models built for them from trained weights: the recorded run's
// (shipped, fetched on the first probe) and the latest finished live run's (kept here in JS, so
// a finished run holds no heap until it is probed; forgotten when the next run starts, so that
// two Workers each training one model never answer from two different runs). Key: `${source}-${blocks}`.
const probeModels = new Map<string, Promise<CueModel>>();
let liveWeights = new Map<ModelBlocks, { config: Partial<CueConfig>; weights: Float32Array }>();

const post = (message: TrainerReply) => postMessage(message);

function getCore(): Promise<Core> {
  return (coreLoading ??= loadCore({ wasmUrl })
    .then((loaded) => (core = loaded))
    .catch((error) => {
      coreLoading = undefined; // let a later request try again
      throw error;
    }));
}

function heapBytes(): number {
  return core ? core.memoryStats().heapBytes : 0;
}

function forgetLiveRun(): void {
  liveWeights = new Map();
  for (const blocks of BOTH_MODELS) void forgetProbeModel(`live-${blocks}`);
}

/** Trains the models `blocks` names (their blocks, ascending), a batch of each in turn. */
async function train(id: number, config: Partial<CueConfig>, blocks: readonly ModelBlocks[]): Promise<void> {
  // The run is current before anything is awaited, so a cancel, pause or newer run that
  // arrives while the core is still loading applies to it.
  const current = {
    id,
    models: [] as CueModel[],
    paused: false,
    cancelled: false,
    resume: undefined as (() => void) | undefined,
  };
  run = current;
  forgetLiveRun();
  const models = current.models;
  try {
    const core = await getCore();
    if (!current.cancelled) for (const b of blocks) models.push(core.createCueModel({ ...config, blocks: b }));
    models.forEach((model, i) => {
      const p = model.progress();
      post({
        type: 'started',
        runId: id,
        model: blocks[i],
        parameterCount: model.parameterCount,
        baseline: model.baselineAccuracy,
        chance: model.chanceAccuracy,
        batchesPerEpoch: p.batchesPerEpoch,
        epochs: p.epochs,
      });
    });
    const posted = models.map(() => -Infinity); // when each model's progress was last posted
    while (!current.cancelled && models.some((m) => !m.progress().finished)) {
      const before = models.map((m) => m.progress().epoch);
      const ran = models.map(() => 0);
      const until = performance.now() + SLICE_MS;
      let more = true;
      while (more && performance.now() < until) {
        const batches = models.map((model) => model.trainBatches(1)); // 0 once a model has finished
        batches.forEach((n, i) => (ran[i] += n));
        more = batches.some((n) => n > 0);
      }
      for (const [i, model] of models.entries()) {
        if (ran[i] === 0) continue;
        const p = model.progress();
        const now = performance.now();
        if (p.epoch === before[i] && now - posted[i] < PROGRESS_MS) continue;
        posted[i] = now;
        post({
          type: 'progress',
          runId: id,
          model: blocks[i],
          epoch: p.epoch,
          batch: p.batch,
          batchesPerEpoch: p.batchesPerEpoch,
          epochs: p.epochs,
          heapBytes: heapBytes(),
        });
        if (p.epoch > before[i])
          for (const record of model.history().slice(before[i]))
            post({ type: 'epoch', runId: id, model: blocks[i], record, best: p.bestValidationAccuracy });
        if (p.finished)
          post({
            type: 'finished',
            runId: id,
            model: blocks[i],
            analysis: model.analysis(),
            route: model.route(), // once, after training: about 4 + blocks * heads validation passes
            bestEpoch: p.bestEpoch,
            best: p.bestValidationAccuracy,
          });
      }
      // Let probes, pause, resume and cancel messages in.
      await yieldToMessages();
      while (current.paused && !current.cancelled) await new Promise<void>((resolve) => (current.resume = resolve));
    }
    if (current.cancelled) post({ type: 'cancelled', runId: id });
    else
      liveWeights = new Map(
        models.map((model, i) => [blocks[i], { config: { ...config, blocks: blocks[i] }, weights: model.weights() }]),
      );
  } finally {
    models.forEach((m) => m.dispose());
    if (run === current) run = undefined;
  }
}

/** The trained weights a probe target names (the recorded ones at `weightsUrl`, else next to this file), and the config of their model. */
async function trainedWeights(
  { source, blocks }: ProbeTarget,
  weightsUrl: string | undefined,
): Promise<{ config: Partial<CueConfig>; weights: Float32Array }> {
  if (source === 'live') {
    const live = liveWeights.get(blocks);
    if (!live) throw new WorkerError('no finished live run to probe yet: train both models first', 'no-live-run');
    return live;
  }
  const url = weightsUrl ?? recordedWeightsUrl(blocks);
  const report = recordedCueRuns()?.[blocks - 1];
  if (!url || !report) throw new WorkerError('this build has no recorded weights to probe', 'no-recorded-weights');
  const response = await fetch(url);
  if (!response.ok)
    throw new WorkerError(`the recorded weights (${url}) answered ${response.status}`, 'weights-status', {
      status: response.status,
    });
  return { config: report.config, weights: new Float32Array(await response.arrayBuffer()) };
}

/** The model that answers probes of `target`, built on the first probe (the recorded weights fetched from `weightsUrl`, if given). */
function probeModel(target: ProbeTarget, weightsUrl: string | undefined): Promise<CueModel> {
  const key = `${target.source}-${target.blocks}`;
  let model = probeModels.get(key);
  if (!model) {
    model = (async () => {
      const [{ config, weights }, core] = await Promise.all([trainedWeights(target, weightsUrl), getCore()]);
      const built = core.createCueModel(config);
      try {
        built.loadWeights(weights);
      } catch (error) {
        built.dispose();
        throw error;
      }
      return built;
    })();
    model.catch(() => probeModels.delete(key)); // a later probe tries again
    probeModels.set(key, model);
  }
  return model;
}

async function forgetProbeModel(key: string): Promise<void> {
  const model = probeModels.get(key);
  probeModels.delete(key);
  (await model?.catch(() => undefined))?.dispose();
}

async function probe(
  requestId: number,
  target: ProbeTarget,
  tokens: number[],
  weightsUrl: string | undefined,
): Promise<void> {
  const model = await probeModel(target, weightsUrl);
  const started = performance.now();
  const result = model.probe(tokens);
  post({ type: 'probe', requestId, target, probe: result, forwardMs: performance.now() - started });
}

/** One intervention on the model of `target`; the model keeps its clean validation pass for the next. */
async function intervene(
  requestId: number,
  target: ProbeTarget,
  config: Partial<InterventionConfig>,
  inputs: InterventionLists,
  weightsUrl: string | undefined,
): Promise<void> {
  const model = await probeModel(target, weightsUrl);
  const started = performance.now();
  const intervention = model.intervene(config, inputs);
  post({ type: 'intervene', requestId, target, intervention, ms: performance.now() - started });
}

function stop(): void {
  if (!run) return;
  run.cancelled = true;
  run.resume?.();
}

/** A failure the Worker names itself: its code and values travel with the English message. */
class WorkerError extends Error {
  constructor(
    message: string,
    readonly code: WorkerErrorCode,
    readonly values: Record<string, number> = {},
  ) {
    super(message);
  }
}

/** An error as an error reply carries it: the message, and the code and values of one of the Worker's own. */
function errorFields(error: unknown): { message: string; code?: WorkerErrorCode; values?: Record<string, number> } {
  if (error instanceof WorkerError) return { message: error.message, code: error.code, values: error.values };
  return { message: error instanceof Error ? error.message : String(error) };
}

addEventListener('message', (event: MessageEvent) => {
  const request = parseRequest(event.data);
  if ('error' in request) return post({ type: 'error', message: request.error });
  if ('wasmUrl' in request && request.wasmUrl) wasmUrl = request.wasmUrl;
  switch (request.type) {
    case 'train':
      stop();
      train(request.runId, request.config, request.models ?? BOTH_MODELS).catch((error) =>
        post({ type: 'error', runId: request.runId, ...errorFields(error) }),
      );
      break;
    case 'pause':
      if (run) run.paused = true;
      break;
    case 'resume':
      if (run) {
        run.paused = false;
        run.resume?.();
      }
      break;
    case 'cancel':
      stop();
      break;
    case 'probe':
      probe(request.requestId, request.target, request.tokens, request.weightsUrl).catch((error) =>
        post({
          type: 'error',
          requestId: request.requestId,
          ...errorFields(error),
        }),
      );
      break;
    case 'prepare':
      probeModel(request.target, request.weightsUrl)
        .then(() => post({ type: 'prepared', requestId: request.requestId, target: request.target }))
        .catch((error) => post({ type: 'error', requestId: request.requestId, ...errorFields(error) }));
      break;
    case 'intervene':
      intervene(request.requestId, request.target, request.config, request.inputs, request.weightsUrl).catch((error) =>
        post({
          type: 'error',
          requestId: request.requestId,
          ...errorFields(error),
        }),
      );
      break;
    case 'memory':
      post({
        type: 'memory',
        heapBytes: heapBytes(),
        usedBytes: core?.memoryStats().usedBytes ?? 0,
        training: run !== undefined,
      });
      break;
  }
});

post({ type: 'ready' });
