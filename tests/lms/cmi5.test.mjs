// cmi5: the course structure (cmi5Xml), the adapter's pure parts (launch parameters, launch
// data, context), a package made by the command line (`attention-lab package --standard cmi5`),
// and a learner's attempt at that package in browsers against the test LMS (cmi5-lms.mjs, which
// serves the unzipped package): in Chromium the whole of it — launch, two answers, progress saved
// in the AU's state document, a reload of the used launch (refused and said in place, without
// asking the fetch URL again), a new launch of the same registration with the answers back, the
// other two answered, passed and completed against the LMS's masteryScore, "Done" terminating and
// going to the returnURL, a launch whose fetch URL gives no token (said in place) — and a smoke
// run in Firefox and WebKit (launch, initialized, an answer, terminated). Every statement passes
// xapi-validation and the cmi5 rules the LMS checks. The LMS's log of the Chromium attempt is
// written to build/lms/cmi5.log, the package's cmi5.xml to build/lms/cmi5.xml. Needs
// dist-package/ (`npx vite build && node scripts/build-package.mjs`):
// node --test tests/lms/cmi5.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { tsImport } from 'tsx/esm/api';
import { enginesToRun, launch } from '../support/engines.mjs';
import { cli } from './package-cli.mjs';
import { CMI5_CATEGORY, MASTERY_EXTENSION, SESSION_EXTENSION, startCmi5Lms } from './cmi5-lms.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = resolve(import.meta.dirname, 'course/lesson.html');
const LMS_WORDS = JSON.parse(readFileSync(resolve(ROOT, 'web/src/messages/en/lms.json'), 'utf8'));
const { cmi5Xml, auId, COURSE_STRUCTURE_NS } = await tsImport('../../web/src/lms/cmi5-course.ts', import.meta.url);
const adapter = await tsImport('../../web/src/lms/cmi5.ts', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-cmi5-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Evaluates each XPath expression of `expressions` (name -> expression) on the XML text in one
 * xmllint call (no network), each as a string; resolves to name -> value.
 */
function xpaths(xml, expressions) {
  const file = join(scratch, `xml-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const names = Object.keys(expressions);
  const SEP = '\u241e'; // ␞, a sign no value here holds
  const joined = `concat(${names.map((name) => `string(${expressions[name]})`).join(`, '${SEP}', `)})`;
  const out = execFileSync('xmllint', ['--nonet', '--xpath', joined, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const values = out.replace(/\n$/, '').split(SEP);
  assert.equal(values.length, names.length, `one value per expression: ${out}`);
  return Object.fromEntries(names.map((name, i) => [name, values[i]]));
}

/** An element path of local names, namespace-blind: ['a', 'b'] -> *[local-name()='a']/*[local-name()='b']. */
const el = (path) => path.map((name) => `*[local-name()='${name}']`).join('/');
/** The local names of the first five children of the element at `path`, as one space-separated XPath string. */
const childNames = (path) =>
  `concat(${[1, 2, 3, 4, 5].map((i) => `local-name(/${el(path)}/*[${i}]), ' '`).join(', ')})`;

describe('cmi5.xml (cmi5Xml)', () => {
  const settings = {
    standard: 'cmi5',
    passMark: 0.75,
    title: 'Attention & <masks> "quoted" \'too\'',
    id: 'https://courses.example/attention?x=1&y=2',
    launch: 'index.html?lang=en&mode=a',
    lang: 'en',
  };
  const xml = cmi5Xml(settings);
  const au = `/${el(['courseStructure', 'au'])}`;
  const text = (part, field) => `/${el(['courseStructure', part, field, 'langstring'])}`;
  // No npm package ships cmi5's CourseStructure.xsd, so the structure it requires is checked
  // element by element through xmllint's XPath (which also proves the text well-formed).
  const got = xpaths(xml, {
    ns: `namespace-uri(/*[local-name()='courseStructure'])`,
    root: childNames(['courseStructure']),
    course: childNames(['courseStructure', 'course']),
    au: childNames(['courseStructure', 'au']),
    foreign: `count(//*[namespace-uri()!='${COURSE_STRUCTURE_NS}'])`,
    courseId: `/${el(['courseStructure', 'course'])}/@id`,
    auId: `${au}/@id`,
    moveOn: `${au}/@moveOn`,
    masteryScore: `${au}/@masteryScore`,
    launchMethod: `${au}/@launchMethod`,
    url: `${au}/${el(['url'])}`,
    ...Object.fromEntries(
      ['course', 'au'].flatMap((part) =>
        ['title', 'description'].flatMap((field) => [
          [`${part}-${field}`, text(part, field)],
          [`${part}-${field}-lang`, `${text(part, field)}/@lang`],
        ]),
      ),
    ),
  });
  const words = (names) => names.trim().split(/\s+/);

  test('is well-formed, in the CourseStructure namespace, with the course and one AU in the order the schema requires', () => {
    assert.equal(got.ns, 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd');
    assert.equal(COURSE_STRUCTURE_NS, got.ns);
    assert.deepEqual(words(got.root), ['course', 'au']);
    assert.deepEqual(words(got.course), ['title', 'description']);
    assert.deepEqual(words(got.au), ['title', 'description', 'url']);
    assert.equal(got.foreign, '0');
  });

  test('the course and AU ids, the AU attributes (moveOn, masteryScore = pass mark, launchMethod) and the relative URL', () => {
    assert.equal(got.courseId, settings.id);
    assert.equal(got.auId, auId(settings.id));
    assert.equal(auId(settings.id), 'https://courses.example/attention?x=1&y=2/au');
    assert.deepEqual(
      [got.moveOn, got.masteryScore, got.launchMethod, got.url],
      ['CompletedOrPassed', '0.75', 'AnyWindow', settings.launch],
    );
  });

  test('author texts escaped (read back unchanged), in the given language; the description defaults to the title', () => {
    for (const part of ['course', 'au'])
      for (const field of ['title', 'description']) {
        assert.equal(got[`${part}-${field}`], settings.title);
        assert.equal(got[`${part}-${field}-lang`], 'en');
      }
    assert.ok(!xml.includes('<masks>') && xml.includes('&lt;masks&gt;') && xml.includes('&amp;'));
    const described = cmi5Xml({ ...settings, description: 'Scores & weights', lang: undefined });
    assert.ok(described.includes('<langstring>Scores &amp; weights</langstring>'));
    assert.ok(!described.includes('lang="'));
  });

  test('bad settings refused, naming the argument', () => {
    const bad = [
      [{ id: 'attention-course' }, /id must be an absolute IRI/],
      [{ launch: '' }, /launch must be/],
      [{ launch: 'my page.html' }, /launch must be/],
      [{ title: ' ' }, /title must be/],
      [{ passMark: 1.5 }, /passMark must be a number from 0 to 1/],
      [{ passMark: Number.NaN }, /passMark/],
      [{ lang: 'en US' }, /lang must be a language tag/],
      [{ title: 'bell \u0007' }, /title holds U\+0007/],
    ];
    for (const [change, message] of bad) assert.throws(() => cmi5Xml({ ...settings, ...change }), message);
  });
});

describe('cmi5 adapter: launch parameters, launch data, context', () => {
  const actor = { objectType: 'Agent', account: { homePage: 'https://lms.example', name: 'ada' } };
  const query = (over = {}) =>
    `?${new URLSearchParams({
      endpoint: 'https://lms.example/lrs',
      fetch: 'https://lms.example/fetch/1',
      actor: JSON.stringify(actor),
      registration: 'c8a5e1a4-8b1a-4d53-9d7e-2d0e5c3f4a10',
      activityId: 'https://courses.example/a/au',
      ...over,
    })}`;

  test('no parameter: not a cmi5 launch; all five: read, the endpoint ending in "/"', () => {
    assert.equal(adapter.launchParameters('?lang=en'), undefined);
    const launch = adapter.launchParameters(query());
    assert.equal(launch.endpoint, 'https://lms.example/lrs/');
    assert.deepEqual(launch.actor, actor);
    assert.equal(launch.activityId, 'https://courses.example/a/au');
  });

  test('a missing or malformed parameter is named', () => {
    assert.throws(
      () => adapter.launchParameters('?endpoint=https://x/&fetch=https://y/'),
      /lacks actor, registration, activityId/,
    );
    assert.throws(() => adapter.launchParameters(query({ endpoint: 'lrs/' })), /endpoint is not an absolute URL/);
    assert.throws(() => adapter.launchParameters(query({ actor: '{nope' })), /actor is not JSON/);
    assert.throws(
      () => adapter.launchParameters(query({ actor: '{"mbox":"mailto:a@b.c"}' })),
      /not an Agent with an account/,
    );
  });

  test('LMS.LaunchData: its fields read; a missing session id, a wrong launchMode or masteryScore named', () => {
    const template = { extensions: { [SESSION_EXTENSION]: 's1' } };
    const data = adapter.readLaunchData({
      contextTemplate: template,
      launchMode: 'Review',
      masteryScore: 0.6,
      moveOn: 'Passed',
      returnURL: 'https://lms.example/back',
    });
    assert.deepEqual(
      [data.launchMode, data.masteryScore, data.moveOn, data.returnURL],
      ['Review', 0.6, 'Passed', 'https://lms.example/back'],
    );
    assert.throws(() => adapter.readLaunchData({ contextTemplate: {} }), /no session id/);
    assert.throws(() => adapter.readLaunchData({ contextTemplate: template, launchMode: 'Test' }), /launchMode "Test"/);
    assert.throws(() => adapter.readLaunchData({ contextTemplate: template, masteryScore: 80 }), /masteryScore 80/);
  });

  test('context: the template wins and stays whole; the cmi5 categories only when asked', () => {
    const template = {
      contextActivities: { grouping: [{ objectType: 'Activity', id: 'pub' }] },
      extensions: { [SESSION_EXTENSION]: 's1' },
    };
    const own = {
      registration: 'other',
      contextActivities: { parent: [{ objectType: 'Activity', id: 'quiz' }], category: [{ id: CMI5_CATEGORY }] },
      extensions: { [SESSION_EXTENSION]: 'forged', mine: 1 },
    };
    const allowed = adapter.mergeContext(template, 'reg', own);
    assert.equal(allowed.registration, 'reg');
    assert.deepEqual(allowed.extensions, { [SESSION_EXTENSION]: 's1', mine: 1 });
    assert.deepEqual(allowed.contextActivities, {
      parent: [{ objectType: 'Activity', id: 'quiz' }],
      grouping: [{ objectType: 'Activity', id: 'pub' }],
    });
    const defined = adapter.mergeContext(template, 'reg', {}, [CMI5_CATEGORY]);
    assert.deepEqual(defined.contextActivities.category, [{ objectType: 'Activity', id: CMI5_CATEGORY }]);
    assert.equal(adapter.isoDuration(61234), 'PT61.23S');
  });
});

// The package made once, unzipped into `site` (what the LMS serves).
const site = join(scratch, 'au');
let files;
before(() => {
  const zip = join(scratch, 'cmi5.zip');
  const made = cli(PAGE, '--standard', 'cmi5', '--out', zip, '--title', 'Attention, checked', '--pass-mark', '0.75');
  assert.equal(made.status, 0, made.stderr);
  files = unzipSync(readFileSync(zip));
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(site, name)), { recursive: true });
    writeFileSync(join(site, name), data);
  }
});

describe('a cmi5 package (attention-lab package --standard cmi5)', () => {
  test('holds the page, the widgets, the bridge, the questions and cmi5.xml (no imsmanifest.xml)', () => {
    const names = Object.keys(files);
    for (const name of ['index.html', 'cmi5.xml', 'attention-lab.js', 'lms/bridge.js', 'questions.json'])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.ok(!names.includes('imsmanifest.xml'));
    assert.ok(
      names.some((name) => /^assets\/cmi5-.*\.js$/.test(name)),
      `the cmi5 adapter's chunk in ${names.join(', ')}`,
    );
    const page = new TextDecoder().decode(files['index.html']);
    assert.match(page, /connect-src 'self' https:;/);
    assert.match(page, /\{"standard":"cmi5","passMark":0\.75,"title":"Attention, checked"\}/);
  });

  test('cmi5.xml: one AU launching index.html, masteryScore the pass mark, the course id a urn kept for the same input', () => {
    const xml = new TextDecoder().decode(files['cmi5.xml']);
    const au = `/${el(['courseStructure', 'au'])}`;
    const got = xpaths(xml, {
      root: childNames(['courseStructure']),
      courseId: `/${el(['courseStructure', 'course'])}/@id`,
      auId: `${au}/@id`,
      masteryScore: `${au}/@masteryScore`,
      url: `${au}/${el(['url'])}`,
      title: `${au}/${el(['title', 'langstring'])}`,
    });
    assert.equal(got.root.trim(), 'course au');
    assert.match(got.courseId, /^urn:attention-lab:Attention-checked:[0-9a-f]{8}$/);
    assert.equal(got.auId, `${got.courseId}/au`);
    assert.deepEqual([got.masteryScore, got.url, got.title], ['0.75', 'index.html', 'Attention, checked']);
    mkdirSync(join(ROOT, 'build/lms'), { recursive: true });
    writeFileSync(join(ROOT, 'build/lms/cmi5.xml'), xml);
  });

  test('--preview is refused for cmi5, naming the argument', () => {
    const { status, stderr } = cli(PAGE, '--standard', 'cmi5', '--out', join(scratch, 'p.zip'), '--preview');
    assert.equal(status, 2);
    assert.match(stderr, /--preview: the stand-in LMS speaks SCORM only/);
  });
});

// In the packaged page (run in the browser: self-contained).

/** The quiz's question ids once drawn, else undefined. */
const quizDrawn = () => {
  const sets = document.querySelectorAll('attn-quiz fieldset[data-question]');
  return sets.length ? [...sets].map((set) => set.dataset.question) : undefined;
};

/** Picks, in question `id`, the option whose words begin with `word` ("Right", "Wrong") and checks it. */
const pick = ([id, word]) => {
  const set = document.querySelector(`attn-quiz fieldset[data-question="${id}"]`);
  const row = [...set.querySelectorAll('.option')].find((r) => r.textContent.trim().startsWith(word));
  row.querySelector('input').click();
  set.querySelector('.attn-controls button').click();
  return true;
};

/** What the page shows: the bridge's status line, its Done button, the quiz's activity id. */
const shown = () => ({
  status: document.querySelector('.attn-lms-status')?.textContent ?? null,
  done: document.querySelector('.attn-lms-finish button')?.textContent ?? null,
  activityId: document.querySelector('attn-quiz')?.getAttribute('activity-id') ?? null,
});

/** Clicks the bridge's Done button (ends the session, goes to the returnURL). */
const done = () => (document.querySelector('.attn-lms-finish button').click(), true);

/** Runs `fn` in the page until truthy, through a navigation (a reload) that may break a call. */
async function settle(page, fn, arg, timeout = 20000) {
  const until = Date.now() + timeout;
  for (;;) {
    try {
      return await page.waitFor(fn, arg, { timeout: Math.max(1000, until - Date.now()) });
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
}

/** The engine's own problems (console errors, failed requests): the LMS's pages have no watcher. */
const engineProblems = async (page) =>
  (await page.problems()).filter((line) => !line.startsWith('the watcher is not in this page'));

for (const engine of enginesToRun())
  describe(`cmi5 attempt in ${engine}${engine === 'chromium' ? '' : ' (smoke)'}`, () => {
    let browser;
    let lms;
    before(async () => {
      browser = await launch(engine);
      lms = await startCmi5Lms({
        roots: [site],
        masteryScore: 0.5,
        returnURL: '/return',
        sameOrigin: true,
        preferences: { languagePreference: 'en-US', audioPreference: 'on' },
      });
    });
    after(async () => {
      if (engine === 'chromium') lms?.writeLog(join(ROOT, 'build/lms/cmi5.log'));
      await browser?.close();
      await lms?.close();
    });
    const progressOf = () => JSON.parse(lms.state(`${lms.activityId}/attention-lab-progress`)?.progress || '{}');
    const quizAnswers = () => progressOf().check?.answers ?? {};

    if (engine !== 'chromium') {
      test('launch, initialized, an answer recorded, Done terminates', { timeout: 45000 }, async () => {
        const page = await browser.open(lms.launchUrl(), { width: 1000, height: 900 });
        assert.deepEqual(await page.waitFor(quizDrawn), ['row-sum', 'scale', 'mask', 'heads']);
        await lms.waitFor(() => lms.withVerb('initialized').length === 1, 'initialized');
        await page.run(pick, ['row-sum', 'Right']);
        await lms.waitFor(() => lms.withVerb('answered').length === 1, 'the answer');
        await page.run(done);
        await lms.waitFor(() => lms.withVerb('terminated').length === 1, 'terminated');
        assert.deepEqual(lms.violations, []);
        assert.deepEqual(
          lms.statements.map((s) => s.verb.display['en-US']),
          ['initialized', 'answered', 'terminated'],
        );
      });
      return;
    }

    test(
      'launch, two answers saved, a reload refused in place, relaunch with the answers back, passed and completed, Done',
      { timeout: 60000 },
      async () => {
        // Session 1: one right, one wrong; progress in the AU's state document.
        let page = await browser.open(lms.launchUrl(), { width: 1000, height: 900 });
        assert.deepEqual(await page.waitFor(quizDrawn), ['row-sum', 'scale', 'mask', 'heads']);
        const first = await page.run(shown);
        assert.equal(first.status, null, 'connected: no "not connected" line');
        assert.equal(first.done, LMS_WORDS.finish, 'the LMS gave a returnURL: the Done button');
        assert.equal(first.activityId, `${lms.activityId}/check`, "the quiz's activity under the AU's");
        await page.run(pick, ['row-sum', 'Right']);
        await page.run(pick, ['mask', 'Wrong']);
        await lms.waitFor(() => Object.keys(quizAnswers()).length === 2, 'two answers saved');

        // The same launch URL again in the tab (a reload): refused, said in place, no second POST to fetch.
        await page.run(() => (setTimeout(() => location.reload()), true));
        await lms.waitFor(() => lms.withVerb('terminated').length === 1, 'session 1 terminated');
        assert.equal(
          await settle(page, () => document.querySelector('.attn-lms-status')?.textContent),
          LMS_WORDS.launchUsed,
        );

        // Session 2: the answers back; the other two answered: 2 of 4 = 0.5, passed at masteryScore 0.5.
        page = await browser.open(lms.launchUrl(), { width: 1000, height: 900 });
        await page.waitFor(quizDrawn);
        const back = await page.waitFor(() => {
          const sets = [...document.querySelectorAll('attn-quiz fieldset[data-question]')];
          const seen = Object.fromEntries(
            sets.map((set) => [set.dataset.question, set.querySelector('.feedback')?.dataset.result ?? null]),
          );
          return seen['row-sum'] && seen.mask ? seen : undefined;
        });
        assert.deepEqual(back, { 'row-sum': 'right', scale: null, mask: 'wrong', heads: null });
        await page.run(pick, ['scale', 'Right']);
        await page.run(pick, ['heads', 'Wrong']);
        await lms.waitFor(() => lms.withVerb('completed').some((s) => s.object.id === lms.activityId), 'completed');
        assert.deepEqual(await engineProblems(page), []);
        await page.run(done);
        await lms.waitFor(() => lms.withVerb('terminated').length === 2, 'session 2 terminated');
        await lms.waitFor(() => lms.log.some((line) => line.includes('GET /return')), 'the learner at the returnURL');

        assert.deepEqual(lms.violations, []);
        const aboutAu = lms.statements
          .filter((s) => s.object.id === lms.activityId)
          .map((s) => s.verb.display['en-US']);
        assert.deepEqual(aboutAu, ['initialized', 'terminated', 'initialized', 'passed', 'completed', 'terminated']);
        const [passed] = lms.withVerb('passed');
        assert.deepEqual(passed.result.score, { scaled: 0.5, raw: 2, min: 0, max: 4 });
        assert.equal(passed.context.extensions[MASTERY_EXTENSION], 0.5);
        const answered = lms.withVerb('answered');
        assert.deepEqual(
          answered.map((s) => [s.object.id, s.result.success]),
          [
            [`${lms.activityId}/check/row-sum`, true],
            [`${lms.activityId}/check/mask`, false],
            [`${lms.activityId}/check/scale`, true],
            [`${lms.activityId}/check/heads`, false],
          ],
        );
        for (const s of answered) {
          assert.ok(!s.context.contextActivities.category?.some((a) => a.id === CMI5_CATEGORY));
          assert.equal(s.context.registration, lms.registration);
        }
        assert.equal(new Set(lms.statements.map((s) => s.context.extensions[SESSION_EXTENSION])).size, 2);
        assert.equal(Object.keys(quizAnswers()).length, 4);
        assert.equal(
          lms.log.filter((line) => line.includes('already used')).length,
          0,
          'the used fetch URL not asked again',
        );

        // A launch whose fetch URL gives no token: said in place, the page still works, nothing sent.
        const sent = lms.statements.length;
        const bad = new URL(lms.launchUrl());
        bad.searchParams.set('fetch', `${lms.lmsUrl}fetch/no-such-launch`);
        page = await browser.open(bad.href, { width: 1000, height: 900 });
        await page.waitFor(quizDrawn);
        assert.equal(
          await page.waitFor(() => document.querySelector('.attn-lms-status')?.textContent),
          LMS_WORDS.launchFailed,
        );
        assert.equal(lms.statements.length, sent);
      },
    );
  });
