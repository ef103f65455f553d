// Recipe "the files in a course folder" (web/recipes/course-folder/), in each engine: the build
// copied to /courses/ml/attention/ of a course site, the page at /courses/ml/week3.html, under
// the site's strict policy. Every widget works (the trainer trains 2 epochs from a plain Worker,
// same origin, no blob:), the framed widget fits its content, and no file is asked for outside
// the course folder. Run after `npm run build`: node --test tests/recipes/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEngines, DIST, serveSite } from '../support/engines.mjs';
import { COURSE_SITE, RECIPES, checkFramedMasks, recordEvents, trainToFinish } from './recipes.mjs';

const SITE = resolve(import.meta.dirname, '../../build/recipes/course-folder');
const FOLDER = resolve(SITE, 'courses/ml');
let site;

before(async () => {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  cpSync(DIST, resolve(FOLDER, 'attention'), { recursive: true });
  cpSync(resolve(RECIPES, 'other-host/my-questions.json'), resolve(FOLDER, 'my-questions.json'));
  cpSync(resolve(RECIPES, 'course-folder/week3.html'), resolve(FOLDER, 'week3.html'));
  site = await serveSite({ roots: [SITE, COURSE_SITE] });
});
after(() => site?.close());

describeEngines((session) => {
  test('under /courses/ml/: every widget works, the trainer trains 2 epochs, the frame fits, nothing is fetched outside the folder', async () => {
    const page = await session.browser.open(`${site.url}courses/ml/week3.html`, { width: 1000, height: 900 });
    await recordEvents(page);
    assert.deepEqual(await page.startWidgets(), ['attn-soft-lookup', 'attn-quiz', 'attn-cue-trainer']);
    assert.match(
      await page.run(() => document.querySelector('attn-quiz legend').textContent),
      /What does each row of attention weights add up to\?/,
    );
    const finished = await trainToFinish(page);
    assert.deepEqual(finished.map((d) => d.model).sort(), [1, 2]);
    await checkFramedMasks(page);
    const outside = await page.run(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter(
          (url) =>
            url.origin === location.origin &&
            !url.pathname.startsWith('/courses/ml/') &&
            !['/attn-watch.js', '/favicon.ico'].includes(url.pathname),
        )
        .map((url) => url.pathname),
    );
    assert.deepEqual(outside, [], 'every file comes from the course folder');
    assert.deepEqual(await page.problems(), []);
  });
});
