// The strict Content-Security-Policy, checked at its source: every document (the page and any
// frame in it) records each `securitypolicyviolation` event from its very first script on, and
// after every widget has started, been used and one short training has run, there must be
// none, on the lesson, on the embedding guide and on embed.html framing each widget. (The
// other browser suites only see violations that reach the console.) And a course page whose
// policy refuses the widgets' stylesheet (style-src 'none'): each widget says so in its place,
// in the catalog's words, and works. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeSite, openSite, startLesson } from '../support/chromium.mjs';
import { DIST, serveSite } from '../support/engines.mjs';

const WIDGETS = [
  'attn-soft-lookup',
  'attn-attention-steps',
  'attn-ranked-table',
  'attn-scale-figure',
  'attn-mask-figure',
  'attn-heads-figure',
  'attn-pitfall-demo',
  'attn-flowchart',
  'attn-quiz',
  'attn-exercises',
  'attn-cue-trainer',
  'attn-cue-probe',
];
let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

/** Every frame of a page opened with this records CSP violations in window.__csp from the start. */
const watchViolations = {
  beforeLoad: (page) =>
    page.puppeteer.evaluateOnNewDocument(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__csp.push({
          directive: e.violatedDirective,
          blocked: e.blockedURI,
          source: e.sourceFile,
          line: e.lineNumber,
          sample: e.sample,
        });
      });
    }),
};

/** `url` opened in a page of `viewport` whose every frame records CSP violations (watchViolations). */
async function watchedPage(url, viewport = { width: 1280, height: 720 }) {
  const page = await browser.open(url, viewport, watchViolations);
  return { page, errors: page.engineProblems };
}

async function violations(page) {
  const all = [];
  for (const frame of page.puppeteer.frames()) {
    const list = await frame.evaluate(() => window.__csp ?? null).catch(() => null);
    assert.ok(list !== null, `the watcher ran in ${frame.url()}`);
    all.push(...list.map((v) => ({ frame: frame.url(), ...v })));
  }
  return all;
}

/** Runs a one-epoch training in the page's <attn-cue-trainer> and waits for both models. */
async function shortTraining(page) {
  const trainer = page.locate('attn-cue-trainer');
  await trainer.scrollIntoView();
  await page.locate('attn-cue-trainer[data-ready]').waitFor({ timeout: 15000 });
  await trainer.locate('::-p-aria(epochs)').fill('1');
  await trainer.locate('::-p-aria([name="Train both"][role="button"])').click();
  await trainer
    .locate('.trainer-status')
    .withText(/^Trained in your browser/)
    .waitFor({ timeout: 60000 });
}

test('the lesson: no CSP violation after every widget started, was used, and a short training ran', async () => {
  const page = await startLesson(browser, server.url, { width: 1280, height: 900 }, watchViolations);
  const errors = page.engineProblems;
  const tags = await page.locate('main [data-ready]').evaluateAll((nodes) => nodes.map((n) => n.localName));
  for (const tag of WIDGETS) assert.ok(tags.includes(tag), `${tag} started`);
  // Use a few: the sketch, the table, the quiz, an exercise.
  await page.locate('attn-soft-lookup [role="application"]').focus();
  await page.press('ArrowLeft');
  await page.locate('attn-ranked-table th button').nth(1).click();
  const quiz = page.locate('attn-quiz').first();
  await quiz.locate('input[type=radio]').first().check();
  await quiz.locate('::-p-aria([name="Check"][role="button"])').first().click();
  await page.locate('attn-exercises').locate('::-p-aria([name="Check"][role="button"])').first().click();
  await shortTraining(page);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the embedding guide and embed.html framing each widget: no CSP violation', async () => {
  const { page, errors } = await watchedPage(server.url + 'embed.html', { width: 1000, height: 900 });
  await page.locate('#example-frame').scrollIntoView();
  await page.waitFor(() => Number(document.getElementById('example-frame').getAttribute('height')) > 200, undefined, {
    timeout: 15000,
  });
  await page.locate('#example-quiz input[type=radio]').nth(1).check();
  await page.locate('#example-quiz').locate('::-p-aria([name="Check"][role="button"])').click();
  assert.deepEqual(await violations(page), [], 'embed.html');
  await page.close();

  for (const tag of WIDGETS) {
    const { page: framed, errors: framedErrors } = await watchedPage(server.url + `embed.html?widget=${tag}`, {
      width: 1000,
      height: 900,
    });
    await framed.locate(`${tag}[data-ready]`).waitFor({ timeout: 20000 });
    if (tag === 'attn-cue-trainer') await shortTraining(framed);
    await new Promise((ok) => setTimeout(ok, 200));
    assert.deepEqual(await violations(framed), [], tag);
    assert.deepEqual(framedErrors, [], tag);
    await framed.close();
  }
  assert.deepEqual(errors, []);
});

test('the watcher sees a violation when there is one', async () => {
  const { page } = await watchedPage(server.url + 'embed.html?widget=attn-flowchart');
  await page.run(() => {
    const style = document.createElement('style');
    style.textContent = 'body { color: red }';
    document.head.append(style);
  });
  await page.waitFor(() => window.__csp.length > 0);
  const [v] = await violations(page);
  assert.match(v.directive, /^style-src/);
  await page.close();
});

test("a course page whose policy refuses the widgets' stylesheet: each widget says so in place and works", async () => {
  const english = JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../web/src/messages/en/common.json'), 'utf8'),
  ).stylesheetMissing;
  const policy = (styles) => `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src ${styles}`;
  for (const styles of ["'self'", "'none'"]) {
    const course = await serveSite({
      roots: [
        resolve(import.meta.dirname, 'course-styles'),
        resolve(import.meta.dirname, '../recipes/course-site'),
        DIST,
      ],
      csp: policy(styles),
    });
    try {
      const page = await browser.open(`${course.url}course.html`, { width: 1000, height: 900 });
      assert.deepEqual(await page.startWidgets(), ['attn-mask-figure', 'attn-quiz']);
      if (styles === "'self'") {
        // The stylesheet's mark is on each widget when it draws, so no widget says anything.
        assert.deepEqual(
          await page.run(() =>
            [...document.querySelectorAll('.attn-widget')].map((w) =>
              getComputedStyle(w).getPropertyValue('--attn-stylesheet').trim(),
            ),
          ),
          ['applied', 'applied'],
        );
        assert.equal(await page.run(() => document.querySelectorAll('.attn-style-note').length), 0);
        assert.deepEqual(await page.problems(), []);
        continue;
      }
      const notes = await page.waitFor(() => {
        const found = [...document.querySelectorAll('.attn-style-note')];
        return found.length === 2 && found.map((note) => [note.parentElement.localName, note.textContent]);
      });
      assert.deepEqual(notes, [
        ['attn-mask-figure', english],
        ['attn-quiz', english],
      ]);
      // and the quiz still answers
      await page.click('attn-quiz .option:nth-of-type(2) input');
      await page.click('attn-quiz .attn-controls button');
      assert.match(await page.waitFor(() => document.querySelector('attn-quiz .feedback')?.textContent), /Yes\.$/);
      const problems = await page.problems();
      assert.ok(
        problems.length > 0 && problems.every((line) => /style-src|attention-lab\.css/.test(line)),
        problems.join('\n'),
      );
      await page.close();
    } finally {
      await course.close();
    }
  }
});
