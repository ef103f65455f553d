// Hostile author data in Debian's Chromium: quiz, exercise and table data, widget attributes,
// embed.html's query parameters and the URL hash carrying <img onerror>, <script>, <svg onload>
// and javascript: payloads. They must show up as text and nothing may run: a flag every
// payload would set stays unset, and no element the payloads describe appears. The site is
// served WITHOUT its Content-Security-Policy here, so a payload that got into the DOM would
// really run (the CSP would otherwise hide the mistake). Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSite, openSite, scrollThroughLesson } from '../support/chromium.mjs';

let server, browser;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Each payload sets window.__pwned to a number of its own if it ever runs.
const P = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=2</script>',
  '"><svg onload="window.__pwned=3"></svg>',
  '<iframe srcdoc="<script>parent.__pwned=4</script>"></iframe>',
  '$\\href{javascript:window.__pwned=5}{click}$', // through KaTeX (trust is off)
  '`<img src=x onerror=window.__pwned=6>` **<b onmouseover=window.__pwned=7>bold</b>**',
];
const ALL = P.join(' ');

const quizData = {
  title: `Quiz ${P[0]}`,
  questions: [
    {
      id: `q1${P[2]}`,
      prompt: `Prompt ${ALL}`,
      options: [
        { text: `Wrong ${P[0]}`, correct: false, feedback: `Feedback ${ALL}` },
        { text: `Right ${P[1]}`, correct: true, feedback: `Good ${ALL}` },
      ],
      explanation: `Because ${ALL}`,
    },
  ],
};

const exerciseData = {
  exercises: [
    {
      id: `count${P[2]}`,
      kind: 'count-parameters',
      title: `Count ${P[0]}`,
      prompt: `Prompt ${ALL} {evil}`,
      params: { dModel: 8, numHeads: 2, evil: P[1] },
    },
  ],
};
const badKindExercises = { exercises: [{ id: 'k', kind: P[0], title: 't', prompt: 'p', params: {} }] };

const tableData = {
  columns: [
    { key: 'name', label: `Name ${P[0]}` },
    { key: `v${P[2]}`, label: `Value ${P[1]}`, digits: 2 },
  ],
  rows: [
    { name: `row ${P[0]}`, [`v${P[2]}`]: 1 },
    { name: `other ${P[1]}`, [`v${P[2]}`]: 2 },
  ],
};

before(async () => {
  ({ server, browser } = await openSite({ csp: false }));
});
after(() => closeSite({ server, browser }));

/** What injected markup would leave behind; all must stay at zero / unset. */
function traces(page) {
  return page.run(() => ({
    pwned: window.__pwned ?? null,
    imgX: document.querySelectorAll('img[src="x"], img[src$="/x"]').length,
    scripts: [...document.scripts].filter((s) => !s.src && s.type !== 'application/json').length,
    handlers: [...document.querySelectorAll('*')]
      .filter((n) => [...n.attributes].some((a) => /^on/i.test(a.name)))
      .map((n) => n.localName),
    svgs: document.querySelectorAll('svg[onload]').length,
    iframes: document.querySelectorAll('iframe[srcdoc]').length,
    bolds: document.querySelectorAll('b').length,
    jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
  }));
}
const CLEAN = { pwned: null, imgX: 0, scripts: 0, handlers: [], svgs: 0, iframes: 0, bolds: 0, jsLinks: 0 };

/** Adds a widget with its data as a child <script type="application/json"> and waits for it. */
async function addWidget(page, tag, attrs, data) {
  await page.run(
    ([tagName, attributes, json]) => {
      const widget = document.createElement(tagName);
      for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value);
      if (json !== null) {
        const script = document.createElement('script');
        script.type = 'application/json';
        script.textContent = json;
        widget.append(script);
      }
      widget.classList.add('hostile');
      document.body.prepend(widget);
    },
    [tag, attrs, data === null ? null : JSON.stringify(data)],
  );
  await page.waitFor(
    () => {
      const w = document.querySelector('.hostile');
      return w && (w.hasAttribute('data-ready') || w.querySelector('.attn-error') !== null);
    },
    undefined,
    { timeout: 15000 },
  );
  return page.puppeteer.evaluateHandle(() => {
    const w = document.querySelector('.hostile');
    w.classList.remove('hostile');
    return w;
  });
}

test('quiz, exercise and table data given by an author are rendered as text', async () => {
  // The author's JSON files, answered by the browser itself (puppeteer's request interception).
  const routes = { '/hostile-quiz.json': quizData, '/hostile-table.json': tableData };
  const page = await browser.open(
    server.url + 'embed.html',
    { width: 1280, height: 720 },
    {
      beforeLoad: async ({ puppeteer }) => {
        await puppeteer.setRequestInterception(true);
        puppeteer.on('request', (request) => {
          const data = routes[new URL(request.url()).pathname];
          if (data) request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(data) });
          else request.continue();
        });
      },
    },
  );
  const errors = page.engineProblems;
  assert.deepEqual(await traces(page), CLEAN);

  for (const [tag, attrs, data] of [
    ['attn-quiz', {}, quizData],
    ['attn-quiz', { src: 'hostile-quiz.json' }, null],
    ['attn-exercises', {}, exerciseData],
    ['attn-ranked-table', {}, tableData],
    ['attn-ranked-table', { src: 'hostile-table.json' }, null],
  ]) {
    const widget = await addWidget(page, tag, attrs, data);
    const text = await widget.evaluate((w) => w.textContent);
    assert.ok(await widget.evaluate((w) => w.hasAttribute('data-ready')), `${tag} ${JSON.stringify(attrs)} started`);
    assert.ok(text.includes('<img src=x onerror="window.__pwned=1">'), `${tag}: the payload is shown as text`);
    // Exercise every path that writes author text: answers, feedback, solution, sorting.
    if (tag === 'attn-quiz') {
      for (const choice of [0, 1]) {
        await widget.evaluate((w, i) => {
          w.querySelectorAll('input[type=radio]')[i].click();
        }, choice);
        await widget.evaluate((w) => [...w.querySelectorAll('button')].find((b) => b.textContent === 'Check').click());
      }
      await widget.evaluate((w) =>
        [...w.querySelectorAll('button')].find((b) => b.textContent === 'Show solution').click(),
      );
      assert.match(
        await widget.evaluate((w) => w.querySelector('.feedback').textContent),
        /Because <img src=x onerror=/,
      );
    }
    if (tag === 'attn-exercises') {
      assert.match(text, /Prompt .*<script>window.__pwned=2<\/script>parameters/s, 'parameters are filled in as text');
      await widget.evaluate((w) => {
        w.querySelector('input').value = '200';
        [...w.querySelectorAll('button')].find((b) => b.textContent === 'Check').click();
      });
    }
    if (tag === 'attn-ranked-table') {
      for (const i of [0, 1, 1]) await widget.evaluate((w, n) => w.querySelectorAll('th button')[n].click(), i);
      assert.match(
        await widget.evaluate((w) => w.querySelector('thead').textContent),
        /Value <script>window.__pwned=2<\/script>/,
      );
    }
    await sleep(100);
    assert.deepEqual(await traces(page), CLEAN, `after ${tag} ${JSON.stringify(attrs)}`);
  }

  // Data the widgets refuse: the error message quotes it, as text.
  const refused = await addWidget(page, 'attn-exercises', {}, badKindExercises);
  assert.match(
    await refused.evaluate((w) => w.querySelector('.attn-error').textContent),
    /kind must be one of [a-z, -]+, got "<img src=x onerror=/,
  );
  for (const [tag, attrs] of [
    ['attn-soft-lookup', { keys: P[0], values: P[1] }],
    ['attn-soft-lookup', { query: P[0] }],
    ['attn-scale-figure', { dk: P[1], draws: P[0] }],
    ['attn-quiz', { src: `javascript:window.__pwned=8` }],
  ]) {
    const widget = await addWidget(page, tag, attrs, null);
    assert.ok(await widget.evaluate((w) => w.hasAttribute('data-ready') || w.querySelector('.attn-error') !== null));
  }
  await sleep(300);
  assert.deepEqual(await traces(page), CLEAN, 'after attributes');
  // The refusals are shown in the widgets (and logged as warnings): no console errors.
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.html query parameters and the URL hash are treated as text', async () => {
  const cases = [
    `embed.html?widget=${encodeURIComponent(P[0])}`,
    `embed.html?widget=attn-soft-lookup&keys=${encodeURIComponent(P[0])}`,
    `embed.html?widget=attn-soft-lookup&query=${encodeURIComponent(P[1])}&scale=${encodeURIComponent(P[2])}`,
    `embed.html?widget=attn-ranked-table&draws=${encodeURIComponent(P[0])}&${encodeURIComponent(P[0])}=1`,
    `embed.html?widget=attn-mask-figure&positions=${encodeURIComponent(P[1])}&real=${encodeURIComponent(P[0])}`,
    `embed.html?widget=attn-quiz&src=${encodeURIComponent('javascript:window.__pwned=9')}`,
    `embed.html?widget=attn-cue-trainer&seed=${encodeURIComponent(P[2])}&epochs=${encodeURIComponent(P[0])}`,
    `embed.html?widget=attn-heads-figure&d-model=${encodeURIComponent(P[1])}&parent-origin=${encodeURIComponent(P[0])}`,
    `index.html#lookup.qx=${encodeURIComponent(P[0])}&table.draws=${encodeURIComponent(P[1])}&cue.seed=${encodeURIComponent(P[2])}&masks.n=${encodeURIComponent(P[0])}`,
  ];
  for (const path of cases) {
    const page = await browser.open(server.url + path, { width: 1280, height: 720 });
    const errors = page.engineProblems;
    if (path.startsWith('index.html')) {
      await scrollThroughLesson(page);
    }
    await page.waitFor(
      () => {
        const w = document.querySelector('#frame-host > :not(h1), main figure.widget > :first-child');
        return !w || w.hasAttribute('data-ready') || document.querySelector('.attn-error') !== null;
      },
      undefined,
      { timeout: 15000 },
    );
    await sleep(300);
    assert.deepEqual(await traces(page), CLEAN, path);
    if (path.includes(encodeURIComponent(P[0])) && path.startsWith('embed.html?widget=%3C'))
      assert.match(await page.locate('#frame-host').text(), /Unknown widget "<img src=x onerror=/);
    assert.deepEqual(errors, [], path);
    await page.close();
  }
});
