// The lesson page's entry module. Where the page's first screen is HTML (made at build time,
// <html data-prerendered>), the lesson's code (main.ts, and the widgets and core it loads) is
// requested once that screen has been painted, so the first paint waits for no script; where the
// page is to be shown in another language (data-relocalizing, set by language-gate.ts) or has no
// first screen of its own (Vite's dev server), at once. If the code cannot load, the page shows
// what its HTML holds.
import { coresComing } from '../../core/cores-coming';
import { firstPaint } from './frames';

// The lesson's widgets share the whole core (its figures need it). The numbers' Worker fetches
// it first (numbers-client.ts), so the widgets' later fetch can come from the browser's cache
// (hashed files, cached long: docs/lighthouse.md). Marked coming here, so that no widget preloads
// a core during the first load and none that needs only attention fetches the attention core
// besides (core/instance.ts).
coresComing.add('whole');

const root = document.documentElement;
const start = () =>
  import('./main').catch((error: unknown) => {
    delete root.dataset.relocalizing;
    console.error('attention-lab: the lesson’s script did not load', error);
  });
if (root.dataset.prerendered === undefined || root.dataset.relocalizing !== undefined) void start();
else void firstPaint().then(start);
