// The embedding guide (dist/embed.html): the script-tag form and the iframe form, under the
// strict CSP. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { closeSite, openSite, watchErrors } from '../support/chromium.mjs';

const root = resolve(import.meta.dirname, '../..');
let server, browser;

before(async () => {
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

test('a framed widget reports its height and forwards its events to the parent', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const errors = watchErrors(page);
  await page.goto(server.url + 'embed.html');
  const frame = page.locator('#example-frame');
  await frame.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => Number(document.getElementById('example-frame').getAttribute('height')) > 200, null, { timeout: 15000 });
  const sized = Number(await frame.getAttribute('height'));
  const content = await page.frameLocator('#example-frame').locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
  assert.equal(sized, content, 'the frames script sized the frame to its content');
  const inner = page.frameLocator('#example-frame');
  await inner.locator('[role="application"]').focus();
  const before = Number((await frame.getAttribute('data-events')) ?? 0);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => Number(document.getElementById('example-frame').dataset.events ?? 0) >= n + 2, before);
  assert.match(await page.locator('#frame-log').textContent(), /attn-change/);
  assert.deepEqual(errors, []);
  await page.screenshot({ path: resolve(root, 'build/screenshots/embed.png'), fullPage: true });
  await page.close();
});

test('the script-tag form: an author\'s own quiz question works and its event reaches the page', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + 'embed.html');
  const quiz = page.locator('#example-quiz attn-quiz');
  await quiz.scrollIntoViewIfNeeded();
  await quiz.locator('input[type=radio]').nth(1).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await quiz.locator('.feedback').textContent(), /^Correct\./);
  assert.match(await page.locator('#quiz-log').textContent(), /"score":1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the stable embedding files exist: attention-lab.js and attention-lab.css', async () => {
  for (const file of ['attention-lab.js', 'attention-lab.css']) {
    const response = await fetch(server.url + file);
    assert.equal(response.status, 200, file);
  }
});
