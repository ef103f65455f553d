// Embedding in each engine (tests/support/engines.mjs): the embedding guide, and a course
// author's page on another origin using both forms, the script form (the build's files copied
// next to the page) and the iframe form (embed.html?widget= from the lesson's site). Also the
// engine layer's own check: its watcher reports what goes wrong, in each engine. Run after
// `npm run build`: node --test tests/engines/
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { CSP } from '../support/chromium.mjs';
import { describeEngines, DIST, serveSite } from '../support/engines.mjs';

const COURSE = resolve(import.meta.dirname, 'course-page');
/** Where the framed soft lookup is clicked, from the frame's top-left corner: inside its canvas. */
const CLICK = { x: 100, y: 100 };

let site, course;
before(async () => {
  site = await serveSite();
  // Another port: another origin, which may frame the site.
  course = await serveSite({ roots: [COURSE, DIST], csp: `${CSP}; frame-src ${new URL(site.url).origin}` });
});
after(async () => {
  await site?.close();
  await course?.close();
});

/**
 * The framed soft lookup, used as a reader would: a click in its canvas moves the query there
 * (and stops its animation), then two ArrowLeft keys move it 0.2 left. Checks that each step's
 * attn-change reached the page through postMessage. `frame` selects the <iframe>.
 */
async function useFramedLookup(page, frame) {
  await page.run(() => {
    window.frameEvents = [];
    window.addEventListener('message', (event) => {
      if (event.data?.source === 'attention-lab' && event.data.type === 'event' && event.data.name === 'attn-change')
        window.frameEvents.push(event.data.detail.query);
    });
  });
  await page.click(frame, CLICK);
  // The animation moves the query on a circle of radius 1.9; the click's query is off it.
  const clicked = await page.waitFor(() =>
    window.frameEvents.find(([x, y]) => Math.abs(Math.hypot(x, y) - 1.9) > 0.05),
  );
  await page.press(['ArrowLeft', 'ArrowLeft']);
  const moved = await page.waitFor((clicked) => {
    const last = window.frameEvents.at(-1);
    return Math.abs(last[0] - (clicked[0] - 0.2)) < 1e-9 && last[1] === clicked[1] && last;
  }, clicked);
  assert.ok(moved, 'the keys pressed after the click reached the framed widget');
}

describeEngines((session) => {
  test('the embedding guide loads with no problem; its framed widget is sized and answers a click and keys; its quiz answers a click', async () => {
    const page = await session.browser.open(`${site.url}embed.html`, { width: 1000, height: 900 });
    // The framed widget starts when the frame nears the viewport; the page grows as its quiz starts.
    await page.waitFor(() => {
      const frame = document.getElementById('example-frame');
      frame.scrollIntoView({ block: 'center', behavior: 'instant' });
      return Number(frame.getAttribute('height')) > 200;
    });
    await useFramedLookup(page, '#example-frame');
    assert.match(await page.run(() => document.getElementById('frame-log').textContent), /attn-change/);

    // The configurator's preview (its first widget) and the example quiz.
    assert.deepEqual(await page.startWidgets(), ['attn-soft-lookup', 'attn-quiz']);
    await page.click('#example-quiz input[value="1"]');
    await page.click('#example-quiz .attn-controls button:first-child'); // Check
    assert.match(
      await page.waitFor(() => document.getElementById('quiz-log').textContent.match(/attn-quiz-answered: .*/)?.[0]),
      /"score":1/,
    );
    assert.deepEqual(await page.problems(), []);
  });

  test('a course page on another origin: the script form and the iframe form both work', async () => {
    const page = await session.browser.open(`${course.url}course.html?site=${encodeURIComponent(site.url)}`, {
      width: 1000,
      height: 900,
    });
    assert.deepEqual(await page.startWidgets(), ['attn-mask-figure', 'attn-quiz']);
    // The author's attributes took effect: 8 positions, 5 real, so causal and padding allow 30 of 64 pairs.
    assert.match(
      await page.run(() => document.querySelector('attn-mask-figure [data-mask="both"]').textContent),
      /0\.4688/,
    );
    await page.run(() => {
      window.answers = [];
      document.addEventListener('attn-quiz-answered', (event) => window.answers.push(event.detail));
    });
    await page.click('attn-quiz input[value="1"]');
    await page.click('attn-quiz .attn-controls button:first-child'); // Check
    assert.match(await page.waitFor(() => document.querySelector('attn-quiz .feedback').textContent), /^Correct\./);
    assert.equal(await page.run(() => window.answers.at(-1)?.score), 1);

    // The frame from the other origin: sized by the height it posts, with its content not cut off.
    const frame = await page.waitFor(() => {
      const node = document.getElementById('framed');
      return (
        Number(node.getAttribute('height')) > 200 && {
          height: Number(node.getAttribute('height')),
          inner: node.clientHeight,
        }
      );
    });
    assert.equal(frame.inner, frame.height, 'the frame shows all the height the widget asked for');
    await useFramedLookup(page, '#framed');
    assert.deepEqual(await page.problems(), [], 'the course page and the frame from the site');
  });

  test('the watcher reports a console error, a failed request and a CSP violation, also from a frame', async () => {
    const page = await session.browser.open(`${site.url}embed.html`, { width: 1000, height: 900 });
    // The frame's own watcher is running (same origin: the page can call into the frame).
    await page.waitFor(() => document.getElementById('example-frame').contentWindow.__attnProblems !== undefined);
    assert.deepEqual(await page.problems(), []);
    await page.run(async () => {
      console.error(new Error('logged on purpose'));
      const style = document.createElement('style'); // refused: style-src 'self'
      style.textContent = 'body { color: red }';
      document.head.append(style);
      const image = document.createElement('img');
      image.src = 'missing-on-purpose.png';
      document.body.append(image);
      await fetch('missing-on-purpose.json');
      document.getElementById('example-frame').contentWindow.console.error('logged in the frame on purpose');
    });
    await page.waitFor(() =>
      ['logged on purpose', 'CSP violation', '<img>', 'in the frame'].every((part) =>
        window.__attnProblems.some((line) => line.includes(part)),
      ),
    );
    const problems = (await page.problems()).join('\n');
    assert.match(problems, /console\.error: Error: logged on purpose/);
    assert.match(problems, /CSP violation: style-src/);
    assert.match(problems, /failed to load: <img> .*missing-on-purpose\.png/);
    assert.match(problems, /failed request: 404 \/missing-on-purpose\.json/);
    assert.match(
      problems,
      /console\.error: logged in the frame on purpose \[frame .*embed\.html\?widget=attn-soft-lookup/,
    );
  });

  test("a CSP without 'wasm-unsafe-eval' is caught (WebKit refuses the module without a securitypolicyviolation event)", async () => {
    const strict = await serveSite({ csp: "default-src 'self'; script-src 'self'; style-src 'self'" });
    try {
      const page = await session.browser.open(`${strict.url}index.html`);
      await page.waitFor(() => document.getElementById('core-status').dataset.state === 'error');
      const problems = await page.problems();
      assert.ok(
        problems.some((line) => /console\.error: .*(WebAssembly|wasm|unsafe-eval|CompileError)/i.test(line)),
        problems.join('\n'),
      );
    } finally {
      await strict.close();
    }
  });
});
