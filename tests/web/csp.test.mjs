// The strict Content-Security-Policy, checked at its source: every document (the page and any
// frame in it) records each `securitypolicyviolation` event from its very first script on, and
// after every widget has started, been used and one short training has run, there must be
// none, on the lesson, on the embedding guide and on embed.html framing each widget. (The
// other browser suites only see violations that reach the console.) Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSite, openSite, startLesson, watchErrors } from '../support/chromium.mjs';

const WIDGETS = ['attn-soft-lookup', 'attn-attention-steps', 'attn-ranked-table', 'attn-scale-figure', 'attn-mask-figure', 'attn-heads-figure',
  'attn-pitfall-demo', 'attn-flowchart', 'attn-quiz', 'attn-exercises', 'attn-cue-trainer', 'attn-cue-probe'];
let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

/** A page whose every frame records CSP violations in window.__csp from the start. */
async function watchedPage(options) {
  const page = await browser.newPage(options);
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber, sample: e.sample });
    });
  });
  return { page, errors: watchErrors(page) };
}

async function violations(page) {
  const all = [];
  for (const frame of page.frames()) {
    const list = await frame.evaluate(() => window.__csp ?? null).catch(() => null);
    assert.ok(list !== null, `the watcher ran in ${frame.url()}`);
    all.push(...list.map((v) => ({ frame: frame.url(), ...v })));
  }
  return all;
}

/** Runs a one-epoch training in the page's <attn-cue-trainer> and waits for both models. */
async function shortTraining(page, scope = page) {
  const trainer = scope.locator('attn-cue-trainer');
  await trainer.scrollIntoViewIfNeeded();
  await scope.locator('attn-cue-trainer[data-ready]').waitFor({ timeout: 15000 });
  await trainer.getByLabel('epochs', { exact: true }).fill('1');
  await trainer.getByRole('button', { name: 'Train both' }).click();
  await trainer.locator('.trainer-status').filter({ hasText: /^Trained in your browser/ }).waitFor({ timeout: 60000 });
}

test('the lesson: no CSP violation after every widget started, was used, and a short training ran', async () => {
  const { page, errors } = await watchedPage({ viewport: { width: 1280, height: 900 } });
  await startLesson(page, server.url);
  const tags = await page.$$eval('main [data-ready]', (nodes) => nodes.map((n) => n.localName));
  for (const tag of WIDGETS) assert.ok(tags.includes(tag), `${tag} started`);
  // Use a few: the sketch, the table, the quiz, an exercise.
  await page.locator('attn-soft-lookup [role="application"]').focus();
  await page.keyboard.press('ArrowLeft');
  await page.locator('attn-ranked-table th button').nth(1).click();
  const quiz = page.locator('attn-quiz').first();
  await quiz.locator('input[type=radio]').first().check();
  await quiz.getByRole('button', { name: 'Check' }).first().click();
  await page.locator('attn-exercises').getByRole('button', { name: 'Check' }).first().click();
  await shortTraining(page);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the embedding guide and embed.html framing each widget: no CSP violation', async () => {
  const { page, errors } = await watchedPage({ viewport: { width: 1000, height: 900 } });
  await page.goto(server.url + 'embed.html');
  await page.locator('#example-frame').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => Number(document.getElementById('example-frame').getAttribute('height')) > 200, null, { timeout: 15000 });
  await page.locator('#example-quiz input[type=radio]').nth(1).check();
  await page.locator('#example-quiz').getByRole('button', { name: 'Check' }).click();
  assert.deepEqual(await violations(page), [], 'embed.html');
  await page.close();

  for (const tag of WIDGETS) {
    const { page: framed, errors: framedErrors } = await watchedPage({ viewport: { width: 1000, height: 900 } });
    await framed.goto(server.url + `embed.html?widget=${tag}`);
    await framed.waitForSelector(`${tag}[data-ready]`, { timeout: 20000 });
    if (tag === 'attn-cue-trainer') await shortTraining(framed);
    await framed.waitForTimeout(200);
    assert.deepEqual(await violations(framed), [], tag);
    assert.deepEqual(framedErrors, [], tag);
    await framed.close();
  }
  assert.deepEqual(errors, []);
});

test('the watcher sees a violation when there is one', async () => {
  const { page } = await watchedPage();
  await page.goto(server.url + 'embed.html?widget=attn-flowchart');
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = 'body { color: red }';
    document.head.append(style);
  });
  await page.waitForFunction(() => window.__csp.length > 0);
  const [v] = await violations(page);
  assert.match(v.directive, /^style-src/);
  await page.close();
});
