// Loading a core: the module's glue is imported only when loaded, so a bundle holds the glue of
// the modules it loads.
import type { ModuleOptions } from '../generated/attention_core.mjs';
import { AttentionCoreImpl } from './attention-core.js';
import type { CommonCore } from './heap.js';
import { knowElementLimit } from './matrices.js';
import type { AttentionCore, Core, LoadOptions } from './types.js';
import { CoreImpl } from './whole-core.js';

/** The whole core: attention, masks, the generator, multi-head layers, the experiments, the trainer. */
export async function loadCore(options: LoadOptions = {}): Promise<Core> {
  const { default: create } = await import('../generated/attention_lab.mjs');
  return withKnownLimit(new CoreImpl(await create(moduleOptions(options))));
}

/** The attention core, a smaller module: the whole core but the experiments and the trainer. */
export async function loadAttentionCore(options: LoadOptions = {}): Promise<AttentionCore> {
  const { default: create } = await import('../generated/attention_core.mjs');
  return withKnownLimit(new AttentionCoreImpl(await create(moduleOptions(options))));
}

function moduleOptions({ wasmBinary, wasmUrl }: LoadOptions): ModuleOptions {
  return { ...(wasmBinary ? { wasmBinary } : {}), ...(wasmUrl ? { locateFile: () => wasmUrl } : {}) };
}

// mat() and maskMat() check against the element limit once a core has loaded.
function withKnownLimit<C extends CommonCore>(core: C): C {
  knowElementLimit(core.limits.maxElements);
  return core;
}
