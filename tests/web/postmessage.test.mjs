// The frames script (web/src/host/frames.ts, which the embedding guide runs) in Debian's Chromium:
// only well-formed attention-lab messages from the window of one of the page's frames, at that
// frame's own origin, size the frame or arrive as widget events. Messages of any other shape,
// from the page itself, or from a document at another origin than its frame's address change
// nothing and break nothing. And what a framed widget posts, to whom. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { serveStatic } from '../../scripts/static-server.mjs';
import { CSP, launchChromium } from '../support/chromium.mjs';

const root = resolve(import.meta.dirname, '../..');
let server, other, browser;

before(async () => {
  other = await serveStatic(resolve(root, 'dist'), { headers: () => ({ 'Content-Security-Policy': CSP }) }); // another port: another origin
  // The guide may frame the other origin (as a course page framing our widgets would).
  const frameSrc = `; frame-src 'self' ${other.url.replace(/\/$/, '')}`;
  server = await serveStatic(resolve(root, 'dist'), { headers: () => ({ 'Content-Security-Policy': CSP + frameSrc }) });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await other?.close();
});

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const state = (page) =>
  page.run(() => {
    const frame = document.getElementById('example-frame');
    return {
      height: frame.getAttribute('height'),
      events: frame.dataset.events ?? '0',
      log: document.getElementById('frame-log').textContent,
    };
  });

const MALFORMED = [
  null,
  42,
  'height',
  [],
  {},
  { source: 'attention-lab' },
  { source: 'attention-lab', type: 'height' },
  { source: 'attention-lab', type: 'height', height: -1 },
  { source: 'attention-lab', type: 'height', height: NaN },
  { source: 'attention-lab', type: 'height', height: Infinity },
  { source: 'attention-lab', type: 'height', height: 1e6 },
  { source: 'attention-lab', type: 'height', height: '300' },
  { source: 'attention-lab', type: 'resize', height: 300 },
  { source: 'someone-else', type: 'height', height: 300 },
  { source: 'attention-lab', type: 'event' },
  { source: 'attention-lab', type: 'event', name: 'evil-event', detail: {} },
  { source: 'attention-lab', type: 'event', name: 42 },
  { source: ['attention-lab'], type: 'height', height: 300 },
];

test('the guide ignores malformed messages, messages from itself and from another origin', async () => {
  const page = await browser.open(server.url + 'embed.html', { width: 1000, height: 900 });
  const errors = page.engineProblems;
  await page.locate('#example-frame').scrollIntoView();
  await page.waitFor(() => Number(document.getElementById('example-frame').getAttribute('height')) > 200, undefined, {
    timeout: 15000,
  });
  const frame = page.puppeteer.frames().find((f) => f.url().includes('widget=attn-soft-lookup'));
  assert.ok(frame, 'the example frame is loaded');
  // Stop the sketch's animation, whose attn-change events would move the counter.
  await page.frame(frame).locate('attn-soft-lookup[data-ready]').waitFor();
  await page.frame(frame).locate('::-p-aria([name="Pause"][role="button"])').click();
  await sleep(500);
  const settled = await state(page);

  // Well-formed messages that do not come from the frame.
  await page.run(() => {
    window.postMessage({ source: 'attention-lab', type: 'height', height: 77 }, '*');
    window.postMessage({ source: 'attention-lab', type: 'event', name: 'attn-change', detail: null }, '*');
  });
  // Malformed messages from the frame itself.
  await frame.evaluate((list) => list.forEach((m) => parent.postMessage(m, '*')), MALFORMED);
  await sleep(300);
  assert.deepEqual(await state(page), settled, 'nothing changed');

  // The channel itself works: a well-formed message from the frame is acted on, and an
  // event's detail is never rendered.
  await frame.evaluate(() => {
    parent.postMessage({ source: 'attention-lab', type: 'height', height: 321 }, '*');
    parent.postMessage(
      {
        source: 'attention-lab',
        type: 'event',
        name: 'attn-change',
        detail: { note: '<img src=x onerror="window.__pwned=1">' },
      },
      '*',
    );
  });
  await page.waitFor(() => document.getElementById('example-frame').getAttribute('height') === '321');
  const acted = await state(page);
  assert.equal(acted.height, '321');
  assert.equal(Number(acted.events), Number(settled.events) + 1);
  assert.equal(acted.log, `${acted.events} event(s); last: attn-change`);

  // The frame's document navigated to another origin than its address: its messages arrive, and are ignored.
  await page.run(
    (origin) => {
      window.fromOther = 0;
      addEventListener('message', (e) => {
        if (e.origin === origin) window.fromOther += 1;
      });
    },
    other.url.replace(/\/$/, ''),
  );
  await frame.evaluate((src) => {
    location.href = src;
  }, other.url + 'embed.html?widget=attn-soft-lookup');
  // In view, so that its widget starts and raises events (the guide above may have grown).
  await page.waitFor(
    () => {
      document.getElementById('example-frame').scrollIntoView({ block: 'center', behavior: 'instant' });
      return window.fromOther >= 2;
    },
    undefined,
    { timeout: 15000 },
  );
  await sleep(300);
  const after = await state(page);
  assert.equal(after.height, '321', "a document at another origin than the frame's address does not size the frame");
  assert.equal(after.events, acted.events, 'nor are its events counted');
  assert.equal(await page.run(() => window.__pwned ?? null), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a frame on another origin, named by its address, is sized and its events arrive', async () => {
  const page = await browser.open(server.url + 'embed.html', { width: 1000, height: 900 });
  const errors = page.engineProblems;
  await page.run(
    (src) => {
      document.getElementById('example-frame').src = src;
    },
    `${other.url}embed.html?widget=attn-mask-figure&parent-origin=${encodeURIComponent(server.url.replace(/\/$/, ''))}`,
  );
  await page.locate('#example-frame').scrollIntoView();
  await page.waitFor(
    () =>
      Number(document.getElementById('example-frame').dataset.events) >= 2 &&
      Number(document.getElementById('example-frame').getAttribute('height')) > 200,
    undefined,
    { timeout: 15000 },
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a framed widget sends only well-formed messages, to the parent origin it was given', async () => {
  const page = await browser.open(server.url + 'embed.html', { width: 1280, height: 720 });
  const errors = page.engineProblems;
  await page.run(() => {
    window.seen = [];
    addEventListener('message', (e) => window.seen.push({ origin: e.origin, data: e.data }));
  });
  const origin = server.url.replace(/\/$/, '');
  await page.run(
    (src) => {
      const frame = document.createElement('iframe');
      frame.title = 'test frame';
      frame.src = src;
      document.body.prepend(frame); // in view, so its widget starts
    },
    `embed.html?widget=attn-mask-figure&parent-origin=${encodeURIComponent(origin)}`,
  );
  await page.waitFor(
    () => window.seen.some((m) => m.data?.type === 'event' && m.data.name === 'attn-ready'),
    undefined,
    { timeout: 15000 },
  );
  const seen = await page.run(() => window.seen.filter((m) => m.data?.source === 'attention-lab'));
  assert.ok(seen.length >= 2);
  for (const { origin: from, data } of seen) {
    assert.equal(from, origin);
    assert.ok(
      data.type === 'height'
        ? Number.isFinite(data.height) && data.height > 0
        : data.type === 'event' && typeof data.name === 'string',
      JSON.stringify(data),
    );
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('learner data goes only to a declared parent-origin: without one, a framed quiz posts its height and attn-ready, never its answers', async () => {
  const warnings = [];
  const page = await browser.open(
    server.url + 'embed.html',
    { width: 1000, height: 900 },
    {
      beforeLoad: ({ puppeteer }) =>
        puppeteer.on('console', (message) => message.type() === 'warn' && warnings.push(message.text())),
    },
  );
  const errors = page.engineProblems;
  const origin = server.url.replace(/\/$/, '');
  const frames = {
    declared: `parent-origin=${encodeURIComponent(origin)}`,
    undeclared: '',
    invalid: `parent-origin=${encodeURIComponent(`${origin}/course/`)}`,
  };
  await page.run((frames) => {
    window.received = {};
    for (const [name, query] of Object.entries(frames)) {
      const frame = document.createElement('iframe');
      frame.title = name;
      frame.name = name;
      frame.src = `embed.html?widget=attn-quiz${query ? `&${query}` : ''}`;
      document.body.prepend(frame); // in view, so its widget starts
      window.received[name] = [];
    }
    addEventListener('message', (e) => {
      const name = Object.keys(window.received).find(
        (key) => document.querySelector(`iframe[name=${key}]`).contentWindow === e.source,
      );
      if (name && e.data?.source === 'attention-lab')
        window.received[name].push(e.data.type === 'height' ? 'height' : e.data.name);
    });
  }, frames);
  for (const name of Object.keys(frames)) {
    await page.locate(`iframe[name=${name}]`).scrollIntoView();
    const quiz = page.frame(`iframe[name=${name}]`).locate('attn-quiz[data-ready]');
    await quiz.waitFor();
    await quiz.locate('input[type=radio]').first().check();
    await quiz.locate('::-p-aria([name="Check"][role="button"])').first().click();
    await quiz.locate('.feedback').first().withText(/\S/).waitFor();
  }
  await page.waitFor(() => window.received.declared.includes('attn-quiz-answered'));
  await sleep(300);
  const received = await page.run(() => window.received);
  for (const name of ['undeclared', 'invalid']) {
    assert.ok(received[name].includes('height') && received[name].includes('attn-ready'), `${name}: ${received[name]}`);
    assert.ok(!received[name].includes('attn-quiz-answered'), `${name} posted an answer: ${received[name]}`);
  }
  assert.ok(
    warnings.some((text) => /parent-origin must be an origin .*\/course\/.*ignored/.test(text)),
    warnings.join('\n'),
  );
  assert.deepEqual(errors, []);
  await page.close();
});
