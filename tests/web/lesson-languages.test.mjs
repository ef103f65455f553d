// The lesson in another language (?lang=), in Debian's Chromium under the strict CSP: Spanish
// prose and data with Spanish-written numbers and the switcher marking Español; Simplified
// Chinese with its own words around English prose marked lang="en"; the pseudo-locale en-XA,
// where every word the page shows outside code, formulas and numbers came from a catalog or a
// content file. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSite, openSite, startLesson } from '../support/chromium.mjs';

let server, browser;
before(async () => ({ server, browser } = await openSite()));
after(() => closeSite({ server, browser }));

/** The lesson in `lang` with its settings `hash`, every widget started and ready. */
const openLessonIn = (lang, hash = '') =>
  startLesson(browser, `${server.url}index.html?lang=${lang}${hash}`, { width: 1280, height: 900 });

/** What the test reads of the page's language, words and numbers. */
function pageLanguage() {
  const live = (key) => [...document.querySelectorAll(`main .live[data-key="${key}"]`)].map((n) => n.textContent);
  const switcher = [...document.querySelectorAll('nav.languages a')].map((a) => ({
    name: a.textContent,
    lang: a.lang,
    current: a.getAttribute('aria-current'),
    href: a.href,
  }));
  return {
    lang: document.documentElement.lang,
    title: document.title,
    description: document.querySelector('meta[name="description"]').content,
    h1: document.querySelector('h1').textContent,
    firstSection: document.querySelector('main section h2').textContent,
    toc: document.querySelector('#toc a').textContent,
    firstParagraph: document.querySelector('main > section > p').textContent,
    proseLangs: [...new Set([...document.querySelectorAll('main > section > p')].map((p) => p.lang))],
    unmarked: [...document.querySelectorAll('main > section > p:not([lang])')].map((p) => p.outerHTML.slice(0, 200)),
    note: document.querySelector('.prose-language')?.textContent ?? null,
    status: document.getElementById('core-status').textContent,
    causal: live('masks.causal'),
    params: live('heads.params4'),
    quizTitle: document.querySelector('attn-quiz legend')?.textContent ?? '',
    quizButtons: [...document.querySelectorAll('attn-quiz button')].map((b) => b.textContent),
    exercise: document.querySelector('attn-exercises')?.textContent.slice(0, 400) ?? '',
    codeDirs: [...document.querySelectorAll('main figure.code pre')].map((pre) => pre.dir),
    switcher,
  };
}

test('?lang=es: Spanish prose, numbers written the Spanish way, Spanish quiz and exercises, Español current', async () => {
  const page = await openLessonIn('es', '#lookup.q=0.7,-1.3');
  const shown = await page.run(pageLanguage);
  assert.equal(shown.lang, 'es');
  assert.equal(shown.title, 'La atención desde cero — attention-lab');
  assert.match(shown.description, /^Consultas, claves y valores/);
  assert.equal(shown.h1, 'La atención desde cero');
  assert.equal(shown.firstSection, 'Qué sustituye la atención');
  assert.equal(shown.toc, 'Qué sustituye la atención');
  assert.match(shown.firstParagraph, /^Una red recurrente lee su entrada en orden/);
  assert.deepEqual(shown.proseLangs, [''], 'the prose is in the page language, not marked otherwise');
  assert.equal(shown.note, null);
  assert.match(shown.status, /^Núcleo de atención cargado .* \d+ ms/);
  // A decimal comma, and Spanish grouping (none for four digits, a point for five).
  assert.ok(shown.causal.length > 0 && shown.causal.every((t) => t === '0,5500'), shown.causal.join());
  assert.ok(
    shown.params.length > 0 && shown.params.every((t) => /^\d{4}$|^\d{1,3}(\.\d{3})+$/.test(t)),
    shown.params.join(),
  );
  assert.match(shown.quizTitle, /^1\. ¿Para qué sirve dividir/);
  assert.ok(shown.quizButtons.includes('Comprobar'), shown.quizButtons.join());
  assert.match(shown.exercise, /Predice la saturación/);
  assert.deepEqual(new Set(shown.codeDirs), new Set(['ltr']));
  assert.deepEqual(
    shown.switcher.map(({ name, lang, current }) => [name, lang, current]),
    [
      ['English', 'en', null],
      ['Español', 'es', 'true'],
      ['简体中文', 'zh-CN', null],
    ],
  );
  // A link keeps the reader's settings (the hash) and sets ?lang=.
  const chinese = new URL(shown.switcher[2].href);
  assert.equal(chinese.searchParams.get('lang'), 'zh-CN');
  assert.equal(chinese.hash, '#lookup.q=0.7,-1.3');
  assert.deepEqual(page.engineProblems, []);
  await page.close();
});

test('?lang=zh-CN: Chinese headings and widgets, the English prose marked lang="en" and a note saying so', async () => {
  const page = await openLessonIn('zh-CN');
  const shown = await page.run(pageLanguage);
  assert.equal(shown.lang, 'zh-CN');
  assert.equal(shown.h1, '从零理解注意力');
  assert.equal(shown.firstSection, '注意力取代了什么');
  assert.match(shown.firstParagraph, /^A recurrent network reads its input/);
  assert.deepEqual(shown.proseLangs, ['en'], shown.unmarked.join('\n'));
  assert.match(shown.note, /本课正文为英文/);
  assert.ok(
    shown.causal.every((t) => t === '0.5500'),
    shown.causal.join(),
  );
  assert.deepEqual(
    shown.switcher.map((link) => link.current),
    [null, null, 'true'],
  );
  assert.deepEqual(page.engineProblems, []);
  await page.close();
});

test('?lang=en-XA: every word outside code, formulas, numbers and widgets came from a catalog or content file', async () => {
  const page = await openLessonIn('en-XA');
  const unbracketed = await page.run(() => {
    const skip =
      'pre, code, math, .math-display, .live, attn-soft-lookup, attn-attention-steps, attn-ranked-table, ' +
      'attn-scale-figure, attn-mask-figure, attn-heads-figure, attn-cue-trainer, attn-flowchart, attn-pitfall-demo, ' +
      'attn-cue-probe, [data-route-runs], noscript, script, style, nav.languages';
    const found = [];
    // Each block of text (a paragraph, item, heading, caption) is one bracketed pseudo-message.
    for (const node of document.body.querySelectorAll('p, li, h1, h2, h3, figcaption, summary, a, title')) {
      if (node.closest(skip) || node.querySelector('p, li')) continue;
      const text = node.textContent.replace(/\s+/g, ' ').trim();
      if (text && !/^\d*\.? ?\[[^]*\]$/.test(text)) found.push(text.slice(0, 80));
    }
    if (!/^\[.*\]$/.test(document.title)) found.push(`<title> ${document.title}`);
    return found;
  });
  assert.deepEqual(unbracketed, []);
  // The quiz's and the exercises' texts come from the lesson's data, made pseudo too.
  const quiz = await page.run(() => document.querySelector('attn-quiz legend').textContent);
  assert.match(quiz, /^1\. \[Ŵĥàţ íš ţĥé đíṽíšíóñ ƀý /);
  await page.close();
});
