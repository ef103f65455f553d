// The embedding guide (dist/embed.html): the script-tag form and the iframe form, under the
// strict CSP. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { closeSite, openSite } from '../support/chromium.mjs';

const root = resolve(import.meta.dirname, '../..');
let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

test('a framed widget reports its height and forwards its events to the parent', async () => {
  const page = await browser.open(server.url + 'embed.html', { width: 1000, height: 900 });
  const errors = page.engineProblems;
  const frame = page.locate('#example-frame');
  await frame.scrollIntoView();
  await page.waitFor(() => Number(document.getElementById('example-frame').getAttribute('height')) > 200, undefined, {
    timeout: 15000,
  });
  const sized = Number(await frame.attribute('height'));
  const content = await page
    .frame('#example-frame')
    .locate('html')
    .evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
  assert.equal(sized, content, 'the frames script sized the frame to its content');
  const inner = page.frame('#example-frame');
  await inner.locate('[role="application"]').focus();
  const before = Number((await frame.attribute('data-events')) ?? 0);
  await page.press('ArrowLeft');
  await page.press('ArrowLeft');
  await page.waitFor((n) => Number(document.getElementById('example-frame').dataset.events ?? 0) >= n + 2, before);
  assert.match(await page.locate('#frame-log').text(), /attn-change/);
  assert.deepEqual(errors, []);
  await page.screenshot(resolve(root, 'build/screenshots/embed.png'));
  await page.close();
});

test("the script-tag form: an author's own quiz question works and its event reaches the page", async () => {
  const page = await browser.open(server.url + 'embed.html', { width: 1280, height: 720 });
  const errors = page.engineProblems;
  const quiz = page.locate('#example-quiz attn-quiz');
  await quiz.scrollIntoView();
  await quiz.locate('input[type=radio][value="1"]').check(); // the author's second option: options are shuffled
  await quiz.locate('::-p-aria([name="Check"][role="button"])').click();
  assert.match(await quiz.locate('.feedback').text(), /^Correct\./);
  assert.match(await page.locate('#quiz-log').text(), /"score":1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the stable embedding files exist: attention-lab.js and attention-lab.css', async () => {
  for (const file of ['attention-lab.js', 'attention-lab.css']) {
    const response = await fetch(server.url + file);
    assert.equal(response.status, 200, file);
  }
});
