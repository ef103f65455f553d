// The course package's pure parts, in node (through tsx): the page made into the launch page, the
// files it names, the manifests' figures, the page's score, the saved state within the LMS's
// limit, SCORM's time formats and its API calls' error checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import {
  coursePackage,
  generatedPage,
  identifier,
  packagedPage,
  pageReferences,
  scorm12Manifest,
  scorm2004Manifest,
  widgetTags,
} from '../../web/src/lms/course-package.ts';
import { PackageState, fitted } from '../../web/src/lms/package-state.ts';
import { pageResult } from '../../web/src/lms/page-result.ts';
import { checkedCall, scorm12Time, scorm2004Time } from '../../web/src/lms/scorm-runtime.ts';

const settings = { standard: 'scorm12', passMark: 0.8, title: 'Heads & "tails" <1>' };

test("the launch page: charset first, then the policy, settings and bridge; the author's loader and policy gone", () => {
  const page = packagedPage(
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src *">
<script type="module" src="https://cdn.example.org/attention-lab.js"></script>
<link rel="stylesheet" href="../dist/attention-lab.css"></head><body><attn-quiz src="q.json"></attn-quiz></body></html>`,
    settings,
  );
  assert.match(
    page,
    /^<!doctype html><html><head><meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval';/,
  );
  assert.doesNotMatch(page, /default-src \*|cdn\.example\.org|\.\.\/dist/);
  assert.match(
    page,
    /<script type="application\/json" id="attention-lab-package">\{"standard":"scorm12","passMark":0\.8,"title":"Heads & \\"tails\\" \\u003c1>"\}<\/script>/,
  );
  assert.match(page, /<script type="module" src="lms\/bridge\.js"><\/script>/);
  // A fragment without <head> becomes a whole page.
  assert.match(
    packagedPage('<attn-quiz></attn-quiz>', settings),
    /^<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">/,
  );
});

test("the files a page names: relative src= and <link href>, not other sites, fragments, anchors or the widgets' own", () => {
  const html = `<link rel="stylesheet" href="course.css"><a href="next.html">next</a>
<img src="./img/heads.png"><attn-quiz src="data/quiz one.json#x"></attn-quiz><attn-exercises src='ex.json?v=2'>
<script src="https://x.org/a.js"></script><script src="attention-lab.js"></script><img src="data:image/png;base64,AA">
<!-- <img src="commented.png"> --><attn-table src=/abs.json>`;
  assert.deepEqual(pageReferences(html), ['course.css', 'img/heads.png', 'data/quiz one.json', 'ex.json']);
  assert.deepEqual(widgetTags(html), ['attn-quiz', 'attn-exercises', 'attn-table']);
  assert.deepEqual(widgetTags('<p>no widget</p><!-- <attn-quiz> -->'), []);
});

test('manifests: escaped title, an XML ID, mastery score and minimum measure from the pass mark', () => {
  assert.equal(identifier('Heads & "tails" <1>'), 'attention-lab-Heads-tails-1');
  assert.equal(identifier('注意力'), 'attention-lab-course');
  const m12 = scorm12Manifest(settings, ['index.html', 'a b.js']);
  assert.match(m12, /<title>Heads &amp; &quot;tails&quot; &lt;1&gt;<\/title>/);
  assert.match(m12, /<adlcp:masteryscore>80<\/adlcp:masteryscore>/);
  assert.match(m12, /<file href="a b.js"\/>/);
  const m04 = scorm2004Manifest({ ...settings, passMark: 0.65 }, ['index.html']);
  assert.match(m04, /<imsss:minNormalizedMeasure>0\.65<\/imsss:minNormalizedMeasure>/);
  assert.match(m04, /adlcp:scormType="sco" href="index.html"/);
});

test("a generated page: each widget's attributes (a boolean bare), its src or its data inline, where no text in the data closes the script", () => {
  const data = { title: 'A </script><script>alert(1)</script> & "quote"', questions: [] };
  const page = generatedPage('Week <3>', [
    { tag: 'attn-quiz', attributes: { attempts: '2', 'pass-mark': '0.5', causal: '' }, data },
    { tag: 'attn-exercises', src: 'data/e.json' },
  ]);
  assert.match(page, /<title>Week &lt;3&gt;<\/title>/);
  const quiz = page.match(/<attn-quiz([^>]*)>\s*<script type="application\/json">([\s\S]*?)<\/script>\s*<\/attn-quiz>/);
  assert.equal(quiz[1], ' attempts="2" pass-mark="0.5" causal');
  assert.deepEqual(JSON.parse(quiz[2]), data);
  assert.match(page, /<attn-exercises src="data\/e\.json"><\/attn-exercises>/);
});

test('the zip holds the launch page, the files and the manifest listing them all', () => {
  const zip = coursePackage({
    settings,
    page: generatedPage('T', [{ tag: 'attn-quiz', src: 'data/q.json' }]),
    files: { 'data/q.json': new TextEncoder().encode('{}'), 'lms/bridge.js': new Uint8Array([1]) },
    date: new Date('2026-01-01T00:00:00Z'),
  });
  const files = unzipSync(zip);
  assert.deepEqual(Object.keys(files).sort(), ['data/q.json', 'imsmanifest.xml', 'index.html', 'lms/bridge.js']);
  const manifest = strFromU8(files['imsmanifest.xml']);
  for (const name of ['data/q.json', 'index.html', 'lms/bridge.js'])
    assert.match(manifest, new RegExp(`<file href="${name}"/>`));
  assert.match(strFromU8(files['index.html']), /<attn-quiz src="data\/q.json"><\/attn-quiz>/);
  assert.throws(
    () => coursePackage({ settings: { ...settings, standard: 'lti' }, page: '', files: {} }),
    /standard "lti" is not one this packager writes \(scorm12, scorm2004, cmi5\)/,
  );
});

test('a cmi5 zip holds cmi5.xml, whose course id is the same for the same page and title, another for another page', () => {
  const make = (page) =>
    strFromU8(
      unzipSync(
        coursePackage({
          settings: { ...settings, standard: 'cmi5' },
          page,
          files: {},
          date: new Date('2026-01-01T00:00:00Z'),
        }),
      )['cmi5.xml'],
    );
  const courseOf = (xml) => /<course id="([^"]+)"/.exec(xml)?.[1];
  const page = generatedPage('T', [{ tag: 'attn-quiz' }]);
  const id = courseOf(make(page));
  assert.match(id, /^urn:attention-lab:[\w.-]+:[0-9a-f]{8}$/);
  assert.equal(courseOf(make(page)), id);
  assert.notEqual(courseOf(make(generatedPage('T', [{ tag: 'attn-exercises' }]))), id);
  assert.match(make(page), new RegExp(`<au id="${id}/au" [^>]*>[\\s\\S]*<url>index.html</url>`));
});

test("the page's score: points over maximum of every graded widget; completed when all answered; passed at the mark", () => {
  const quiz = { key: 'quiz', points: 2, max: 4, answered: 3, total: 4 };
  const exercises = { key: 'ex', points: 3, max: 3, answered: 3, total: 3 };
  assert.deepEqual(pageResult([quiz, exercises], 0.7), {
    raw: 5,
    max: 7,
    scaled: 5 / 7,
    completed: false,
    passed: true,
  });
  assert.deepEqual(pageResult([{ ...quiz, answered: 4 }], 0.75), {
    raw: 2,
    max: 4,
    scaled: 0.5,
    completed: true,
    passed: false,
  });
  assert.deepEqual(pageResult([], 0), { raw: 0, max: 0, scaled: 0, completed: false, passed: true });
});

test("the saved state keeps answers first: settings go, then ungraded widgets' values, then a save is refused as full", () => {
  const answers = { answers: [0, 1, null, 1] };
  const values = {
    quiz: { ...answers, settings: { 'pass-mark': '0.5' } },
    trainer: { run: { epochs: Array.from({ length: 20 }, (_, i) => ({ epoch: i, loss: 1 / (i + 1) })) } },
  };
  const graded = new Set(['quiz']);
  const whole = JSON.stringify(values);
  assert.equal(fitted(values, graded, whole.length), whole);
  const noSettings = fitted(values, graded, whole.length - 1);
  assert.equal(noSettings, JSON.stringify({ quiz: answers, trainer: values.trainer }));
  assert.equal(fitted(values, graded, noSettings.length - 1), JSON.stringify({ quiz: answers }));
  assert.equal(fitted(values, graded, 10), undefined);

  const written = [];
  const state = new PackageState('{"quiz":{"answers":[1]}}', 40, (text) => written.push(text));
  state.graded.add('quiz');
  assert.deepEqual(state.load('quiz'), { answers: [1] });
  state.save('quiz', { answers: [1, 0] });
  assert.deepEqual(written, ['{"quiz":{"answers":[1,0]}}']);
  assert.throws(() => state.save('quiz', { answers: Array(30).fill(1) }), {
    name: 'ProgressStoreError',
    reason: 'full',
  });
  assert.deepEqual(state.load('quiz'), { answers: [1, 0] }, 'a refused save keeps what was saved');
  assert.equal(new PackageState('not json', 100, () => {}).load('quiz'), undefined);
});

test('session time as each standard writes it', () => {
  assert.equal(scorm12Time(0), '0000:00:00.00');
  assert.equal(scorm12Time(3_723_456), '0001:02:03.46');
  assert.equal(scorm2004Time(0), 'PT0S');
  assert.equal(scorm2004Time(63_500), 'PT1M3.5S');
  assert.equal(scorm2004Time(3_723_456), 'PT1H2M3.46S');
});

test('an API call the LMS refuses is said on the console with its error code and words', (t) => {
  const said = t.mock.method(console, 'error', () => {});
  let last = '0';
  const api = {
    SetValue: (name) => ((last = name === 'cmi.bad' ? '401' : '0'), name === 'cmi.bad' ? 'false' : 'true'),
    GetValue: () => ((last = '403'), ''),
    GetLastError: () => last,
    GetErrorString: (code) => (code === '401' ? 'Undefined Data Model Element' : 'Not initialized'),
    GetDiagnostic: () => '',
  };
  const names = { lastError: 'GetLastError', errorString: 'GetErrorString', diagnostic: 'GetDiagnostic' };
  assert.deepEqual(checkedCall(api, names, 'SetValue', ['cmi.ok', '1']), { value: 'true', error: '0' });
  assert.equal(said.mock.callCount(), 0);
  assert.deepEqual(checkedCall(api, names, 'SetValue', ['cmi.bad', '1']), { value: 'false', error: '401' });
  assert.match(
    said.mock.calls[0].arguments[0],
    /refused SetValue\("cmi\.bad", "1"\): error 401 Undefined Data Model Element/,
  );
  checkedCall(api, names, 'GetValue', ['cmi.suspend_data'], ['403']);
  assert.equal(said.mock.callCount(), 1, 'a code listed as an answer is not a failure');
});
