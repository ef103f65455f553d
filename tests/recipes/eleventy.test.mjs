// Recipe "a Markdown site built by Eleventy" (web/recipes/eleventy/), in each engine: a project
// with the recipe's Markdown page, layout and config, the author's quiz JSON and the build's
// files copied in as attention-lab/, built by Eleventy (npm's @11ty/eleventy, run as an author
// runs it: from the project's folder), and served under the strict policy. The widgets in the
// page's raw HTML block start, and the quiz shows the author's questions. Run after
// `npm run build`: node --test tests/recipes/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEngines, DIST, serveSite } from '../support/engines.mjs';
import { COURSE_SITE, RECIPES, recordEvents } from './recipes.mjs';

const PROJECT = resolve(import.meta.dirname, '../../build/recipes/eleventy');
/** Eleventy's command, as `npx @11ty/eleventy` runs it. */
const ELEVENTY = resolve(import.meta.dirname, '../../node_modules/.bin/eleventy');
let site;

before(async () => {
  rmSync(PROJECT, { recursive: true, force: true });
  mkdirSync(PROJECT, { recursive: true });
  cpSync(resolve(RECIPES, 'eleventy'), PROJECT, { recursive: true });
  cpSync(resolve(RECIPES, 'other-host/my-questions.json'), resolve(PROJECT, 'my-questions.json'));
  cpSync(DIST, resolve(PROJECT, 'attention-lab'), { recursive: true });
  execFileSync(ELEVENTY, ['--quiet'], { cwd: PROJECT, stdio: ['ignore', 'ignore', 'inherit'] });
  site = await serveSite({ roots: [resolve(PROJECT, '_site'), COURSE_SITE] });
});
after(() => site?.close());

test('Eleventy passed the raw HTML block through and published the build under /attention/', () => {
  const page = readFileSync(resolve(PROJECT, '_site/week3/index.html'), 'utf8');
  assert.match(
    page,
    /<div class="widgets">\s*<attn-soft-lookup scale="on"><\/attn-soft-lookup>\s*<attn-quiz src="\/my-questions.json"><\/attn-quiz>\s*<\/div>/,
  );
  assert.match(page, /<script src="\/attention\/attention-lab-loader.js" defer><\/script>/);
  assert.equal(
    readFileSync(resolve(PROJECT, '_site/attention/attention-lab.js'), 'utf8'),
    readFileSync(resolve(DIST, 'attention-lab.js'), 'utf8'),
  );
});

describeEngines((session) => {
  test("the Markdown page's widgets start; the quiz shows the author's questions and answers a click", async () => {
    const page = await session.browser.open(`${site.url}week3/`, { width: 1000, height: 900 });
    await recordEvents(page);
    assert.deepEqual(await page.startWidgets(), ['attn-soft-lookup', 'attn-quiz']);
    assert.match(
      await page.run(() => document.querySelector('attn-quiz legend').textContent),
      /What does each row of attention weights add up to\?/,
    );
    await page.click('attn-quiz input[value="1"]');
    await page.click('attn-quiz .attn-controls button:first-child'); // Check
    assert.equal(
      (await page.waitFor(() => window.seen.find((e) => e.name === 'attn-quiz-answered')?.detail)).correct,
      true,
    );
    assert.deepEqual(await page.problems(), []);
  });
});
