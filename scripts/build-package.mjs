// Builds the npm package in dist-package/ (then `npm pack ./dist-package` writes
// attention-lab-VERSION.tgz), and puts the widgets' manifest and the data schemas next to the
// site in dist/ for the embedding guide. Run by scripts/build after `vite build`.
//
// The package is described by web/src/package/package.json, not by the repository's own
// package.json: that one is the development project (private, with the C++ build, the test
// tools as devDependencies and scripts that install Debian packages), while the published
// package holds only built files, and only its command line depends on anything (fflate,
// scorm-again). Its version is the repository's, so there is one version number, and
// CHANGELOG.md says what each one changed.
//
// dist-package/
//   attention-lab.js, attention-lab.css, assets/   the widgets (web/src/package/index.ts), the
//                                                  core's .wasm, the training Worker, lazy chunks
//   types/attention-lab.d.ts, public-types.d.ts    element interfaces, event detail types, the tag map
//   types/core-types.d.ts                          the facade's data types the events carry
//   custom-elements.json                           the Custom Elements Manifest
//   schemas/*.schema.json, schemas/examples/       the author data formats and a full example of each
//   messages/<language>/<namespace>.json           the message catalogs, for an author's overrides
//   lms/bridge.js                                  a course package's bridge to the LMS (web/src/lms/)
//   bin/attention-lab.js, preview/                 `attention-lab package` (web/src/package/cli.ts) and
//                                                  its --preview's stand-in LMS page
//   package.json, README.md, CHANGELOG.md
// dist/package/ (the site)                         the runtime files a course package holds
//                                                  (attention-lab.js, .css, assets/, lms/) and
//                                                  files.json listing them, for the configurator's
//                                                  Download (web/src/pages/guide/configurator-package.ts)
// custom-elements.json and the types are generated from the widgets' contracts
// (web/src/widgets/element/contract-docs.ts) with the defaults and ranges of the core that ships.
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, loadConfigFromFile, mergeConfig, runnerImport } from 'vite';

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, 'dist-package');
const site = resolve(root, 'dist');
const from = (path) => resolve(root, path);

// The widgets, built as the site's attention-lab.js is (vite.config.ts) but from the package's
// entry, and without Vite's preload helper: a course's bundler that takes the package in moves
// its chunks, and the helper's list of chunk addresses would point where they no longer are.
const { config: siteConfig } = await loadConfigFromFile(
  { command: 'build', mode: 'production' },
  from('vite.config.ts'),
  root,
  'silent',
);
const config = mergeConfig(siteConfig, {
  configFile: false,
  logLevel: 'warn',
  build: { outDir: out, emptyOutDir: true, modulePreload: false },
});
// The course package's bridge (web/src/lms/bridge.ts) is an entry of the same build, so that it
// and the widgets share one progress store module (the store it installs is the one they read).
config.build.rollupOptions.input = {
  'attention-lab': from('web/src/package/index.ts'),
  'lms/bridge': from('web/src/lms/bridge.ts'),
};
const entryFileNames = config.build.rollupOptions.output.entryFileNames;
config.build.rollupOptions.output.entryFileNames = (chunk) =>
  chunk.name === 'lms/bridge' ? 'lms/bridge.js' : entryFileNames(chunk);
// No precompressed copies in the package: the course's own build and host decide that.
config.plugins = config.plugins.flat(Infinity).filter((plugin) => !plugin?.name?.startsWith('vite-plugin-compression'));
await build(config);

// The command line (bin/attention-lab.js: `attention-lab package`, web/src/package/cli.ts) for
// node, with the package's dependencies (fflate, scorm-again) left to npm, and the preview's
// stand-in LMS page next to it.
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: resolve(out, 'bin'),
    emptyOutDir: false,
    target: 'node20',
    ssr: from('web/src/package/cli.ts'),
    rollupOptions: {
      output: { entryFileNames: 'attention-lab.js', chunkFileNames: '[name].js', banner: '#!/usr/bin/env node' },
    },
  },
  ssr: { noExternal: [], external: ['fflate', 'scorm-again'] },
});
chmodSync(resolve(out, 'bin/attention-lab.js'), 0o755);
cpSync(from('web/src/package/preview'), resolve(out, 'preview'), { recursive: true });

// The documents made from the contracts, with the shipped core's configs.
const load = async (path) => (await runnerImport(from(path), { root, logLevel: 'silent' })).module;
const [{ configs }, docs] = await Promise.all([
  load('scripts/shipped-configs.ts'),
  load('web/src/widgets/element/contract-docs.ts'),
]);
const { version } = JSON.parse(readFileSync(from('package.json'), 'utf8'));
const manifest = `${JSON.stringify(docs.customElementsManifest(configs, 'attention-lab.js'), null, 2)}\n`;

const write = (path, text) => {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
write(resolve(out, 'custom-elements.json'), manifest);
write(resolve(out, 'types/attention-lab.d.ts'), docs.typeDeclarations(configs, version));
cpSync(from('web/src/widgets/element/public-types.ts'), resolve(out, 'types/public-types.d.ts'));
// The facade's data types (types only, no imports), which the trainer's events carry.
cpSync(from('web/src/core/types.ts'), resolve(out, 'types/core-types.d.ts'));
cpSync(from('web/src/schemas'), resolve(out, 'schemas'), { recursive: true });
// The message catalogs as written (ICU MessageFormat): the keys and wording an author overrides.
cpSync(from('web/src/messages'), resolve(out, 'messages'), {
  recursive: true,
  filter: (path) => !path.endsWith('.d.ts'),
});
const published = JSON.parse(readFileSync(from('web/src/package/package.json'), 'utf8'));
write(resolve(out, 'package.json'), `${JSON.stringify({ name: published.name, version, ...published }, null, 2)}\n`);
cpSync(from('web/src/package/README.md'), resolve(out, 'README.md'));
cpSync(from('CHANGELOG.md'), resolve(out, 'CHANGELOG.md'));

// The site: the guide links the schemas; the manifest describes its attention-lab.js too.
write(resolve(site, 'custom-elements.json'), manifest);
cpSync(from('web/src/schemas'), resolve(site, 'schemas'), { recursive: true });
cpSync(from('web/src/messages'), resolve(site, 'messages'), {
  recursive: true,
  filter: (path) => !path.endsWith('.d.ts'),
});

// A course package's runtime files, for the configurator to zip in the browser (same origin):
// the list holds each file's path in the package and its size, so the guide can say how much a
// Download fetches before it fetches it.
const runtime = resolve(site, 'package');
rmSync(runtime, { recursive: true, force: true });
const runtimeFiles = ['attention-lab.js', 'attention-lab.css', 'assets', 'lms']
  .flatMap((name) => {
    const path = resolve(out, name);
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  })
  .map((path) => ({ path: relative(out, path).split('\\').join('/'), size: statSync(path).size }))
  .sort((a, b) => a.path.localeCompare(b.path));
for (const { path } of runtimeFiles) {
  mkdirSync(resolve(runtime, path, '..'), { recursive: true });
  cpSync(resolve(out, path), resolve(runtime, path));
}
write(resolve(runtime, 'files.json'), `${JSON.stringify({ files: runtimeFiles }, null, 2)}\n`);
