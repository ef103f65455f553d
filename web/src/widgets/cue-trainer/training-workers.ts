// The trainer's training Workers (training-worker.ts): one per model where the machine has two
// cores or more, so "Train both" takes about as long as the 2-block model alone; one that trains
// both side by side where it has one. Each Worker starts on its first message, through
// host/worker.ts (any host). Run requests go to every Worker with the models it trains; pause,
// resume and cancel to all; a probe to the Worker that trains its model, which holds that
// model's latest live weights. Every reply goes to one handler, whichever Worker sent it (replies
// name their model, runs carry the trainer's run id), so the trainer sees one stream.
import labWasm from '../../generated/attention_lab.wasm?url';
import type { CueConfig } from '../../core';
import trainingWorkerUrl from '../../worker/training-worker.ts?worker&url';
import { startWorker, type WorkerHandlers } from '../../host/worker';
import { BOTH_MODELS, type ModelBlocks, type TrainerRequest } from '../../worker/training-protocol';

/** The models each Worker trains, for a machine of `cores` cores (unknown: one). */
export function workerPlan(cores: number | undefined): ModelBlocks[][] {
  return (cores ?? 1) >= 2 ? BOTH_MODELS.map((blocks) => [blocks]) : [[...BOTH_MODELS]];
}

export class TrainingWorkers {
  private readonly plan = workerPlan(navigator.hardwareConcurrency);
  private workers: (Worker | undefined)[] = [];

  /** handlers.failed: a Worker could not start or died; every Worker is then stopped. */
  constructor(private readonly handlers: WorkerHandlers) {}

  /** Starts run `runId` of both models, each on the Worker the plan gives it; false when a Worker could not start. */
  train(runId: number, config: Partial<CueConfig>): boolean {
    // The .wasm's address as this bundle knows it: a course's bundler may put the Worker elsewhere.
    const wasmUrl = new URL(labWasm, import.meta.url).href;
    return this.plan.map((models, i) => this.post(i, { type: 'train', runId, config, models, wasmUrl })).every(Boolean);
  }

  /** Pause, resume or cancel, to every Worker that has started. */
  broadcast(request: TrainerRequest & { type: 'pause' | 'resume' | 'cancel' }): void {
    for (const worker of this.workers) worker?.postMessage(request);
  }

  /** A probe or an intervention, to the Worker that trains its model; false when that Worker could not start. */
  probe(request: TrainerRequest & { type: 'probe' | 'intervene' | 'prepare' }): boolean {
    return this.post(
      this.plan.findIndex((models) => models.includes(request.target.blocks)),
      request,
    );
  }

  terminate(): void {
    for (const worker of this.workers) worker?.terminate();
    this.workers = [];
  }

  private post(index: number, request: TrainerRequest): boolean {
    const worker = (this.workers[index] ??= this.start());
    worker?.postMessage(request);
    return worker !== undefined;
  }

  private start(): Worker | undefined {
    return startWorker(new URL(trainingWorkerUrl, import.meta.url), {
      message: this.handlers.message,
      failed: (reason) => {
        this.terminate();
        this.handlers.failed(reason);
      },
    });
  }
}
