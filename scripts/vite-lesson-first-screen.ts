// Writes the lesson's first screen into the built index.html as HTML (the page's words, the
// contents and the first section: web/src/pages/lesson/first-screen.ts, run here in Node on a
// DOM parsed from the page by linkedom), and links the classic script that keeps the page hidden
// for a reader of another language until the page's script has rendered it in theirs
// (web/src/pages/lesson/language-gate.ts), first in the page's <head>, and the stylesheets the
// first screen needs. So the lesson's first paint needs its HTML, stylesheets and that small
// script only.
import { parseHTML } from 'linkedom';
import { runnerImport, type Plugin, type PluginOption } from 'vite';
import type { Language } from '../web/src/common/language';

interface FirstScreenOptions {
  /** the lesson's page (web/index.html) */
  page: string;
  /** web/src/pages/lesson/first-screen.ts */
  module: string;
  /** the language the first screen is written in */
  language: Language;
  /** the gate's file name in dist/ (a classic script built on its own) */
  gate: string;
  /**
   * stylesheets in dist/ the first screen needs that the page's entry module does not import (the
   * widgets' stylesheet holds the colours and fonts the page's stylesheet uses; the lesson's
   * script, which imports it, comes after the first paint)
   */
  stylesheets: string[];
  /** the plugins the module's imports need (the message catalogs) */
  plugins: () => PluginOption[];
}

/** The browser globals the lesson's modules use, taken from linkedom's window for the render. */
const GLOBALS = ['window', 'document', 'location', 'navigator', 'Node', 'HTMLElement', 'customElements'] as const;

export function lessonFirstScreen(options: FirstScreenOptions): Plugin {
  return {
    name: 'attention-lab:lesson-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (context.filename !== options.page) return;
        const { window, document } = parseHTML(html);
        // linkedom has no compatMode; the page has a doctype, and KaTeX refuses to render in quirks mode.
        Object.defineProperty(document, 'compatMode', { value: 'CSS1Compat' });
        const shim: Record<(typeof GLOBALS)[number], unknown> = {
          ...Object.fromEntries(GLOBALS.map((name) => [name, (window as Record<string, unknown>)[name]])),
          window,
          document,
          location: new URL('http://localhost/index.html'),
          navigator: { languages: [options.language] },
        } as Record<(typeof GLOBALS)[number], unknown>;
        const saved = GLOBALS.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
        for (const name of GLOBALS)
          Object.defineProperty(globalThis, name, { value: shim[name], configurable: true, writable: true });
        try {
          const { module } = await runnerImport<typeof import('../web/src/pages/lesson/first-screen')>(options.module, {
            configFile: false,
            logLevel: 'warn',
            plugins: options.plugins(),
          });
          await module.renderFirstScreen(options.language);
        } finally {
          GLOBALS.forEach((name, i) => {
            const descriptor = saved[i];
            if (descriptor) Object.defineProperty(globalThis, name, descriptor);
            else delete (globalThis as Record<string, unknown>)[name];
          });
        }
        const gate = document.createElement('script');
        gate.setAttribute('src', `./${options.gate}`);
        document.head.querySelector('link, script')!.before(gate);
        // After the page's own, as the page's script would add them: their rules win a tie.
        let last = [...document.head.querySelectorAll('link[rel="stylesheet"]')].at(-1)!;
        for (const name of options.stylesheets) {
          const link = document.createElement('link');
          link.setAttribute('rel', 'stylesheet');
          link.setAttribute('href', `./${name}`);
          last.after(link);
          last = link;
        }
        return document.toString();
      },
    },
  };
}
