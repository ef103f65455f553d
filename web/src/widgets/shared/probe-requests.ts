// Probe and intervention requests to a training Worker (training-protocol.ts), matched with
// their replies by request id: used by the trainer (whose Worker holds the latest live run) and by the probe
// widget when it runs its own Worker. The owner passes every reply to handle() and calls
// failAll() when its Worker stops.
import labWasm from '../../generated/attention_lab.wasm?url';
import { recordedWeightsUrl } from '../../common/recorded-weights';
import type { CueIntervention, CueProbe, InterventionConfig } from '../../core';
import type {
  InterventionLists,
  ProbeTarget,
  TrainerReply,
  TrainerRequest,
  WorkerErrorCode,
} from '../../worker/training-protocol';
import type { Messages } from '../../common/messages';
import { reasonText } from '../../host/failure';

/** Why a request failed: the English message, and the Worker's code and values when it named the failure. */
export class ProbeFailure extends Error {
  constructor(
    message: string,
    readonly code?: WorkerErrorCode | 'not-started',
    readonly values: Record<string, number> = {},
  ) {
    super(message);
  }
}

const CODE_KEYS: Record<NonNullable<ProbeFailure['code']>, string> = {
  'no-live-run': 'noLiveRun',
  'no-recorded-weights': 'noRecordedWeights',
  'weights-status': 'weightsStatus',
  'not-started': 'notStarted',
};

/**
 * A failed request in words for a reader: from the probe-requests catalog when the failure has a
 * code, from the failure catalog when it is a reason the page gave (a Worker refused), else its
 * own message (the core's, in English). `messages` must hold both catalogs.
 */
export function failureText(error: unknown, messages: Messages): string {
  if (error instanceof ProbeFailure && error.code) return messages.text(CODE_KEYS[error.code], error.values);
  return reasonText(error instanceof Error ? error.message : String(error), messages);
}

/** A probe's answer: the core's CueProbe and how long its forward pass took in the Worker. */
export interface ProbeAnswer {
  probe: CueProbe;
  forwardMs: number;
}

/** An intervention's answer: the core's CueIntervention and how long it took in the Worker. */
export interface InterventionAnswer {
  intervention: CueIntervention;
  ms: number;
}

/** Anything that answers probes: the trainer element, or a ProbeRequests of a Worker of one's own. */
export interface ProbeAnswerer {
  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer>;
  /** Loads what probes of `target` need ahead of the first (the core, the model and its weights); resolves once loaded. */
  prepare?(target: ProbeTarget): Promise<unknown>;
  /** interventions on the same models (an answerer without it: the probe asks its own Worker) */
  intervene?(
    target: ProbeTarget,
    config: Partial<InterventionConfig>,
    inputs: InterventionLists,
  ): Promise<InterventionAnswer>;
}

/** A prepare request's answer: the target, loaded. */
interface Prepared {
  prepared: ProbeTarget;
}
type Answer = ProbeAnswer | InterventionAnswer | Prepared;

/**
 * The files a probe of `target` needs, addressed as this bundle knows them (a course's bundler
 * emits what the page's modules address and may put the Worker elsewhere): the core's .wasm,
 * and the recorded model's weights.
 */
function addresses(target: ProbeTarget): { wasmUrl: string; weightsUrl?: string } {
  const weightsUrl = target.source === 'recorded' ? recordedWeightsUrl(target.blocks) : undefined;
  return { wasmUrl: new URL(labWasm, import.meta.url).href, ...(weightsUrl ? { weightsUrl } : {}) };
}

export class ProbeRequests implements ProbeAnswerer {
  private pending = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  private nextId = 0;

  /** `send` posts a request to the Worker (starting it if need be); false when there is none. */
  constructor(private readonly send: (request: TrainerRequest) => boolean) {}

  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer> {
    return this.ask((requestId) => ({ type: 'probe', requestId, target, tokens, ...addresses(target) }));
  }

  prepare(target: ProbeTarget): Promise<Prepared> {
    return this.ask((requestId) => ({ type: 'prepare', requestId, target, ...addresses(target) }));
  }

  intervene(
    target: ProbeTarget,
    config: Partial<InterventionConfig>,
    inputs: InterventionLists,
  ): Promise<InterventionAnswer> {
    return this.ask((requestId) => ({ type: 'intervene', requestId, target, config, inputs, ...addresses(target) }));
  }

  private ask<A extends Answer>(request: (requestId: number) => TrainerRequest): Promise<A> {
    const requestId = ++this.nextId;
    return new Promise<A>((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (answer: Answer) => void, reject });
      if (!this.send(request(requestId)))
        this.settle(requestId, new ProbeFailure('the training Worker could not start', 'not-started'));
    });
  }

  /** Settles the request a reply answers; true when the reply was a probe's or an intervention's (answer or error, still awaited or not). */
  handle(reply: TrainerReply): boolean {
    if (reply.type === 'probe') this.settle(reply.requestId, { probe: reply.probe, forwardMs: reply.forwardMs });
    else if (reply.type === 'intervene')
      this.settle(reply.requestId, { intervention: reply.intervention, ms: reply.ms });
    else if (reply.type === 'prepared') this.settle(reply.requestId, { prepared: reply.target });
    else if (reply.type === 'error' && reply.requestId !== undefined)
      this.settle(reply.requestId, new ProbeFailure(reply.message, reply.code, reply.values));
    else return false;
    return true;
  }

  /** Every waiting request fails with `reason` (the Worker stopped). */
  failAll(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new ProbeFailure(reason));
  }

  private settle(id: number, outcome: Answer | Error): void {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (outcome instanceof Error) waiting?.reject(outcome);
    else waiting?.resolve(outcome);
  }
}
