// Probe requests to a training Worker (training-protocol.ts), matched with their replies by
// request id: used by the trainer (whose Worker holds the latest live run) and by the probe
// widget when it runs its own Worker. The owner passes every reply to handle() and calls
// failAll() when its Worker stops.
import labWasm from '../../generated/attention_lab.wasm?url';
import type { CueProbe } from '../../core';
import type { ProbeTarget, TrainerReply, TrainerRequest } from '../../worker/training-protocol';

/** A probe's answer: the core's CueProbe and how long its forward pass took in the Worker. */
export interface ProbeAnswer {
  probe: CueProbe;
  forwardMs: number;
}

/** Anything that answers probes: the trainer element, or a ProbeRequests of a Worker of one's own. */
export interface ProbeAnswerer {
  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer>;
}

export class ProbeRequests implements ProbeAnswerer {
  private pending = new Map<number, { resolve(answer: ProbeAnswer): void; reject(error: Error): void }>();
  private nextId = 0;

  /** `send` posts a request to the Worker (starting it if need be); false when there is none. */
  constructor(private readonly send: (request: TrainerRequest) => boolean) {}

  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer> {
    const requestId = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      // The .wasm's address as this bundle knows it: a course's bundler may put the Worker elsewhere.
      if (!this.send({ type: 'probe', requestId, target, tokens, wasmUrl: new URL(labWasm, import.meta.url).href }))
        this.settle(requestId, new Error('the training Worker could not start'));
    });
  }

  /** Settles the request a reply answers; true when the reply was a probe's (answer or error, still awaited or not). */
  handle(reply: TrainerReply): boolean {
    if (reply.type === 'probe') this.settle(reply.requestId, { probe: reply.probe, forwardMs: reply.forwardMs });
    else if (reply.type === 'error' && reply.requestId !== undefined)
      this.settle(reply.requestId, new Error(reply.message));
    else return false;
    return true;
  }

  /** Every waiting request fails with `reason` (the Worker stopped). */
  failAll(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new Error(reason));
  }

  private settle(id: number, outcome: ProbeAnswer | Error): void {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (outcome instanceof Error) waiting?.reject(outcome);
    else waiting?.resolve(outcome);
  }
}
