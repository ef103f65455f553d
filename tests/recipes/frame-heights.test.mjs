// The guide's fixed heights for framed widgets (web/recipes/frame-heights.json), measured: for a
// page that may hold no script, each widget framed at each of the guide's widths, in each engine,
// in its tallest state (the quiz with every question's longest feedback shown, the exercises
// with every check's message shown, the trainer with its recorded run and analysis, the
// step-by-step widget with a sum written out). Every
// documented height must hold the content (no scroll bar), and be at most SLACK px above the
// tallest engine's. And the framed trainer, training: its frame follows each real change of its
// content once (posting every step would move it 4 times per run). The frame is on
// the page's origin, so the page reaches into it. And frames far below the fold of a course page
// on another origin (the frames script sizing them): never scrolled to, their widgets start and
// each frame takes its content's height, from a reservation too small (the trainer) or too small
// for the author's longer quiz (the guide's height). And a framed quiz whose src is on the course's
// origin says in place, from the catalog, where a framed widget's data may come from.
// Run after `npm run build`: node --test tests/recipes/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEngines, DIST, ENGINES, enginesToRun, serveSite } from '../support/engines.mjs';
import { COURSE_SITE, FRAME_HEIGHTS, FRAME_HEIGHTS_FILE, RECIPES, frameFit } from './recipes.mjs';

const SLACK = 30;
/** Every widget the package declares (custom-elements.json): each needs its documented heights. */
const TAGS = JSON.parse(readFileSync(resolve(DIST, 'custom-elements.json'), 'utf8')).modules[0].declarations.map(
  (d) => d.tagName,
);
const HOST = resolve(import.meta.dirname, 'frame-host');
const MESSAGES = resolve(import.meta.dirname, '../../web/src/messages');
const LMS_RECIPE = resolve(RECIPES, 'lms/lesson.html');
const measured = {}; // tag -> width -> [px per engine]
let site, course;

before(async () => {
  site = await serveSite({ roots: [HOST, COURSE_SITE, DIST] });
  const assets = new URL(site.url).origin;
  course = await serveSite({
    roots: [HOST, COURSE_SITE],
    csp: `default-src 'self'; script-src 'self' ${assets}; frame-src ${assets}`,
    rewrite: (html) =>
      html
        .replaceAll('ASSETS/', site.url)
        .replaceAll('COURSE/', course.url)
        .replace('QUIZ_HEIGHT', String(FRAME_HEIGHTS.heights['attn-quiz'].at(-1))),
  });
});
after(async () => {
  await site?.close();
  await course?.close();
});

/**
 * Brings the framed widget (same origin: the page reaches into the frame's document) to its
 * tallest state: under each question or exercise, the longest feedback or message it can show.
 */
function tallestState() {
  const framed = document.getElementById('framed').contentDocument;
  for (const fieldset of framed.querySelectorAll('attn-quiz fieldset')) {
    const [check, solution] = fieldset.querySelectorAll('.attn-controls button');
    const choices = [...fieldset.querySelectorAll('input[type=radio]')].map((input) => () => {
      input.click();
      check.click();
    });
    choices.push(() => solution.click());
    const heights = choices.map((choose) => (choose(), fieldset.getBoundingClientRect().height));
    choices[heights.indexOf(Math.max(...heights))]();
  }
  for (const button of framed.querySelectorAll('attn-exercises .attn-controls button')) button.click();
  // The step-by-step widget: a sum written out (the last query's last weight, among the longest).
  framed.querySelector('attn-attention-steps table[data-matrix="weights"] tr:last-child td:last-child')?.focus();
}

/** Frames `tag` (with &attribute=value... if any) at `width` px and resolves to its content height, once the frame fits it. */
async function measure(page, tag, width) {
  await page.run(
    ({ tag, width }) => {
      const frame = document.getElementById('framed');
      window.before = frame.contentDocument;
      frame.width = String(width);
      frame.src = `embed.html?widget=${tag}`;
    },
    { tag, width },
  );
  // Ready: a new document, its widget with data-ready (the flowchart, an image, raises no attn-ready).
  await page.waitFor((tag) => {
    const framed = document.getElementById('framed').contentDocument;
    return framed !== window.before && framed?.querySelector(`${tag}[data-ready]`) !== null;
  }, tag.split('&')[0]);
  await page.run(tallestState);
  // The frames script follows the content (a smaller height after a moment): wait until it fits.
  for (let tries = 0; ; tries++) {
    const fit = await frameFit(page, '#framed');
    if (Math.abs(fit.content - fit.frame) <= 1 && !fit.scrolls) return Math.ceil(fit.content);
    if (tries === 100)
      throw new Error(`${tag} at ${width} px: the frame never fitted its content (${JSON.stringify(fit)})`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

describeEngines((session) => {
  let page;
  before(async () => {
    page = await session.browser.open(`${site.url}frame-host.html`, { width: 1000, height: 900 });
  });

  test('the framed trainer, training: the frame follows its content once per real change (results cleared, results back), and fits it', async () => {
    await measure(page, 'attn-cue-trainer&epochs=3', FRAME_HEIGHTS.widths.at(-1));
    const before = await page.run(() => {
      window.heights = [];
      window.finished = 0;
      addEventListener('message', (event) => {
        if (event.data?.source !== 'attention-lab') return;
        if (event.data.type === 'height') window.heights.push(event.data.height);
        if (event.data.name === 'attn-train-finished') window.finished += 1;
      });
      const framed = document.getElementById('framed');
      framed.contentDocument
        .querySelector('attn-cue-trainer .attn-panel > .attn-controls:nth-child(2) > button')
        .click(); // Train both
      return framed.clientHeight;
    });
    await page.waitFor(() => window.finished === 2, undefined, { timeout: 60000 });
    const fit = await page.waitFor(async () => {
      const framed = document.getElementById('framed');
      const content = framed.contentDocument.documentElement.getBoundingClientRect().height;
      return (
        Math.abs(content - framed.clientHeight) <= 1 && {
          frame: framed.clientHeight,
          scrolls: framed.contentDocument.documentElement.scrollHeight > framed.clientHeight,
        }
      );
    });
    const heights = await page.run(() => window.heights);
    assert.equal(fit.scrolls, false);
    assert.ok(heights.length <= 2, `the frame moved ${heights.length} times: ${before} then ${heights.join(', ')}`);
    assert.equal(heights.at(-1) ?? before, fit.frame);
  });

  for (const tag of TAGS) {
    test(`${tag}: the documented heights hold it at ${FRAME_HEIGHTS.widths.join(' and ')} px`, async (t) => {
      const documented = FRAME_HEIGHTS.heights[tag] ?? [];
      // Every width measured first, so the tightness check below can suggest every height.
      const heights = [];
      for (const width of FRAME_HEIGHTS.widths) {
        heights.push(await measure(page, tag, width));
        ((measured[tag] ??= {})[width] ??= []).push(heights.at(-1));
      }
      for (const [i, width] of FRAME_HEIGHTS.widths.entries()) {
        t.diagnostic(`${width} px wide: ${heights[i]} px tall (documented ${documented[i]})`);
        assert.ok(
          heights[i] <= documented[i],
          `${tag} is ${heights[i]} px tall in a ${width} px frame, more than the ${documented[i] ?? 'no height'} documented`,
        );
      }
    });
  }

  // Last: it opens a page of its own.
  test("frames far below the fold take their content's height unseen, an author's longer quiz included", async () => {
    const unseen = await session.browser.open(`${course.url}off-screen.html`, { width: 1000, height: 900 });
    const fits = {};
    for (const selector of ['#trainer', '#quiz']) {
      for (let tries = 0; ; tries++) {
        const ready = await unseen.runInFrame(selector, () => document.querySelector('[data-ready]') !== null);
        const fit = await frameFit(unseen, selector);
        if (ready && Math.abs(fit.content - fit.frame) <= 1 && !fit.scrolls) {
          fits[selector] = fit;
          break;
        }
        if (tries === 300)
          throw new Error(
            `${selector}: its frame never took its content's height (${JSON.stringify({ ready, ...fit })})`,
          );
        await new Promise((ok) => setTimeout(ok, 50));
      }
    }
    const page = await unseen.run(() => ({
      scrolled: scrollY,
      viewport: innerHeight,
      firstFrame: document.getElementById('trainer').getBoundingClientRect().top,
    }));
    assert.equal(page.scrolled, 0, 'nothing scrolled the page');
    assert.ok(page.firstFrame > page.viewport + 600, `the frames are far below the fold (at ${page.firstFrame} px)`);
    assert.ok(fits['#trainer'].frame > 173, `the trainer's frame grew from 173 px to ${fits['#trainer'].frame} px`);
    const documented = FRAME_HEIGHTS.heights['attn-quiz'].at(-1);
    assert.ok(
      fits['#quiz'].frame > documented,
      `the longer quiz: ${fits['#quiz'].frame} px, over the ${documented} px reserved`,
    );
    assert.deepEqual(await unseen.problems(), []);
  });

  test("a framed quiz whose src is on the course's origin says in place where a framed widget's data may come from", async () => {
    const page = await session.browser.open(`${course.url}framed-src.html`, { width: 1000, height: 900 });
    const shown = {};
    for (const language of ['en', 'es'])
      for (let tries = 0; !(shown[language] = await page.runInFrame(`#${language}`, readError)); tries++) {
        if (tries === 200) throw new Error(`the ${language} frame showed no error`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
    const params = {
      name: 'quiz',
      origin: new URL(site.url).origin,
      url: `${course.url}long-quiz.json`,
      file: 'long-quiz.json',
    };
    for (const language of ['en', 'es']) {
      const catalog = JSON.parse(readFileSync(resolve(MESSAGES, language, 'common.json'), 'utf8'));
      const expected = catalog.dataFramedOrigin.replace(/\{(\w+)\}/g, (_, name) => params[name]);
      assert.equal(shown[language], `<attn-quiz>: ${expected}`);
    }
    // What the frames' policy refused: the one fetch of each, and nothing else went wrong.
    const problems = await page.problems();
    assert.ok(
      problems.every((line) => line.includes('long-quiz.json')),
      problems.join('\n'),
    );
  });
});

/** The error the framed quiz shows in its place, if any (run in the frame). */
const readError = () => document.querySelector('attn-quiz > .attn-error')?.textContent;

// Tightness is judged against the tallest of every engine: with ATTN_ENGINES naming fewer, skipped.
const someEngines = enginesToRun().length < ENGINES.length && 'needs every engine (ATTN_ENGINES names fewer)';
test('the documented heights are tight: at most SLACK px above the tallest engine', { skip: someEngines }, () => {
  const suggested = {};
  assert.deepEqual(Object.keys(measured), TAGS, 'every widget was measured');
  const loose = [];
  for (const tag of TAGS) {
    const documented = FRAME_HEIGHTS.heights[tag] ?? [];
    suggested[tag] = FRAME_HEIGHTS.widths.map((width, i) => {
      const tallest = Math.max(...measured[tag][width]);
      if (!(documented[i] - tallest <= SLACK))
        loose.push(`${tag} at ${width} px: ${documented[i]} documented, ${tallest} measured`);
      return Math.ceil((tallest + 10) / 10) * 10;
    });
  }
  // ATTN_WRITE_FRAME_HEIGHTS=1 writes the suggestion into the guide's table (after a widget changed).
  if (process.env.ATTN_WRITE_FRAME_HEIGHTS === '1') {
    const json = JSON.stringify({ ...FRAME_HEIGHTS, heights: suggested }, null, 2).replace(
      /\[\s+([\d,\s]+?)\s+\]/g,
      (_, list) => `[${list.split(/,\s*/).join(', ')}]`,
    );
    writeFileSync(FRAME_HEIGHTS_FILE, `${json}\n`);
    // The LMS recipe's frames carry the widest width's heights.
    const lms = readFileSync(LMS_RECIPE, 'utf8').replace(
      /(widget=([a-z-]+)[^>]*?height=")\d+"/gs,
      (_, head, tag) => `${head}${suggested[tag].at(-1)}"`,
    );
    writeFileSync(LMS_RECIPE, lms);
    return;
  }
  assert.deepEqual(
    loose,
    [],
    `heights measured + 10 px, rounded up to tens: ${JSON.stringify(suggested)} (ATTN_WRITE_FRAME_HEIGHTS=1 writes them)`,
  );
});
