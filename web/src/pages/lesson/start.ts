// The lesson page's entry module. Where the page's first screen is HTML (made at build time,
// <html data-prerendered>), the lesson's code (main.ts, and the widgets and core it loads) is
// requested once that screen has been painted, so the first paint waits for no script; where the
// page is to be shown in another language (data-relocalizing, set by language-gate.ts) or has no
// first screen of its own (Vite's dev server), at once. If the code cannot load, the page shows
// what its HTML holds.
import wholeWasm from '../../generated/attention_lab.wasm?url';
import { coresComing } from '../../core/cores-coming';
import { firstPaint } from './frames';

/**
 * The whole core, which the lesson's figures need, fetched beside the lesson's code rather than
 * after it, as widgets/preload-core.ts does for a page's widgets. Written here, not imported
 * from there: the request's initiator is the module that makes it, and a module shared with
 * attention-lab.js would be a chunk of its own, one request deeper on both pages.
 */
function preloadWholeCore(): void {
  if (coresComing.has('whole')) return;
  coresComing.add('whole');
  const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: wholeWasm });
  link.crossOrigin = 'anonymous';
  document.head.append(link);
  import('../../generated/attention_lab.mjs').catch(() => undefined); // main.ts reports a failure
}

const root = document.documentElement;
const start = () => {
  preloadWholeCore();
  return import('./main').catch((error: unknown) => {
    delete root.dataset.relocalizing;
    console.error('attention-lab: the lesson’s script did not load', error);
  });
};
if (root.dataset.prerendered === undefined || root.dataset.relocalizing !== undefined) void start();
else void firstPaint().then(start);
