// The npm package as a course built with Vite uses it: `npm pack ./dist-package`, installed
// offline into a scratch Vite app in a temporary folder, type-checked against the package's
// types, built by Vite and rendered in Chromium, Firefox and WebKit under the strict CSP: one
// `import 'attention-lab'` registers the elements and brings their stylesheet, and the core's
// .wasm, the training Worker, the recorded weights and the lazy chunks come along (a quiz is
// answered, the probe's recorded models answer, both models train), and a language's messages
// come only when a widget speaks it. Run after `npm run build`:
//   node --test tests/package/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { enginesToRun, launch, serveSite } from '../support/engines.mjs';

const root = resolve(import.meta.dirname, '../..');
const app = mkdtempSync(join(tmpdir(), 'attn-vite-app-'));
const run = (command, args, cwd = app) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// The guide's recipe (web/recipes/vite-app/): the page, the author's code (type-checked against
// the package's types: the tag map gives the element type, the event map the detail type, so a
// wrong field does not compile) and its tsconfig.
const RECIPE = join(root, 'web/recipes/vite-app');
const MAIN = readFileSync(join(RECIPE, 'main.ts'), 'utf8');

let site;
before(() => {
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch-course', private: true, type: 'module' }, null, 2),
  );
  for (const file of ['index.html', 'main.ts', 'tsconfig.json']) cpSync(join(RECIPE, file), join(app, file));
  cpSync(join(root, 'tests/engines/course-page/course-icon.svg'), join(app, 'public/course-icon.svg'));
});
after(async () => {
  await site?.close();
  rmSync(app, { recursive: true, force: true });
});

test('npm pack makes the package, and it installs offline into a course app', () => {
  const [packed] = JSON.parse(
    run('npm', ['pack', join(root, 'dist-package'), '--pack-destination', app, '--json'], root),
  );
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(packed.filename, `attention-lab-${version}.tgz`);
  const files = packed.files.map((f) => f.path);
  for (const file of [
    'attention-lab.js',
    'attention-lab.css',
    'custom-elements.json',
    'types/attention-lab.d.ts',
    'types/public-types.d.ts',
    'schemas/quiz.schema.json',
    'schemas/exercises.schema.json',
    'schemas/table.schema.json',
    'CHANGELOG.md',
    'README.md',
    'package.json',
  ])
    assert.ok(files.includes(file), `the package holds ${file}`);
  assert.ok(
    files.some((f) => /^assets\/attention_core-.*\.wasm$/.test(f)) &&
      files.some((f) => /^assets\/attention_lab-.*\.wasm$/.test(f)),
    'the package holds both core modules',
  );
  assert.ok(
    files.some((f) => /^assets\/training-worker-.*\.js$/.test(f)),
    'the package holds the Worker',
  );
  assert.match(
    readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
    new RegExp(`^## ${version.replace(/\./g, '\\.')}$`, 'm'),
    'the changelog has this version',
  );
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${packed.filename}`]);
  const installed = JSON.parse(readFileSync(join(app, 'node_modules/attention-lab/package.json'), 'utf8'));
  assert.equal(installed.version, version);
  // Only the command line (`attention-lab package`) depends on anything: fflate writes the zip,
  // scorm-again is --preview's stand-in LMS; the widgets themselves import no package.
  const dev = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
  assert.deepEqual(
    installed.dependencies,
    { fflate: dev.fflate, 'scorm-again': dev['scorm-again'] },
    'the package depends on fflate and scorm-again only, at the versions tested',
  );
});

test("the author's TypeScript compiles against the package's types", () => {
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  // and a detail field the event does not have is an error
  writeFileSync(
    join(app, 'main.ts'),
    `${MAIN}\nquiz.addEventListener('attn-quiz-answered', (event) => event.detail.nope);\n`,
  );
  assert.throws(
    () => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']),
    (error) => /Property 'nope' does not exist on type 'QuizAnsweredDetail'/.test(error.stdout),
  );
  // and so is a property given a value of the wrong type
  writeFileSync(join(app, 'main.ts'), `${MAIN}\nfigure.positions = 'eight';\n`);
  assert.throws(
    () => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']),
    (error) => /Type 'string' is not assignable to type 'number'/.test(error.stdout),
  );
  writeFileSync(join(app, 'main.ts'), MAIN);
});

/** The app's built file that holds the quiz's Spanish messages (there must be exactly one). */
let spanishQuiz;

test('vite builds the app, and its widgets render in Chromium, Firefox and WebKit under the strict CSP', async (t) => {
  run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
  // A language's messages stay a chunk of their own through the course's bundler.
  const assets = join(app, 'dist/assets');
  const holding = readdirSync(assets).filter(
    (f) => f.endsWith('.js') && readFileSync(join(assets, f), 'utf8').includes('Ver la solución'),
  );
  assert.equal(holding.length, 1, `one file holds the quiz's Spanish messages: ${holding}`);
  spanishQuiz = holding[0];
  assert.ok(statSync(join(assets, spanishQuiz)).size < 4096, `${spanishQuiz} holds only messages`);
  // The probe's recorded weights are files of the app's build, as the .wasm is.
  for (const blocks of [1, 2])
    assert.ok(
      readdirSync(assets).some((f) => new RegExp(`^cue-${blocks}block\\.weights-.*\\.bin$`).test(f)),
      `the build emitted the ${blocks}-block model's recorded weights`,
    );
  site = await serveSite({ roots: [join(app, 'dist')] });
  for (const engine of enginesToRun()) await t.test(engine, () => renders(engine));
});

/** In `engine`: the app's widgets start, take the author's attributes, answer, and train through the app's bundle. */
async function renders(engine) {
  const browser = await launch(engine);
  try {
    const page = await browser.open(`${site.url}index.html`, { width: 1000, height: 900 });
    assert.deepEqual(await page.startWidgets(), [
      'attn-mask-figure',
      'attn-quiz',
      'attn-cue-trainer',
      'attn-cue-probe',
    ]);
    // the probe's recorded models answered: their weights came through the app's bundler
    assert.match(
      await page.run(() => document.querySelector('attn-cue-probe .probe-status').textContent),
      /^The recorded run: the right answer is \d+/,
    );
    assert.equal(await page.run(() => document.querySelectorAll('attn-cue-probe .probe-model').length), 2);
    // the author's attributes took effect (6 positions, 4 real: both masks allow 1+2+3+4+4+4 = 18 of 36 pairs)
    assert.match(
      await page.run(() => document.querySelector('attn-mask-figure [data-mask="both"]').textContent),
      /allowed: 0\.5000/,
    );
    // the stylesheet came with the one import
    assert.equal(await page.run(() => getComputedStyle(document.querySelector('attn-quiz')).display), 'block');
    // English needs no other language's file; lang="es" fetches the quiz's Spanish, and only then
    const fetched = () => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop());
    assert.ok(!(await page.run(fetched)).includes(spanishQuiz), 'an English page fetches no Spanish');
    await page.run(() => (document.querySelector('attn-quiz').lang = 'es'));
    assert.equal(
      await page.waitFor(() => document.querySelector('attn-quiz .attn-controls button')?.textContent === 'Comprobar'),
      true,
    );
    assert.ok((await page.run(fetched)).includes(spanishQuiz), 'the Spanish page fetched the Spanish messages');
    await page.run(() => (document.querySelector('attn-quiz').lang = 'en'));
    await page.waitFor(() => document.querySelector('attn-quiz .attn-controls button')?.textContent === 'Check');
    await page.click('attn-quiz input[value="1"]');
    await page.click('attn-quiz .attn-controls button:first-child');
    assert.equal(
      await page.waitFor(() => document.getElementById('log').textContent),
      '1/1 http://adlnet.gov/expapi/verbs/answered',
    );
    // the training Worker and the core's .wasm came through the app's bundler: one epoch of both models
    await page.run(() => {
      window.finished = [];
      document.addEventListener('attn-train-finished', (event) => window.finished.push(event.detail.model));
    });
    await page.click('attn-cue-trainer .attn-controls:nth-of-type(2) button:first-child');
    const done = await page.waitFor(
      () =>
        (window.finished.length === 2 && window.finished.sort()) ||
        (/failed|stopped/.test(document.querySelector('.trainer-status').textContent) &&
          document.querySelector('.trainer-status').textContent),
      undefined,
      { timeout: 60000 },
    );
    assert.deepEqual(done, [1, 2]);
    assert.deepEqual(await page.problems(), []);
  } finally {
    await browser.close();
  }
}
