// cmi5: the course structure (cmi5Xml), the adapter's pure parts (launch parameters, launch
// data, context), then a learner's attempt in browsers against the test LMS (cmi5-lms.mjs): in
// Chromium the whole of it — launch, two answers, progress saved, a reload of the used launch
// (refused without asking the fetch URL again), a new launch of the same registration with the
// answers back, the other two answers, passed and completed against the LMS's masteryScore,
// terminated, a Browse launch that judges nothing — and a smoke run in Firefox and WebKit.
// Every statement passes xapi-validation and the cmi5 rules the LMS checks. The LMS's log of the
// Chromium attempt is written to build/lms/cmi5.log.
//
// The AU is a hand-made page (cmi5-au/): the packaged page's widgets (dist-package/) and a
// stand-in for the package's bridge (cmi5-au/harness.mjs) built here with the adapter. Run after
// `npx vite build && node scripts/build-package.mjs`: node --test tests/lms/cmi5.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { build } from 'esbuild';
import { enginesToRun, launch } from '../support/engines.mjs';
import { CMI5_CATEGORY, MASTERY_EXTENSION, SESSION_EXTENSION, startCmi5Lms } from './cmi5-lms.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const AU_BUILD = join(ROOT, 'build/lms/cmi5-au');
const { cmi5Xml, auId, COURSE_STRUCTURE_NS } = await tsImport('../../web/src/lms/cmi5-course.ts', import.meta.url);
const adapter = await tsImport('../../web/src/lms/cmi5.ts', import.meta.url);

/** Evaluates XPath `expression` on the XML text with xmllint (no network); returns its output. */
function xpath(xml, expression) {
  const dir = mkdtempSync(join(tmpdir(), 'cmi5-xml-'));
  try {
    writeFileSync(join(dir, 'cmi5.xml'), xml);
    return execFileSync('xmllint', ['--nonet', '--xpath', expression, join(dir, 'cmi5.xml')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
  // No npm package ships cmi5's CourseStructure.xsd, so the structure it requires is checked
  // here, element by element, through xmllint's XPath (which also proves the text well-formed).
  const el = (path) => path.map((name) => `*[local-name()='${name}']`).join('/');

  test('is well-formed, in the CourseStructure namespace, with the course and one AU in the order the schema requires', () => {
    assert.equal(
      xpath(xml, `namespace-uri(/*[local-name()='courseStructure'])`),
      'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd',
    );
    assert.equal(COURSE_STRUCTURE_NS, 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd');
    const names = (path) =>
      xpath(xml, `concat(${[1, 2, 3, 4, 5].map((i) => `local-name(/${el(path)}/*[${i}]), ' '`).join(', ')})`).split(
        /\s+/,
      );
    assert.deepEqual(names(['courseStructure']), ['course', 'au']);
    assert.deepEqual(names(['courseStructure', 'course']), ['title', 'description']);
    assert.deepEqual(names(['courseStructure', 'au']), ['title', 'description', 'url']);
    assert.equal(xpath(xml, `count(//*[namespace-uri()!='${COURSE_STRUCTURE_NS}'])`), '0');
  });

  test('the course and AU ids, the AU attributes (moveOn, masteryScore = pass mark, launchMethod) and the relative URL', () => {
    const au = `/${el(['courseStructure', 'au'])}`;
    assert.equal(xpath(xml, `string(/${el(['courseStructure', 'course'])}/@id)`), settings.id);
    assert.equal(xpath(xml, `string(${au}/@id)`), auId(settings.id));
    assert.equal(auId(settings.id), 'https://courses.example/attention?x=1&y=2/au');
    assert.equal(xpath(xml, `string(${au}/@moveOn)`), 'CompletedOrPassed');
    assert.equal(xpath(xml, `string(${au}/@masteryScore)`), '0.75');
    assert.equal(xpath(xml, `string(${au}/@launchMethod)`), 'AnyWindow');
    assert.equal(xpath(xml, `string(${au}/${el(['url'])})`), settings.launch);
  });

  test('author texts escaped (read back unchanged), in the given language; the description defaults to the title', () => {
    for (const part of ['course', 'au'])
      for (const field of ['title', 'description']) {
        const langstring = `/${el(['courseStructure', part, field, 'langstring'])}`;
        assert.equal(xpath(xml, `string(${langstring})`), settings.title);
        assert.equal(xpath(xml, `string(${langstring}/@lang)`), 'en');
      }
    assert.ok(!xml.includes('<masks>') && xml.includes('&lt;masks&gt;') && xml.includes('&amp;'));
    const described = cmi5Xml({ ...settings, description: 'Scores & weights', lang: undefined });
    assert.equal(
      xpath(described, `string(/${el(['courseStructure', 'au', 'description', 'langstring'])})`),
      'Scores & weights',
    );
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

/** Builds the hand-made AU's script (the adapter and the stand-in bridge) into build/lms/cmi5-au/. */
async function buildAu() {
  await build({
    entryPoints: [resolve(import.meta.dirname, 'cmi5-au/harness.mjs')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: join(AU_BUILD, 'harness.js'),
    external: ['./attention-lab.js'],
    logLevel: 'error',
  });
  return [AU_BUILD, resolve(import.meta.dirname, 'cmi5-au'), join(ROOT, 'dist-package')];
}

/** Picks the option of `question` whose text is `text` and checks it, as a learner does. */
async function answer(page, question, text) {
  const place = await page.waitFor(
    ([question, text]) => {
      const fieldset = document.querySelectorAll('attn-quiz fieldset')[question];
      const options = fieldset ? [...fieldset.querySelectorAll('.option')] : [];
      const index = options.findIndex((option) => option.textContent.trim().startsWith(text));
      return index >= 0 && index + 1;
    },
    [question, text],
  );
  const fieldset = `attn-quiz fieldset:nth-of-type(${question + 1})`;
  await page.click(`${fieldset} .option:nth-of-type(${place}) input`);
  await page.click(`${fieldset} .attn-controls button:first-child`);
}

/** Leaves the page (the bridge ends the session on pagehide) for `url`. */
const leave = (page, url) => page.run((url) => (setTimeout(() => location.assign(url)), true), url);

const engines = enginesToRun();
let roots;
before(async () => {
  roots = await buildAu();
});

for (const engine of engines) {
  describe(`cmi5 attempt in ${engine}`, () => {
    let browser;
    let lms;
    before(async () => {
      browser = await launch(engine);
      lms = await startCmi5Lms({ roots, masteryScore: 0.5, returnURL: '/return' });
    });
    after(async () => {
      await browser?.close();
      await lms?.close();
    });

    if (engine === 'chromium')
      test(
        'launch, two answers saved, a reload refused, relaunch with the answers back, passed and completed, terminated, Browse',
        { timeout: 120000 },
        async () => {
          // Session 1: one right, one wrong; progress in the AU's state document.
          const first = lms.launchUrl();
          let page = await browser.open(first, { width: 1000, height: 900 });
          const started = await page.waitFor(() => window.cmi5Test);
          assert.equal(started.connected, true, JSON.stringify(started.status));
          assert.equal(started.passMark, 0.5, "the LMS's masteryScore overrides the package's 0.8");
          assert.deepEqual(started.learner.actor, lms.actor);
          await page.waitFor(() => document.querySelector('attn-quiz')?.dataset.ready !== undefined);
          await answer(page, 0, 'One');
          await answer(page, 1, 'Padding');
          const progressId = `${lms.activityId}/attention-lab-progress`;
          await lms.waitFor(
            () => JSON.parse(lms.state(progressId)?.progress || '{}').mask === false,
            'two answers saved',
          );
          assert.deepEqual(JSON.parse(lms.state(progressId).progress), { sum: true, mask: false });

          // The same launch URL again in the tab (a reload): refused without a second POST to fetch.
          await page.run(() => (setTimeout(() => location.reload()), true));
          await lms.waitFor(() => lms.withVerb('terminated').length === 1, 'session 1 terminated');
          const reloaded = await page.waitFor(() => window.cmi5Test);
          assert.equal(reloaded.connected, false);
          assert.equal(reloaded.status.error.code, 'fetch-used');

          // Session 2: the answers back; the other two answered: 2 of 4 = 0.5, passed at masteryScore 0.5.
          page = await browser.open(lms.launchUrl(), { width: 1000, height: 900 });
          const second = await page.waitFor(() => window.cmi5Test);
          assert.equal(second.connected, true, JSON.stringify(second.status));
          assert.deepEqual(JSON.parse(second.savedState), { sum: true, mask: false });
          await page.waitFor(() => document.querySelector('attn-quiz')?.dataset.ready !== undefined);
          await answer(page, 2, 'The square root');
          await answer(page, 3, 'The sequence length');
          await lms.waitFor(() => lms.withVerb('completed').some((s) => s.object.id === lms.activityId), 'completed');
          assert.deepEqual(await page.problems(), []);
          await leave(page, `${lms.lmsUrl}return`);
          await lms.waitFor(() => lms.withVerb('terminated').length === 2, 'session 2 terminated');

          // Browse: initialized and terminated, nothing judged, though every item is answered.
          page = await browser.open(lms.launchUrl({ mode: 'Browse' }), { width: 1000, height: 900 });
          const browse = await page.waitFor(() => window.cmi5Test);
          assert.equal(browse.launchMode, 'Browse');
          await page.waitFor(() => document.querySelector('attn-quiz')?.dataset.ready !== undefined);
          await answer(page, 0, 'One');
          await lms.waitFor(() => lms.withVerb('answered').length === 5, 'the Browse answer');
          await leave(page, `${lms.lmsUrl}return`);
          await lms.waitFor(() => lms.withVerb('terminated').length === 3, 'session 3 terminated');
          lms.writeLog(join(ROOT, 'build/lms/cmi5.log'));

          assert.deepEqual(lms.violations, []);
          const aboutAu = lms.statements
            .filter((s) => s.object.id === lms.activityId)
            .map((s) => s.verb.display['en-US']);
          assert.deepEqual(aboutAu, [
            'initialized',
            'terminated',
            'initialized',
            'passed',
            'completed',
            'terminated',
            'initialized',
            'terminated',
          ]);
          const [passed] = lms.withVerb('passed');
          assert.deepEqual(passed.result.score, { scaled: 0.5, raw: 2, min: 0, max: 4 });
          assert.equal(passed.context.extensions[MASTERY_EXTENSION], 0.5);
          const answered = lms.withVerb('answered');
          assert.deepEqual(
            answered.map((s) => [s.object.id.split('/').pop(), s.result.success]),
            [
              ['sum', true],
              ['mask', false],
              ['scale', true],
              ['heads', false],
              ['sum', true],
            ],
          );
          for (const s of answered) {
            assert.ok(!s.context.contextActivities.category?.some((a) => a.id === CMI5_CATEGORY));
            assert.equal(s.context.registration, lms.registration);
          }
          const sessions = new Set(lms.statements.map((s) => s.context.extensions[SESSION_EXTENSION]));
          assert.equal(sessions.size, 3);
          assert.equal(JSON.parse(lms.state(progressId).progress).heads, false);
        },
      );
    else
      test('smoke: launch, an answer, terminated, every rule kept', { timeout: 90000 }, async () => {
        const page = await browser.open(lms.launchUrl(), { width: 1000, height: 900 });
        const started = await page.waitFor(() => window.cmi5Test);
        assert.equal(started.connected, true, JSON.stringify(started.status));
        await page.waitFor(() => document.querySelector('attn-quiz')?.dataset.ready !== undefined);
        await answer(page, 0, 'One');
        await lms.waitFor(() => lms.withVerb('answered').length === 1, 'the answer');
        await lms.waitFor(() => lms.state(`${lms.activityId}/attention-lab-progress`), 'progress saved');
        await leave(page, `${lms.lmsUrl}return`);
        await lms.waitFor(() => lms.withVerb('terminated').length === 1, 'terminated');
        assert.deepEqual(lms.violations, []);
        assert.deepEqual(
          lms.statements.map((s) => s.verb.display['en-US']),
          ['initialized', 'answered', 'terminated'],
        );
      });
  });
}
