// The embedding guide's configurator (dist/embed.html), in Chromium under the strict CSP: the
// trainer's heads offered as the core allows them, an attribute set at its control reaching the
// preview's element and both snippets (and a default written nowhere), a refused value marked at
// its control in the widget's own words and left out, Copy to the clipboard and its fallback,
// the course package made in the browser (a bad pass mark and a failed fetch said at the control;
// the downloaded zip's files, its manifest against the standard's schemas, the page's quiz the one
// configured), and axe over the configurator with a control marked. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { launch, serveSite } from '../support/engines.mjs';
import { MANIFEST_SCHEMAS, validate } from '../support/scorm-schemas.mjs';
import { loadCore } from '../../build-wasm/facade/core/index.js';

const root = resolve(import.meta.dirname, '../..');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let site, browser, core;

before(async () => {
  site = await serveSite();
  browser = await launch('chromium');
  core = await loadCore({ wasmBinary: readFileSync(resolve(root, 'build-wasm/facade/generated/attention_lab.wasm')) });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

const text = (page, selector) =>
  page.run((selector) => document.querySelector(selector)?.textContent ?? null, selector);

test('the configurator: heads, an attribute to the preview and the snippets, a refused value in the widget’s words, copy', async () => {
  const page = await browser.open(site.url + 'embed.html', { width: 1280, height: 900 });
  await page.locate('#configurator-widget').waitFor();
  await page.puppeteer.select('#configurator-widget', 'attn-cue-trainer');
  await page.waitFor(() => document.querySelector('.configurator-preview > attn-cue-trainer') !== null);

  // The heads: only the divisors of the model width, as the core's field says.
  const { defaults, fields } = core.configs.cueTrain;
  const heads = fields.find((f) => f.key === 'heads');
  const offered = await page.run(() =>
    [...document.querySelectorAll('#configurator-heads option')].map((o) => o.value).filter((v) => v !== ''),
  );
  const divisors = [];
  for (let h = heads.min; h <= Math.min(heads.max, defaults.dModel); h++)
    if (defaults.dModel % h === 0) divisors.push(h);
  assert.equal(heads.divides, 'dModel', "the core says the trainer's heads divide dModel");
  assert.deepEqual(offered.map(Number), divisors, 'heads offers the divisors of dModel only');

  // An attribute set at its control: the preview's element has it, and so do both snippets.
  const epochs = page.locate('#configurator-epochs');
  await epochs.fill('12');
  await page.waitFor(
    () => document.querySelector('.configurator-preview > attn-cue-trainer').getAttribute('epochs') === '12',
  );
  assert.equal(await text(page, '#configurator-element'), '<attn-cue-trainer epochs="12"></attn-cue-trainer>');
  const iframe = await text(page, '#configurator-iframe');
  assert.match(iframe, /embed\.html\?widget=attn-cue-trainer&amp;epochs=12"/);
  assert.match(iframe, /height="1490"/, "the trainer's documented height (web/recipes/frame-heights.json)");

  // The frame's parent-origin: an origin goes into the frame's address; anything else is refused in place.
  const origin = page.locate('#configurator-parent-origin');
  await origin.fill('https://course.example.org');
  assert.match(
    await text(page, '#configurator-iframe'),
    /widget=attn-cue-trainer&amp;epochs=12&amp;parent-origin=https%3A%2F%2Fcourse\.example\.org"/,
  );
  await origin.fill('https://course.example.org/week3');
  assert.match(await text(page, '#configurator-parent-origin-error'), /^parent-origin must be an origin/);
  assert.doesNotMatch(await text(page, '#configurator-iframe'), /parent-origin/);
  await origin.fill('');

  // The default is written nowhere.
  await epochs.fill(String(defaults.epochs));
  await page.waitFor(() => !document.querySelector('.configurator-preview > attn-cue-trainer').hasAttribute('epochs'));
  assert.equal(await text(page, '#configurator-element'), '<attn-cue-trainer></attn-cue-trainer>');

  // A value the widget refuses: marked at the control in the words the widget itself shows, and left out.
  await epochs.fill('0');
  await page.waitFor(() => document.getElementById('configurator-epochs').getAttribute('aria-invalid') === 'true');
  const said = await text(page, '#configurator-epochs-error');
  assert.ok(
    !(await page.run(() => document.querySelector('.configurator-preview > attn-cue-trainer').hasAttribute('epochs'))),
  );
  assert.equal(await text(page, '#configurator-element'), '<attn-cue-trainer></attn-cue-trainer>');
  assert.match(await text(page, '.configurator-left-out'), /epochs/);
  const shown = await page.run(async () => {
    const widget = document.createElement('attn-cue-trainer');
    widget.setAttribute('epochs', '0');
    document.getElementById('configurator').append(widget);
    widget.scrollIntoView();
    for (let i = 0; i < 400 && !widget.querySelector('.attn-error'); i++) await new Promise((ok) => setTimeout(ok, 50));
    const words = widget.querySelector('.attn-error')?.textContent ?? null;
    widget.remove();
    return words;
  });
  assert.equal(shown, `<attn-cue-trainer>: ${said}`);
  assert.match(said, /^attribute epochs must be a whole number in \[1, 1000\], got "0"$/);

  // Copy: the clipboard holds the snippet; where the browser refuses, the snippet is selected and that is said.
  await epochs.fill('12');
  await browser.puppeteer
    .defaultBrowserContext()
    .overridePermissions(site.url.replace(/\/$/, ''), [
      'clipboard-read',
      'clipboard-write',
      'clipboard-sanitized-write',
    ]);
  // The preview above the buttons drawn and still, so the pointer lands where it aims.
  await page.waitFor(async () => {
    if (!document.querySelector('.configurator-preview > attn-cue-trainer[data-ready]')) return false;
    const at = () => document.getElementById('configurator-element').getBoundingClientRect().top;
    const from = at();
    for (let i = 0; i < 10; i++) await new Promise((done) => requestAnimationFrame(done));
    return at() === from;
  });
  await page.locate('::-p-aria([name="Copy the element"][role="button"])').click();
  await page.locate('.configurator-status').withText('Copied.').waitFor();
  assert.equal(await page.run(() => navigator.clipboard.readText()), await text(page, '#configurator-element'));
  await page.run(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
  });
  await page.locate('::-p-aria([name="Copy the iframe"][role="button"])').click();
  await page
    .locate('.configurator-status')
    .withText(/did not let this page copy/)
    .waitFor();
  assert.equal(await page.run(() => getSelection().toString()), await text(page, '#configurator-iframe'));
  assert.deepEqual(await page.problems(), []);
  await page.close();
});

// The button clicked as the DOM does: the preview above it may still grow while it draws, moving
// the button from under a pointer aimed a moment before.
const download = (page) => page.run(() => document.getElementById('configurator-package-download').click());

test('the course package: made in the browser from the configured quiz, as the command line makes it', async () => {
  const page = await browser.open(site.url + 'embed.html', { width: 1280, height: 900 });
  const downloads = mkdtempSync(join(tmpdir(), 'attention-lab-download-'));
  after(() => rmSync(downloads, { recursive: true, force: true }));
  const cdp = await page.puppeteer.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.locate('#configurator-package-download').waitFor();
  assert.equal(await page.run(() => document.getElementById('configurator-package').hidden), false);
  const standards = await page.run(() =>
    [...document.querySelectorAll('#configurator-package-standard option')].map((o) => o.value),
  );
  assert.deepEqual(standards.slice(0, 2), ['scorm12', 'scorm2004'], 'the standards course-package.ts writes');
  // The size said before anything but the list is fetched: the files' sizes in package/files.json.
  const list = JSON.parse(readFileSync(resolve(root, 'dist/package/files.json'), 'utf8')).files;
  const megabytes = Math.round(list.reduce((sum, f) => sum + f.size, 0) / 1e5) / 10;
  await page.locate('#configurator-package-about').withText(`(${megabytes} MB)`).waitFor();

  await page.puppeteer.select('#configurator-widget', 'attn-quiz');
  await page.waitFor(() => document.querySelector('.configurator-preview > attn-quiz') !== null);
  await page.locate('#configurator-attempts').fill('2');
  await page.puppeteer.select('#configurator-solution', 'off');
  await page.waitFor(() => /solution="off"/.test(document.getElementById('configurator-element').textContent));
  assert.match(await text(page, '#configurator-package-data'), /example data inline/);

  // A bad pass mark: said at its control, and nothing is downloaded.
  const passMark = page.locate('#configurator-package-pass-mark');
  assert.equal(await page.run(() => document.getElementById('configurator-package-pass-mark').value), '0.8');
  await passMark.fill('1.5');
  await download(page);
  await page.waitFor(
    () => document.getElementById('configurator-package-pass-mark').getAttribute('aria-invalid') === 'true',
  );
  assert.equal(
    await text(page, '#configurator-package-pass-mark-error'),
    'The pass mark must be a number from 0 to 1 (the share of the points that passes), got "1.5"',
  );

  await passMark.fill('0.6');
  await page.waitFor(() => !document.getElementById('configurator-package-pass-mark').hasAttribute('aria-invalid'));
  await page.locate('#configurator-package-title').fill('Week 3: attention');
  await page.puppeteer.select('#configurator-package-standard', 'scorm2004');
  await download(page);
  await page
    .locate('#configurator-package-status')
    .withText(/^Made /)
    .waitFor();
  const name = 'attention-lab-Week-3-attention-scorm2004.zip';
  assert.match(await text(page, '#configurator-package-status'), new RegExp(`^Made ${name}: ${list.length + 2} files`));
  let saved = [];
  for (let i = 0; i < 100 && !saved.includes(name); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    saved = readdirSync(downloads);
  }
  assert.deepEqual(saved, [name]);
  const zipPath = join(downloads, name);

  // The zip as unzip reads it: the page, the manifest, the widgets, the bridge, the core's .wasm.
  const listed = execFileSync('unzip', ['-l', zipPath], { encoding: 'utf8' });
  for (const file of ['index.html', 'imsmanifest.xml', 'attention-lab.js', 'attention-lab.css', 'lms/bridge.js'])
    assert.match(listed, new RegExp(`\\s${file.replace('.', '\\.')}\\n`), `${file} in the zip`);
  assert.match(listed, /\sassets\/[^\s]+\.wasm\n/, 'the core in the zip');
  const files = unzipSync(readFileSync(zipPath));
  assert.deepEqual(Object.keys(files).sort(), ['imsmanifest.xml', 'index.html', ...list.map((f) => f.path)].sort());
  for (const { path, size } of list) assert.equal(files[path].length, size, `${path} whole`);

  // The manifest, valid against SCORM 2004's schemas, with the title and the pass mark set above.
  const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
  const verdict = validate(manifest, MANIFEST_SCHEMAS.scorm2004);
  assert.ok(verdict.ok, verdict.said);
  assert.match(manifest, /<title>Week 3: attention<\/title>/);
  assert.match(manifest, /<imsss:minNormalizedMeasure>0\.6</);

  // The page: the package's settings and the quiz as configured, with the example questions inline.
  const html = new TextDecoder().decode(files['index.html']);
  const settings = JSON.parse(
    html.match(/<script type="application\/json" id="attention-lab-package">(.*?)<\/script>/)[1],
  );
  assert.deepEqual(settings, { standard: 'scorm2004', passMark: 0.6, title: 'Week 3: attention' });
  assert.match(html, /<script type="module" src="lms\/bridge\.js"><\/script>/);
  const quiz = html.match(/<attn-quiz([^>]*)>\s*<script type="application\/json">([\s\S]*?)<\/script>\s*<\/attn-quiz>/);
  assert.ok(quiz, 'the quiz with its questions inline');
  assert.equal(quiz[1], ' attempts="2" solution="off"');
  assert.deepEqual(
    JSON.parse(quiz[2]),
    JSON.parse(readFileSync(resolve(root, 'web/src/schemas/examples/quiz.example.json'), 'utf8')),
  );

  // A file that does not come: said at the button, in the configurator's words.
  await page.run(() => {
    const fetched = window.fetch;
    window.fetch = (url, ...rest) =>
      String(url).includes('/package/lms/')
        ? Promise.resolve(new Response('', { status: 404 }))
        : fetched(url, ...rest);
  });
  await download(page);
  await page
    .locate('#configurator-package-error')
    .withText(/could not be fetched/)
    .waitFor();
  assert.match(await text(page, '#configurator-package-error'), /package\/lms\/bridge\.js: HTTP 404/);
  assert.deepEqual(await page.problems(), []);
  await page.close();
});

test('axe: the configurator with a control marked has no serious or critical violation', async () => {
  // axe is injected as a script, which the strict CSP (rightly) refuses: this page bypasses it.
  const page = await browser.open(
    site.url + 'embed.html',
    { width: 1280, height: 900 },
    {
      beforeLoad: (p) => p.puppeteer.setBypassCSP(true),
    },
  );
  await page.locate('#configurator-widget').waitFor();
  await page.puppeteer.select('#configurator-widget', 'attn-cue-trainer');
  await page.locate('#configurator-epochs').fill('0');
  await page.waitFor(() => document.getElementById('configurator-epochs').getAttribute('aria-invalid') === 'true');
  await page.addScript(axePath);
  const violations = await page.run(async () => {
    const result = await window.axe.run('#configurator', { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
  });
  assert.deepEqual(violations, []);
  await page.close();
});
