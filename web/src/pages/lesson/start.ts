// The lesson page's entry module. Where the page's first screen is HTML (made at build time,
// <html data-prerendered>), the lesson's code (main.ts, and the widgets and core it loads) is
// requested once that screen has been painted, so the first paint waits for no script; where the
// page is to be shown in another language (data-relocalizing, set by language-gate.ts) or has no
// first screen of its own (Vite's dev server), at once. The whole core, which the lesson's figures
// need, is fetched beside that code rather than after it. If the code cannot load, the page shows
// what its HTML holds.
import { firstPaint } from './frames';
import { preloadCore } from '../../widgets/preload-core';

const root = document.documentElement;
const start = () => {
  preloadCore(['whole']);
  return import('./main').catch((error: unknown) => {
    delete root.dataset.relocalizing;
    console.error('attention-lab: the lesson’s script did not load', error);
  });
};
if (root.dataset.prerendered === undefined || root.dataset.relocalizing !== undefined) void start();
else void firstPaint().then(start);
