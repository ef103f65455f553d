// The core a widget will load once its code runs, fetched by the autoloader as soon as it sees
// the widget's tag: the core's glue module and its .wasm start side by side with the widget's
// chunk instead of after it (page -> loader -> attention-lab.js -> everything, three requests
// deep, rather than widget chunk -> glue -> .wasm after them). The glue module is only imported
// here, not run; the widget's getCore()/getAttentionCore() runs it and its fetch of the .wasm
// takes the preloaded answer.
import attentionWasm from '../generated/attention_core.wasm?url';
import wholeWasm from '../generated/attention_lab.wasm?url';
import { coresComing } from '../core/cores-coming';
import type { CoreKind } from './widget-cores';

/**
 * Starts fetching the core that the widgets `kinds` (of the tags just seen) will load: the whole
 * core when any of them needs it (the page's widgets then share it, as core/instance.ts does),
 * else the attention core, unless the whole one is already coming. Each core is fetched once
 * (coresComing: by this or by core/instance.ts).
 */
export function preloadCore(kinds: Iterable<CoreKind>): void {
  const wanted = new Set(kinds);
  const kind: CoreKind = wanted.has('whole') ? 'whole' : wanted.has('attention') ? 'attention' : false;
  if (!kind || coresComing.has(kind) || coresComing.has('whole')) return;
  coresComing.add(kind);
  // As the glue's own fetch() asks for it (CORS mode, same-origin credentials), so that one
  // request serves both.
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  link.crossOrigin = 'anonymous';
  link.href = kind === 'whole' ? wholeWasm : attentionWasm;
  document.head.append(link);
  // A failure here is the widget's to report when it loads the core itself.
  const glue = kind === 'whole' ? import('../generated/attention_lab.mjs') : import('../generated/attention_core.mjs');
  glue.catch(() => undefined);
}
