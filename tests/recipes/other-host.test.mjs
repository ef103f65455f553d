// Recipe "plain HTML, the files on another host" (web/recipes/other-host/), in each engine: a
// course page on one loopback origin, under the policy the guide asks of it, loads the widgets
// from an asset server on another origin. With CORS on, the soft lookup, the ranked table, a quiz
// from the author's own JSON, the cue trainer (2 epochs, through the blob: Worker bootstrap) and
// a framed widget all work and their events arrive; the frame is exactly as tall as its
// content. With CORS off, every widget says, in its place, what the guide documents. And the
// course page's policy without worker-src or without 'wasm-unsafe-eval': the widgets say so.
// Run after `npm run build`: node --test tests/recipes/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describeEngines, serveSite } from '../support/engines.mjs';
import {
  COURSE_SITE,
  RECIPES,
  checkFramedMasks,
  documentedMessages,
  hostPolicy,
  localise,
  recordEvents,
  trainToFinish,
} from './recipes.mjs';

const PAGE = 'week3.html';
let assets, assetsWithoutCors;
const courses = {};

/** A course server for the recipe page, its files at `site`, under `policy`. */
function courseFor(site, policy) {
  let course;
  const rewrite = (html) => localise(html, { assets: site.url, course: course.url });
  return serveSite({ roots: [resolve(RECIPES, 'other-host'), COURSE_SITE], csp: policy, rewrite }).then(
    (server) => (course = server),
  );
}

before(async () => {
  assets = await serveSite({ cors: true });
  assetsWithoutCors = await serveSite();
  courses.open = await courseFor(assets, hostPolicy(assets.url));
  courses.withoutCors = await courseFor(assetsWithoutCors, hostPolicy(assetsWithoutCors.url));
  courses.noWorkers = await courseFor(
    assets,
    hostPolicy(assets.url, (p) => p.replace(/worker-src [^;]*/, "worker-src 'none'")),
  );
  courses.noWasm = await courseFor(
    assets,
    hostPolicy(assets.url, (p) => p.replace(" 'wasm-unsafe-eval'", '')),
  );
});
after(async () => {
  for (const site of [assets, assetsWithoutCors, ...Object.values(courses)]) await site?.close();
});

/** The text in place of each attn-* element once all show one: [[tag, text], ...]. */
/** The message in place of each widget (but those in `working`, which must draw instead). */
function placedMessages(page, working = []) {
  return page.waitFor((working) => {
    const widgets = [...document.querySelectorAll('body *')].filter((node) => node.localName.startsWith('attn-'));
    widgets.forEach((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
    if (!widgets.every((node) => !working.includes(node.localName) || node.dataset.ready !== undefined)) return false;
    const texts = widgets
      .filter((node) => !working.includes(node.localName))
      .map((node) => [node.localName, node.querySelector(':scope > p.attn-error[role=alert]')?.textContent]);
    return texts.every(([, text]) => text) && texts;
  }, working);
}

describeEngines((session) => {
  let documented, documentedWithoutCors;
  before(async () => {
    documented = await documentedMessages(session.browser, assets);
    documentedWithoutCors = await documentedMessages(session.browser, assetsWithoutCors);
  });

  test('CORS on: every widget works from the other origin, the trainer trains 2 epochs, the frame fits its content', async () => {
    const page = await session.browser.open(`${courses.open.url}${PAGE}`, { width: 1000, height: 900 });
    await recordEvents(page);
    assert.deepEqual(await page.startWidgets(), [
      'attn-soft-lookup',
      'attn-ranked-table',
      'attn-quiz',
      'attn-cue-trainer',
    ]);

    // The soft lookup answers keys; the table ranks by a column.
    await page.press(['ArrowLeft', 'ArrowUp'], 'attn-soft-lookup [role=application]');
    await page.waitFor(() => window.seen.some((e) => e.name === 'attn-change' && e.from === 'attn-soft-lookup'));
    await page.click('attn-ranked-table th button');
    await page.waitFor(() => window.seen.some((e) => e.name === 'attn-change' && e.from === 'attn-ranked-table'));

    // The quiz shows the author's own questions, fetched from the course's origin.
    assert.match(
      await page.run(() => document.querySelector('attn-quiz legend').textContent),
      /What does each row of attention weights add up to\?/,
    );
    await page.click('attn-quiz input[value="1"]');
    await page.click('attn-quiz .attn-controls button:first-child'); // Check
    const answered = await page.waitFor(() => window.seen.find((e) => e.name === 'attn-quiz-answered')?.detail);
    assert.equal(answered.id, 'row-sum');
    assert.equal(answered.correct, true);

    // The trainer: its Worker comes from the asset host, started through a blob: module.
    const finished = await trainToFinish(page);
    assert.deepEqual(finished.map((d) => d.model).sort(), [1, 2]);
    const epochs = await page.run(() =>
      window.seen.filter((e) => e.name === 'attn-train-epoch').map((e) => [e.detail.model, e.detail.epoch]),
    );
    assert.deepEqual(epochs.sort(), [
      [1, 1],
      [1, 2],
      [2, 1],
      [2, 2],
    ]);

    // The framed mask figure: its events arrive on the <iframe>, and it is as tall as its content.
    await checkFramedMasks(page);
    assert.deepEqual(await page.problems(), []);
  });

  test('CORS off: in place of every widget, the message the guide documents; the console says what the host must send', async () => {
    const page = await session.browser.open(`${courses.withoutCors.url}${PAGE}`, { width: 1000, height: 900 });
    const [noCors] = documentedWithoutCors;
    assert.match(noCors, /sends no Access-Control-Allow-Origin header/);
    const placed = await placedMessages(page);
    assert.deepEqual(
      placed,
      ['attn-soft-lookup', 'attn-ranked-table', 'attn-quiz', 'attn-cue-trainer'].map((tag) => [tag, noCors]),
    );
    const problems = await page.problems();
    assert.ok(
      problems.some((line) => line.startsWith(`console.error: attention-lab: ${noCors}`)),
      problems.join('\n'),
    );
  });

  test("a course page whose policy has worker-src 'none': the trainer says so in place of its status", async () => {
    const page = await session.browser.open(`${courses.noWorkers.url}${PAGE}`, { width: 1000, height: 900 });
    await recordEvents(page);
    await page.startWidgets();
    await page.click('attn-cue-trainer .attn-panel > .attn-controls:nth-child(2) > button:first-child');
    const status = await page.waitFor(() => {
      const text = document.querySelector('attn-cue-trainer .trainer-status').textContent;
      return text.startsWith('Training cannot run') && text;
    });
    assert.equal(status, documented[3], 'the message the guide documents');
  });

  test("a course page whose policy lacks 'wasm-unsafe-eval': every widget that needs the core says so in its place, the quiz works", async () => {
    const page = await session.browser.open(`${courses.noWasm.url}${PAGE}`, { width: 1000, height: 900 });
    const placed = await placedMessages(page, ['attn-quiz']);
    assert.deepEqual(
      placed,
      ['attn-soft-lookup', 'attn-ranked-table', 'attn-cue-trainer'].map((tag) => [tag, documented[2]]),
    );
  });
});
