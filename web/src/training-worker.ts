// The cue-task training Worker: trains the 1-block and the 2-block model side by side in the
// core (its own WebAssembly instance), a few batches of each at a time, so the page stays
// responsive and Pause or Cancel take effect within one slice. Messages are checked; anything
// malformed is answered with an error message and changes nothing.
import { loadCore, type Core, type CueConfig, type CueModel } from './core';
import { parseRequest, type TrainerReply } from './training-protocol';

const BATCHES_PER_SLICE = 8;

let core: Core | undefined;
let coreLoading: Promise<Core> | undefined; // one instance, however many runs wait for it
let run: { id: number; models: CueModel[]; paused: boolean; cancelled: boolean; resume?: () => void } | undefined;

const post = (message: TrainerReply) => postMessage(message);

function heapBytes(): number {
  return core ? core.memoryStats().heapBytes : 0;
}

async function train(id: number, config: Partial<CueConfig>, wasmUrl?: string): Promise<void> {
  // The run is current before anything is awaited, so a cancel, pause or newer run that
  // arrives while the core is still loading applies to it.
  const current = { id, models: [] as CueModel[], paused: false, cancelled: false, resume: undefined as (() => void) | undefined };
  run = current;
  const models = current.models;
  try {
    core = await (coreLoading ??= loadCore({ wasmUrl }).catch((error) => {
      coreLoading = undefined; // let a later request try again
      throw error;
    }));
    if (!current.cancelled) for (const blocks of [1, 2]) models.push(core.createCueModel({ ...config, blocks }));
    models.forEach((model, i) => {
      const p = model.progress();
      post({ type: 'started', runId: id, model: i + 1, parameterCount: model.parameterCount, baseline: model.baselineAccuracy, chance: model.chanceAccuracy, batchesPerEpoch: p.batchesPerEpoch, epochs: p.epochs });
    });
    while (!current.cancelled && models.some((m) => !m.progress().finished)) {
      for (const [i, model] of models.entries()) {
        const before = model.progress().epoch;
        if (model.trainBatches(BATCHES_PER_SLICE) === 0) continue;
        const p = model.progress();
        post({ type: 'progress', runId: id, model: i + 1, epoch: p.epoch, batch: p.batch, batchesPerEpoch: p.batchesPerEpoch, epochs: p.epochs, heapBytes: heapBytes() });
        if (p.epoch > before)
          for (const record of model.history().slice(before))
            post({ type: 'epoch', runId: id, model: i + 1, record, best: p.bestValidationAccuracy });
        if (p.finished) post({ type: 'finished', runId: id, model: i + 1, analysis: model.analysis(), bestEpoch: p.bestEpoch, best: p.bestValidationAccuracy });
      }
      // Let pause, resume and cancel messages in.
      await new Promise((resolve) => setTimeout(resolve, 0));
      while (current.paused && !current.cancelled) await new Promise<void>((resolve) => (current.resume = resolve));
    }
    if (current.cancelled) post({ type: 'cancelled', runId: id });
  } finally {
    models.forEach((m) => m.dispose());
    if (run === current) run = undefined;
  }
}

function stop(): void {
  if (!run) return;
  run.cancelled = true;
  run.resume?.();
}

addEventListener('message', (event: MessageEvent) => {
  const request = parseRequest(event.data);
  if ('error' in request) return post({ type: 'error', message: request.error });
  switch (request.type) {
    case 'train':
      stop();
      train(request.runId, request.config, request.wasmUrl).catch((error) =>
        post({ type: 'error', runId: request.runId, message: error instanceof Error ? error.message : String(error) }));
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
    case 'memory':
      post({ type: 'memory', heapBytes: heapBytes(), usedBytes: core?.memoryStats().usedBytes ?? 0, training: run !== undefined });
      break;
  }
});

post({ type: 'ready' });
