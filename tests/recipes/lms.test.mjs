// Recipe "a page that may only hold iframes" (web/recipes/lms/), in each engine: the author's
// HTML field of an LMS page, whose policy allows no script of the author's and frames from the
// asset host only. No script sizes the frames: each has the guide's fixed height, holds its
// widget without a scroll bar, and the quiz, given the LMS as parent-origin, posts the reader's
// answer to it. Run after `npm run build`: node --test tests/recipes/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describeEngines, serveSite } from '../support/engines.mjs';
import { COURSE_SITE, FRAME_HEIGHTS, frameFit, recipe } from './recipes.mjs';

let assets, lms;

before(async () => {
  assets = await serveSite();
  const field = () => recipe('lms/lesson.html', { assets: assets.url, course: lms.url });
  lms = await serveSite({
    roots: [resolve(import.meta.dirname, 'lms-site'), COURSE_SITE],
    csp: `default-src 'self'; style-src 'self'; frame-src ${new URL(assets.url).origin}`,
    rewrite: (html) => html.replace("<!-- the author's HTML field -->", field()),
  });
});
after(async () => {
  await assets?.close();
  await lms?.close();
});

describeEngines((session) => {
  test("iframes only, at the guide's fixed heights: every widget fits its frame, the quiz posts the answer to the LMS", async () => {
    const page = await session.browser.open(`${lms.url}lms.html`, { width: 1000, height: 900 });
    await page.run(() => {
      window.posted = [];
      addEventListener(
        'message',
        (event) => event.data?.source === 'attention-lab' && window.posted.push({ from: event.origin, ...event.data }),
      );
    });
    const frames = await page.run(() =>
      [...document.querySelectorAll('iframe')].map((frame) => ({
        widget: new URL(frame.src).searchParams.get('widget'),
        height: Number(frame.getAttribute('height')),
        width: frame.clientWidth,
      })),
    );
    assert.deepEqual(
      frames.map((f) => f.widget),
      ['attn-soft-lookup', 'attn-mask-figure', 'attn-quiz'],
    );
    for (const [i, { widget, height, width }] of frames.entries()) {
      assert.ok(width >= FRAME_HEIGHTS.widths.at(-1), `the frames are ${width} px wide`);
      assert.equal(height, FRAME_HEIGHTS.heights[widget].at(-1), `${widget}: the recipe gives the guide's height`);
      const selector = `iframe:nth-of-type(${i + 1})`;
      await page.run(
        (selector) => document.querySelector(selector).scrollIntoView({ block: 'start', behavior: 'instant' }),
        selector,
      );
      for (
        let tries = 0;
        !(await page.runInFrame(selector, (tag) => document.querySelector(`${tag}[data-ready]`) !== null, widget));
        tries++
      ) {
        if (tries === 400) throw new Error(`${widget} did not start in its frame`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      const fit = await frameFit(page, selector);
      assert.equal(fit.frame, height, `${widget}: no script resized the frame`);
      assert.ok(
        !fit.scrolls && fit.content <= height,
        `${widget}: ${fit.content} px of content in a ${height} px frame`,
      );
    }
    // The reader answers the first question in the quiz's frame (its own origin: a click there).
    await page.runInFrame('iframe:nth-of-type(3)', () => {
      document.querySelector('attn-quiz input[value="1"]').click();
      document.querySelector('attn-quiz .attn-controls button').click();
    });
    const answer = await page.waitFor(() =>
      window.posted.find((m) => m.type === 'event' && m.name === 'attn-quiz-answered'),
    );
    assert.equal(answer.from, new URL(await page.run(() => document.querySelectorAll('iframe')[2].src)).origin);
    assert.equal(answer.detail.answered, 1);
    assert.deepEqual(await page.problems(), []);
  });
});
