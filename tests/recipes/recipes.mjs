// What the recipe suites share: the recipe files (web/recipes/) with their example addresses
// replaced by the test servers', the course page's policy, the messages the guide documents, and
// the steps a reader takes (train the models, look at a frame).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const RECIPES = resolve(import.meta.dirname, '../../web/recipes');
/** What a course site has besides a recipe's files (its favicon). */
export const COURSE_SITE = resolve(import.meta.dirname, 'course-site');
const EXAMPLE_ASSETS = 'https://assets.example.org/attention-lab/';
const EXAMPLE_COURSE = 'https://course.example.org';

/** `text` with the example asset folder and course origin replaced by real ones (URLs, origins). */
export function localise(text, { assets, course }) {
  let out = text.replaceAll(EXAMPLE_ASSETS, assets).replaceAll('https://assets.example.org', new URL(assets).origin);
  if (course) out = out.replaceAll(EXAMPLE_COURSE, new URL(course).origin);
  return out;
}

/** The recipe file `path` (under web/recipes/), localised. */
export function recipe(path, urls) {
  return localise(readFileSync(resolve(RECIPES, path), 'utf8'), urls);
}

/** The Content-Security-Policy the guide asks of a course page using the files at `assets`, with `change` applied. */
export function hostPolicy(assets, change = (policy) => policy) {
  return change(recipe('host-policy.txt', { assets }).trim());
}

/** The fixed heights the guide gives: { widths, heights: { tag: [px per width] } }. */
export const FRAME_HEIGHTS_FILE = resolve(RECIPES, 'frame-heights.json');
export const FRAME_HEIGHTS = JSON.parse(readFileSync(FRAME_HEIGHTS_FILE, 'utf8'));

/**
 * The messages the embedding guide served from `site` documents, as the reader would see them
 * for files on that site: [noCors, policyRefused, wasmRefused, workerRefused, httpError, wrongType].
 */
export async function documentedMessages(browser, site) {
  const page = await browser.open(`${site.url}embed.html`);
  return page.waitFor(() => {
    const rows = [...document.querySelectorAll('#failure-messages tr td:first-child')].map((cell) => cell.textContent);
    return rows.length >= 6 && rows;
  });
}

/** Records on `window.seen` every attn-* event reaching the document (from elements, and from frames through the frames script). */
export function recordEvents(page) {
  return page.run(() => {
    window.seen = [];
    const names = [
      'attn-ready',
      'attn-change',
      'attn-quiz-answered',
      'attn-exercise-checked',
      'attn-train-progress',
      'attn-train-epoch',
      'attn-train-finished',
    ];
    for (const name of names)
      document.addEventListener(name, (event) =>
        window.seen.push({
          name,
          from: event.target.localName,
          detail: JSON.parse(JSON.stringify(event.detail ?? null)),
        }),
      );
    window.heights = [];
    window.addEventListener(
      'message',
      (event) =>
        event.data?.source === 'attention-lab' &&
        event.data.type === 'height' &&
        window.heights.push(event.data.height),
    );
  });
}

/**
 * Presses the trainer's Train both and waits until both models have finished: their
 * attn-train-finished details. Throws with the trainer's status when it says training cannot run.
 */
export async function trainToFinish(page) {
  await page.click('attn-cue-trainer .attn-panel > .attn-controls:nth-child(2) > button:first-child');
  const outcome = await page.waitFor(
    () => {
      const finished = window.seen.filter(
        (event) => event.name === 'attn-train-finished' && event.from === 'attn-cue-trainer',
      );
      if (finished.length === 2) return { finished: finished.map((event) => event.detail) };
      const status = document.querySelector('attn-cue-trainer .trainer-status')?.textContent ?? '';
      return /cannot run|could not start|stopped|failed/.test(status) && { status };
    },
    undefined,
    { timeout: 60000 },
  );
  if (outcome.status) throw new Error(`the trainer did not train: ${outcome.status}`);
  return outcome.finished;
}

/**
 * How the frame `selector` shows its content, measured inside it: { frame (the iframe's inner
 * height), content (the height of the framed document's root box: its content, margins
 * included), scrolls (whether the framed document can scroll) }.
 */
export async function frameFit(page, selector) {
  const frame = await page.run((selector) => document.querySelector(selector).clientHeight, selector);
  const inside = await page.runInFrame(selector, () => ({
    content: document.documentElement.getBoundingClientRect().height,
    scrolls: document.documentElement.scrollHeight > innerHeight,
  }));
  return { frame, ...inside };
}

/**
 * The recipes' framed mask figure (8 positions, 5 real) at `selector`, scrolled to and loaded
 * again: its attn-ready and attn-change reach the page as events on the <iframe>, the frames script sizes
 * the frame to the height it posts, and that is its content's height within 2 px, no scroll bar.
 */
export async function checkFramedMasks(page, selector = 'iframe') {
  // Loaded again now that the page records events (a frame near the top may have drawn, and
  // said so, before the recording began), and only what it says from then on is read.
  await page.run((selector) => {
    const frame = document.querySelector(selector);
    frame.scrollIntoView({ block: 'start', behavior: 'instant' });
    window.seen = window.seen.filter((event) => event.from !== 'iframe');
    window.heights = [];
    frame.setAttribute('src', frame.getAttribute('src'));
  }, selector);
  const change = await page.waitFor(
    () => window.seen.find((e) => e.from === 'iframe' && e.name === 'attn-change')?.detail,
  );
  assert.equal(change.positions, 8);
  assert.equal(change.fractions.both, 30 / 64, 'causal and padding masks allow 30 of 64 pairs');
  assert.ok(await page.run(() => window.seen.some((e) => e.from === 'iframe' && e.name === 'attn-ready')));
  const posted = await page.waitFor((selector) => {
    const last = window.heights.at(-1);
    return last > 200 && Number(document.querySelector(selector).getAttribute('height')) === last && last;
  }, selector);
  const fit = await frameFit(page, selector);
  assert.equal(fit.frame, posted, 'the frames script sized the frame to the height it posted');
  assert.ok(Math.abs(fit.content - fit.frame) <= 2, `content ${fit.content} px in a ${fit.frame} px frame`);
  assert.equal(fit.scrolls, false, 'no scroll bar in the frame');
}
