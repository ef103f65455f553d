// The lesson as an installable web app that works offline after one visit: this plugin writes,
// next to index.html in dist/, the service worker (web/src/pages/lesson/service-worker.ts, built
// with the list of files to precache), the web app manifest and its icons, and links the
// manifest from the lesson's page (index.html only: the guide, embed.html, is no app).
//
// The precache list is what the lesson needs, found from the build itself: index.html, then
// every file of the bundle whose name appears in a file already listed (the HTML's script and
// stylesheet, each chunk's imports and dynamic imports, the Worker, the .wasm and .bin files,
// the data and the SVGs the code addresses), until nothing new appears. So a chunk only the
// guide uses is not listed, and a new asset the lesson addresses is, with no list to keep.
//
// The worker's version is a hash of the listed files' contents: any change to what the lesson
// loads makes a new worker (the browser compares its bytes), which waits until the reader asks
// for the new version (web/src/pages/lesson/offline-update.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Plugin } from 'vite';
import type { OutputBundle } from 'rollup';

/** The service worker's file, beside index.html (a worker controls only pages at or below its own folder). */
export const SERVICE_WORKER = 'lesson-sw.js';
/** The web app manifest's file, beside index.html. */
export const MANIFEST = 'lesson.webmanifest';

/** The lesson's page in dist/, where the reference walk starts. */
const LESSON_PAGE = 'index.html';
/** File names as code, HTML and CSS write them (a path's last part, with an extension). */
const FILE_NAME = /[\w.@-]+\.(?:js|mjs|css|wasm|bin|json|svg|png|webp|jpe?g|gif|woff2?|ttf|webmanifest)\b/g;
/** The colours of the installed app's splash screen and title bar: the icon's blue, the page's light background. */
const THEME_COLOR = '#2458c6';
const BACKGROUND_COLOR = '#fdfdfb';

interface OfflineOptions {
  /** web/src/pages/lesson/service-worker.ts */
  worker: string;
  /** The folder of the icons (icon-192.png, icon-512.png), made from web/src/pages/favicon.svg. */
  icons: string;
  /** The English catalog with the app's name and short name (web/src/messages/en/offline.json). */
  catalog: string;
}

function textOf(file: OutputBundle[string]): string | undefined {
  if (file.type === 'chunk') return file.code;
  if (typeof file.source === 'string') return file.source;
  return /\.(?:js|css|html|json|svg)$/.test(file.fileName) ? new TextDecoder().decode(file.source) : undefined;
}

function bytesOf(file: OutputBundle[string]): string | Uint8Array {
  return file.type === 'chunk' ? file.code : file.source;
}

/**
 * The files of `bundle` the lesson's page loads or may load, `LESSON_PAGE` first: the closure of
 * the page under "a listed file names it". Throws if the page is not in the bundle.
 */
export function lessonFiles(bundle: OutputBundle): string[] {
  if (!bundle[LESSON_PAGE]) throw new Error(`lesson offline: the bundle has no ${LESSON_PAGE} to start from`);
  const byName = new Map<string, string[]>();
  for (const fileName of Object.keys(bundle)) {
    const name = fileName.slice(fileName.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), fileName]);
  }
  const listed = new Set([LESSON_PAGE]);
  for (const fileName of listed) {
    const text = textOf(bundle[fileName]);
    for (const name of text?.match(FILE_NAME) ?? []) for (const found of byName.get(name) ?? []) listed.add(found);
  }
  return [...listed];
}

/** The plugin: the worker, the manifest and the icons emitted beside index.html, the manifest linked from it. */
export function lessonOffline({ worker, icons, catalog }: OfflineOptions): Plugin {
  const names = JSON.parse(readFileSync(catalog, 'utf8')) as Record<string, string>;
  for (const key of ['appName', 'appShortName'])
    if (typeof names[key] !== 'string') throw new Error(`lesson offline: ${catalog} has no "${key}" message`);
  // Active in a build whose inputs include the lesson's page (the site's); the npm package's
  // build (scripts/build-package.mjs) reuses this config with other inputs and has no lesson.
  let active = false;
  return {
    name: 'attention-lab:lesson-offline',
    apply: 'build',
    enforce: 'post',
    options({ input }) {
      const inputs = typeof input === 'string' ? [input] : Object.values(input ?? {});
      active = inputs.some((file) => file.endsWith(`/${LESSON_PAGE}`));
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { path }) {
        if (!active || !path.endsWith(`/${LESSON_PAGE}`)) return;
        return [
          { tag: 'link', attrs: { rel: 'manifest', href: `./${MANIFEST}` }, injectTo: 'head' },
          { tag: 'meta', attrs: { name: 'theme-color', content: THEME_COLOR }, injectTo: 'head' },
        ];
      },
    },
    async generateBundle(_options, bundle) {
      if (!active) return;
      const iconFiles = [192, 512].map((size) => {
        const fileName = `lesson-icon-${size}.png`;
        const source = readFileSync(resolve(icons, `icon-${size}.png`));
        this.emitFile({ type: 'asset', fileName, source });
        return { fileName, size, source };
      });
      const manifest = `${JSON.stringify(
        {
          name: names.appName,
          short_name: names.appShortName,
          id: `./${LESSON_PAGE}`,
          start_url: `./${LESSON_PAGE}`,
          scope: `./${LESSON_PAGE}`,
          display: 'standalone',
          theme_color: THEME_COLOR,
          background_color: BACKGROUND_COLOR,
          icons: iconFiles.map(({ fileName, size }) => ({
            src: `./${fileName}`,
            sizes: `${size}x${size}`,
            type: 'image/png',
            purpose: 'any',
          })),
        },
        null,
        2,
      )}\n`;
      this.emitFile({ type: 'asset', fileName: MANIFEST, source: manifest });
      const hash = createHash('sha256').update(manifest);
      for (const { source } of iconFiles) hash.update(source);
      const lesson = lessonFiles(bundle);
      for (const fileName of lesson) hash.update(fileName).update(bytesOf(bundle[fileName]));
      const files = [...new Set([...lesson, MANIFEST, ...iconFiles.map(({ fileName }) => fileName)])];
      const precache = { version: hash.digest('hex').slice(0, 16), files };
      const built = await build({
        configFile: false,
        logLevel: 'warn',
        define: { LESSON_PRECACHE: JSON.stringify(JSON.stringify(precache)) },
        build: {
          write: false,
          target: 'es2022',
          lib: { entry: worker, formats: ['iife'], name: 'lessonServiceWorker', fileName: () => SERVICE_WORKER },
        },
      });
      const chunk = [built]
        .flat()
        .flatMap((output) => ('output' in output ? output.output : []))
        .find((file) => file.type === 'chunk');
      if (!chunk || chunk.type !== 'chunk') throw new Error('lesson offline: the service worker build made no chunk');
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER, source: chunk.code });
    },
  };
}
