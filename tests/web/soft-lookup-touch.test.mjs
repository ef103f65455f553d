// The soft lookup on a phone (Chromium, 360 × 740 with touch), in a page of its own taller than
// the screen (tests/web/lookup-page/): a swipe on the sketch away from the query scrolls the page,
// a tap moves the query, a drag from the query moves it without scrolling and writes the URL hash
// and the saved settings a few times at most; its animation runs only on screen and only while the
// reader is active (not on arrival, before any input). One page load, checks in order. Run after
// `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { DIST, launch, serveSite } from '../support/engines.mjs';

const PAGE = resolve(import.meta.dirname, 'lookup-page');
const PHONE = { width: 360, height: 740, hasTouch: true, isMobile: true };
/** The plane shows [-3.2, 3.2]² in the canvas's top-left square, inside a 12 px margin. */
const WORLD = 3.2;
const MARGIN = 12;
/** How long the query keeps circling after the last input (soft-lookup.ts), and some slack. */
const SETTLED_MS = 2000 + 700;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

let site, browser;
before(async () => {
  site = await serveSite({ roots: [PAGE, DIST] });
  browser = await launch('chromium');
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/**
 * Counts, from before the page's scripts run: animation-frame callbacks run, URL hash writes
 * (history.replaceState), saved-progress writes (localStorage under "attention-lab:"), and the
 * query of every attn-change.
 */
function instrument() {
  const seen = (window.__seen = { frames: 0, hashWrites: 0, stores: 0, queries: [] });
  const frame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    frame((time) => {
      seen.frames++;
      callback(time);
    });
  const replace = history.replaceState.bind(history);
  history.replaceState = (...args) => {
    seen.hashWrites++;
    return replace(...args);
  };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (String(key).startsWith('attention-lab:')) seen.stores++;
    return setItem.call(this, key, value);
  };
  document.addEventListener('attn-change', (event) => seen.queries.push(event.detail.query), true);
}

test('touch: a swipe away from the query scrolls the page, a tap and a drag from the query move it; the hash and the saved settings are written once per drag; no frames off screen or once the reader is idle', async (t) => {
  const page = await browser.open(`${site.url}lookup.html`, PHONE, {
    beforeLoad: (page) => page.puppeteer.evaluateOnNewDocument(instrument),
  });
  const touch = page.puppeteer.touchscreen;
  const seen = () => page.run(() => window.__seen);
  const framesDuring = async (ms, during = () => sleep(ms)) => {
    const before = (await seen()).frames;
    await during();
    return (await seen()).frames - before;
  };
  const toView = () => page.run(() => document.getElementById('lookup').scrollIntoView({ block: 'start' }));
  /** Resolves once the page has not scrolled for 300 ms. */
  const stillPage = async () => {
    for (let last = NaN, now = await page.run(() => scrollY); now !== last;) {
      await sleep(300);
      [last, now] = [now, await page.run(() => scrollY)];
    }
  };
  const button = () => page.run(() => document.querySelector('#lookup .attn-controls button').textContent);

  // On screen, just arrived, before any input after it drew: the query stays still.
  await toView();
  await page.locate('#lookup[data-ready]').waitFor({ timeout: 30000 });
  await toView(); // again: drawn, it grew, and the page kept the text below it in place
  assert.equal(await framesDuring(500), 0, 'no animation frame runs before the reader does something');
  // The reader moves the pointer: the query circles (radius 1.9).
  await page.puppeteer.mouse.move(20, 20);
  await page.waitFor(() => window.__seen.queries.length > 0);
  assert.ok(Math.abs(Math.hypot(...(await seen()).queries[0]) - 1.9) < 1e-6, 'the query circles');
  const onScreen = await framesDuring(500);
  assert.ok(onScreen >= 5, `it animates on screen (${onScreen} frames in 500 ms)`);

  // Off screen, the reader still active (pointer moves): no frame at all.
  await page.run(() => scrollTo(0, 0));
  await sleep(100); // the visibility observer's report
  const offScreen = await framesDuring(1000, async () => {
    for (let i = 0; i < 10; i++) {
      await page.puppeteer.mouse.move(50 + 10 * i, 100);
      await sleep(100);
    }
  });
  assert.equal(offScreen, 0, 'no animation frame runs while the sketch is off screen');

  // Back on screen it circles again; then, with no input for a few seconds, it settles.
  await toView();
  assert.ok((await framesDuring(500)) >= 5, 'it animates again on screen');
  await sleep(SETTLED_MS);
  assert.equal(await framesDuring(1000), 0, 'no animation frame runs once the reader is idle');
  assert.equal(await button(), 'Pause', 'settling is not pausing: the next input resumes the circling');

  // Where things are on screen: the plane's origin and its pixels per unit.
  const box = await page.run(() => {
    const { x, y, width, height } = document.querySelector('#lookup canvas').getBoundingClientRect();
    return { x, y, width, height };
  });
  const plane = Math.min(box.width, box.height);
  const unit = (plane - 2 * MARGIN) / (2 * WORLD);
  const origin = { x: box.x + plane / 2, y: box.y + plane / 2 };
  const toWorld = ({ x, y }) => [(x - origin.x) / unit, (origin.y - y) / unit];

  // A swipe up that starts across the origin from the query (about 190 px from it) scrolls the page.
  const [qx, qy] = (await seen()).queries.at(-1);
  const start = { x: origin.x - (qx / 1.9) * 0.35 * plane, y: origin.y + (qy / 1.9) * 0.35 * plane };
  const scrolledFrom = await page.run(() => scrollY);
  const queriesBefore = (await seen()).queries.length;
  const swipe = await touch.touchStart(start.x, start.y);
  for (let i = 1; i <= 10; i++) await swipe.move(start.x, start.y - 20 * i);
  await swipe.end();
  const scrolled = await page.waitFor((from) => scrollY - from > 50 && scrollY - from, scrolledFrom);
  assert.ok(scrolled > 50, `the swipe scrolled the page (${scrolled} px)`);
  const duringSwipe = (await seen()).queries.slice(queriesBefore);
  assert.ok(
    duringSwipe.every((q) => Math.abs(Math.hypot(...q) - 1.9) < 1e-6),
    'the swipe did not take the query (it still circles)',
  );
  assert.equal(await button(), 'Pause');

  // A tap away from the query puts it there and stops the circling.
  await stillPage(); // the swipe's fling has ended
  await toView();
  await stillPage();
  origin.y += (await page.run(() => document.querySelector('#lookup canvas').getBoundingClientRect().y)) - box.y;
  const tapAt = { x: origin.x - 0.5 * unit, y: origin.y - 0.5 * unit };
  await touch.tap(tapAt.x, tapAt.y);
  const tapped = await page.waitFor(() => {
    const q = window.__seen.queries.at(-1);
    return Math.abs(Math.hypot(...q) - 1.9) > 1e-3 && q;
  });
  toWorld(tapAt).forEach((v, i) => assert.ok(Math.abs(tapped[i] - v) < 0.05, `tapped query ${tapped} at ${v}`));
  assert.equal(await button(), 'Play');

  // A drag from the query: 30 moves down and right. The page stays put; the query follows.
  await page.waitFor(() => !location.hash || location.hash.includes('lookup.q=')); // the tap's write done
  await sleep(300); // past the hash's write gap, so the drag's writes are its own
  const { hashWrites, stores } = await seen();
  const stillY = await page.run(() => scrollY);
  const drag = await touch.touchStart(tapAt.x, tapAt.y);
  for (let i = 1; i <= 30; i++) await drag.move(tapAt.x + 2 * i, tapAt.y + 1.5 * i);
  await drag.end();
  const dropAt = { x: tapAt.x + 60, y: tapAt.y + 45 };
  const dragged = (await seen()).queries.at(-1);
  toWorld(dropAt).forEach((v, i) => assert.ok(Math.abs(dragged[i] - v) < 0.05, `dragged query ${dragged} at ${v}`));
  assert.equal(await page.run(() => scrollY), stillY, 'dragging the query does not scroll the page');
  const hash = await page.waitFor((q) => {
    const written = new URLSearchParams(location.hash.slice(1)).get('lookup.q')?.split(',').map(Number);
    return written && Math.abs(written[0] - q[0]) < 0.006 && Math.abs(written[1] - q[1]) < 0.006 && location.hash;
  }, dragged);
  const after = await seen();
  assert.ok(
    after.hashWrites - hashWrites >= 1 && after.hashWrites - hashWrites <= 4,
    `the hash is written a few times at most for a 30-step drag (${after.hashWrites - hashWrites}), the last time with where it ended (${hash})`,
  );
  assert.equal(after.stores - stores, 1, 'the saved settings are written once, when the drag ends');
  assert.ok(after.queries.length - queriesBefore >= 30, 'every step of the drag moved the query');
  t.diagnostic(
    `frames in 500 ms on screen ${onScreen}, off screen in 1 s ${offScreen}; swipe scrolled ${scrolled} px; ` +
      `30-step drag: ${after.hashWrites - hashWrites} hash write(s), ${after.stores - stores} saved-settings write(s)`,
  );
  assert.deepEqual(await page.problems(), []);
  await page.close();
});
