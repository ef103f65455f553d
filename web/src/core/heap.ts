// Moving data through the WebAssembly heap: inputs copied into the core's scratch area, results
// copied out, and what both modules have (configs, limits, memory figures, the error a call
// left). The two cores' classes build on CommonCore.
import type { CommonPart } from '../generated/attention_core.mjs';
import { coreError } from './errors.js';
import type { Configs, Limits, Mat, MaskMat, MemoryStats } from './types.js';

// Inputs of one call laid out in the core's scratch area, 8-byte aligned.
class Layout {
  private bytes = 0;
  add(byteLength: number): number {
    const at = this.bytes;
    this.bytes += (byteLength + 7) & ~7;
    return at;
  }
  get size(): number {
    return this.bytes;
  }
}

/** What both modules have: configs, limits, the heap and its figures. */
export class CommonCore {
  readonly configs: Configs;
  readonly limits: Limits;
  /** limits.maxElements, read on every call */
  protected readonly max: number;

  constructor(protected readonly m: CommonPart) {
    // The module raises the core's errors through this (wasm/errors.cpp).
    m.createError = coreError;
    this.configs = {
      attention: m.attentionOptions(),
      scaleSweep: m.scaleSweepConfig(),
      maskDemo: m.maskDemoConfig(),
      headsDemo: m.headsDemoConfig(),
      pitfall: m.pitfallConfig(),
      cueTrain: m.cueTrainConfig(),
      intervention: m.interventionConfig(),
      attentionSteps: m.attentionStepsConfig(),
    };
    // Lists arrive as typed arrays; a default list is easier to use as a plain array.
    this.configs.scaleSweep.defaults.dks = Array.from(this.configs.scaleSweep.defaults.dks);
    for (const spec of Object.values(this.configs)) Object.freeze(spec.defaults);
    this.limits = m.limits();
    this.max = this.limits.maxElements;
  }

  // Writes each input into scratch and returns their offsets (the heap may have grown). An
  // array passed twice (self-attention: query = key = value) is copied once.
  protected put(inputs: (Float32Array | Int32Array | Uint8Array | null)[]): number[] {
    const layout = new Layout();
    const at = inputs.map((x, i) => {
      if (!x) return -1;
      const first = inputs.indexOf(x);
      return first < i ? -2 - first : layout.add(x.byteLength);
    });
    const base = this.m._attn_scratch(Math.max(8, layout.size)); // never 0: offset 0 means "no mask"
    const offsets = inputs.map((x, i) => (x && at[i] >= 0 ? base + at[i] : 0));
    inputs.forEach((x, i) => {
      if (!x) return;
      if (at[i] < -1) {
        offsets[i] = offsets[-2 - at[i]];
        return;
      }
      if (x instanceof Float32Array) this.m.HEAPF32.set(x, offsets[i] >> 2);
      else if (x instanceof Int32Array) this.m.HEAP32.set(x, offsets[i] >> 2);
      else this.m.HEAPU8.set(x, offsets[i]);
    });
    return offsets;
  }

  // Offset of result `i` in the table a compute function returned.
  protected result(table: number, i: number): number {
    return this.m.HEAPU32[(table >> 2) + i];
  }

  // Copies results 0..shapes.length-1 of `table` out of the heap. Fresh typed arrays are the
  // dearest part of a small call, so (measured in node) results too large for V8's in-heap
  // typed arrays (64 bytes) share one new buffer, while tiny ones are sliced one by one.
  protected readMats(table: number, shapes: [rows: number, cols: number][]): Mat[] {
    const total = shapes.reduce((sum, [r, c]) => sum + r * c, 0);
    const heap = this.m.HEAPF32;
    if (total <= 16) return shapes.map(([rows, cols], i) => this.readMat(this.result(table, i), rows, cols));
    const all = this.carve(total);
    let at = 0;
    return shapes.map(([rows, cols], i) => {
      const start = this.result(table, i) >> 2,
        n = rows * cols;
      const data = all.subarray(at, at + n);
      data.set(heap.subarray(start, start + n));
      at += n;
      return { rows, cols, data };
    });
  }

  // n floats for results, cut from a shared 64 KiB slab (a new slab when the current one is
  // used up; results handed out earlier keep theirs): one allocation per many small calls.
  private slab = new Float32Array(0);
  private slabAt = 0;
  private carve(n: number): Float32Array {
    if (n > 4096) return new Float32Array(n);
    if (this.slabAt + n > this.slab.length) {
      this.slab = new Float32Array(16384);
      this.slabAt = 0;
    }
    const v = this.slab.subarray(this.slabAt, this.slabAt + n);
    this.slabAt += n;
    return v;
  }

  protected readMat(offset: number, rows: number, cols: number): Mat {
    const start = offset >> 2;
    return { rows, cols, data: this.m.HEAPF32.slice(start, start + rows * cols) };
  }

  protected readMask(offset: number, rows: number, cols: number): MaskMat {
    return { rows, cols, data: this.m.HEAPU8.slice(offset, offset + rows * cols) };
  }

  memoryStats(): MemoryStats {
    return {
      ...this.m.memoryStats(),
      liveAllocations: this.m.liveAllocations?.() ?? NaN,
      emvalHandles: this.m.count_emval_handles(),
      stackPointer: this.m.stackSave(),
    };
  }

  /** The result of an object-taking call, or the error it left raised (wasm/errors.hpp). */
  protected checked<T>(result: T): T {
    this.m.raiseError();
    return result;
  }
}
