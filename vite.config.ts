// Vite builds web/ (the lesson page and the embed page) into a static dist/ that works from
// any static host, at any path and from another origin: base './' makes every address in the
// bundle (chunks, the WebAssembly core, the Worker, images) relative to the file that names it,
// so the files find each other wherever they are copied together.
import { posix, resolve } from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { TAGS } from './web/src/widgets/element/tags';
import { messageCatalogs } from './scripts/vite-messages';
import { lessonOffline } from './scripts/vite-lesson-offline';
import { lessonFirstScreen } from './scripts/vite-lesson-first-screen';

const web = resolve(import.meta.dirname, 'web');

/**
 * The classic scripts a host page includes (web/src/host/): each built on its own as one IIFE
 * file with a stable name, so that it shares no chunk with the modules (a classic script cannot
 * import) and runs where the module cannot load.
 */
function classicScripts(scripts: Record<string, string>): Plugin {
  return {
    name: 'attention-lab:classic-scripts',
    apply: 'build',
    async generateBundle() {
      for (const [fileName, entry] of Object.entries(scripts)) {
        const built = await build({
          configFile: false,
          logLevel: 'warn',
          build: {
            write: false,
            target: 'es2020',
            lib: { entry, formats: ['iife'], name: 'attentionLab', fileName: () => fileName },
          },
        });
        const chunk = [built]
          .flat()
          .flatMap((output) => ('output' in output ? output.output : []))
          .find((file) => file.type === 'chunk');
        if (!chunk || chunk.type !== 'chunk') throw new Error(`classic script ${fileName}: the build made no chunk`);
        this.emitFile({ type: 'asset', fileName, source: chunk.code });
      }
    },
  };
}

/**
 * widgets.css matches a widget not yet defined by its tag: the selector `attn-widget-tags` in it
 * becomes the list of every widget's tag (web/src/widgets/element/tags.ts), so the tags are
 * written once.
 */
function widgetTags(): Plugin {
  return {
    name: 'attention-lab:widget-tags',
    enforce: 'pre',
    transform(code, id) {
      if (!id.split('?')[0].endsWith('/widgets/widgets.css')) return;
      if (!code.includes('attn-widget-tags')) this.error('widgets.css has no attn-widget-tags selector to fill in');
      return code.replaceAll('attn-widget-tags', Object.values(TAGS).join(', '));
    },
  };
}

/**
 * The chunks `names` name, besides their own imports, every chunk those import in turn (an empty
 * `import "./…"` each, at the end, so the order modules run in is unchanged): the browser then
 * requests the whole static graph as soon as it reads the chunk, not one level of imports after
 * another. The bundler's `hoistTransitiveImports` did this; Rolldown has no such option.
 * attention-lab.js, which a course page loads, and the lesson's main module (which its entry
 * imports with no preload list) are such chunks.
 */
function hoistImports(names: string[]): Plugin {
  return {
    name: 'attention-lab:hoist-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !names.includes(chunk.name)) continue;
        const all = new Set<string>();
        const visit = (fileName: string) => {
          const imported = bundle[fileName];
          if (all.has(fileName) || !imported || imported.type !== 'chunk') return;
          all.add(fileName);
          imported.imports.forEach(visit);
        };
        chunk.imports.forEach(visit);
        const hoisted = [...all].filter((fileName) => !chunk.imports.includes(fileName));
        const from = posix.dirname(chunk.fileName);
        chunk.code += hoisted.map((fileName) => `import"${relativeImport(from, fileName)}";`).join('');
        chunk.imports.push(...hoisted);
      }
    },
  };
}

/** How a chunk in folder `from` of the bundle imports the bundle's `fileName`: "./x.js", "../x.js". */
function relativeImport(from: string, fileName: string): string {
  const path = posix.relative(from, fileName);
  return path.startsWith('.') ? path : `./${path}`;
}

/** The message catalogs as modules (attn-messages:<catalog>). */
const catalogs = () => messageCatalogs(resolve(web, 'src/messages'), resolve(web, 'src/common/pseudo-locale.ts'));

export default defineConfig({
  root: web,
  base: './',
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Never inline assets as data: URLs: a strict CSP (default-src 'self') refuses them, and
    // the wasm compiles faster streamed from its own file.
    assetsInlineLimit: 0,
    // The lesson's entry (start.ts) imports its main module once the first screen is painted,
    // preloading only attention-lab.js (so the widgets' chunks stay three requests deep):
    // appending one modulepreload link per import cost a phone's main thread tens of
    // milliseconds right after that paint, and the browser requests main's other imports as
    // soon as it has read main (hoistImports).
    modulePreload: {
      resolveDependencies: (file, deps, { hostId }) =>
        /^assets\/main-/.test(file) && /^assets\/index-/.test(hostId)
          ? deps.filter((dep) => dep === 'attention-lab.js')
          : deps,
    },
    rollupOptions: {
      input: {
        index: resolve(web, 'index.html'),
        embed: resolve(web, 'embed.html'),
        // The single script (and stylesheet) a course page includes to use the widgets; stable
        // names so an embedding page's tags survive rebuilds.
        'attention-lab': resolve(web, 'src/widgets/autoload.ts'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'attention-lab' ? 'attention-lab.js' : 'assets/[name]-[hash].js'),
        // A language's messages: assets/messages-quiz.es-[hash].js, named for what it holds.
        chunkFileNames: (chunk) => {
          const catalog = chunk.facadeModuleId?.match(/^\0attn-messages:([\w-]+)\/([\w-]+)$/);
          return catalog ? `assets/messages-${catalog[1]}.${catalog[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        assetFileNames: (asset) =>
          asset.names?.includes('attention-lab.css') ? 'attention-lab.css' : 'assets/[name]-[hash][extname]',
      },
    },
  },
  plugins: [
    widgetTags(),
    hoistImports(['attention-lab', 'main']),
    catalogs(),
    classicScripts({
      'attention-lab-loader.js': resolve(web, 'src/host/loader.ts'),
      'attention-lab-frames.js': resolve(web, 'src/host/frames.ts'),
      'lesson-language.js': resolve(web, 'src/pages/lesson/language-gate.ts'),
    }),
    // The lesson's first screen as HTML in the built index.html, in English, its language gate
    // and the widgets' stylesheet (the page's colours and fonts).
    lessonFirstScreen({
      page: resolve(web, 'index.html'),
      module: resolve(web, 'src/pages/lesson/first-screen.ts'),
      language: 'en',
      gate: 'lesson-language.js',
      stylesheets: ['attention-lab.css'],
      plugins: () => [catalogs()],
    }),
    // The lesson offline: its service worker (with the list of files to precache), web app
    // manifest and icons, beside index.html.
    lessonOffline({
      worker: resolve(web, 'src/pages/lesson/service-worker.ts'),
      icons: resolve(web, 'src/pages/lesson/icons'),
      catalog: resolve(web, 'src/messages/en/offline.json'),
    }),
    // Every file of the site also as .br (brotli, quality 11) and .gz (gzip -9), made once here,
    // which the project's server (scripts/static-server.mjs, sirv) sends to browsers that accept
    // them: smaller than compressing each answer at a speed-minded level, and no work per request.
    compression({ include: /\.(html|css|js|mjs|json|svg|wasm)$/, threshold: 1024, logLevel: 'silent' }),
  ],
  // The training Worker as one file (its core's glue inlined, not a chunk of its own): a course's
  // bundler that takes the npm package copies the Worker's file, but not what the Worker imports.
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
  server: {
    host: '127.0.0.1',
    // The code listing on the page is read from core/ at build time.
    fs: { allow: [import.meta.dirname] },
  },
});
