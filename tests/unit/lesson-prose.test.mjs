// The lesson in another language: its prose translation (web/src/pages/lesson/prose/<language>.json,
// English text -> translation) covers every English text and nothing else, and keeps each text's
// TeX, code, live numbers and strong marks; its quiz and exercises translations keep the data's
// structure; its catalog has every title and caption sections.ts names; the pseudo-locales change
// the words and nothing else; live numbers are written as the language writes them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { sections } from '../../web/src/pages/lesson/sections.ts';
import { keptParts, proseIn, proseTexts, pseudoProse } from '../../web/src/pages/lesson/prose.ts';
import { TEXT_FIELDS, lessonDataIn } from '../../web/src/pages/lesson/lesson-data.ts';
import { fillLiveTex, formatNumber, splitLive } from '../../web/src/common/live-format.ts';

const root = resolve(import.meta.dirname, '../..');
const json = (path) => JSON.parse(readFileSync(resolve(root, path), 'utf8'));
const TRANSLATIONS = ['es'];
const english = [...proseTexts(sections)];
const strongMarks = (text) => text.split('**').length - 1;

for (const language of TRANSLATIONS) {
  const prose = json(`web/src/pages/lesson/prose/${language}.json`);

  test(`${language}: every English text of the lesson has a translation, and no translation is stale`, () => {
    assert.ok(english.length > 50, `${english.length} texts`);
    const missing = english.filter((text) => !Object.hasOwn(prose, text) || !prose[text].trim());
    assert.deepEqual(missing, [], 'English texts without a translation');
    const stale = Object.keys(prose).filter((text) => !english.includes(text));
    assert.deepEqual(stale, [], 'translations of texts the lesson no longer has');
  });

  test(`${language}: each translation keeps its English's TeX, code, live numbers and strong marks`, () => {
    for (const text of english) {
      const translated = prose[text] ?? '';
      assert.deepEqual(keptParts(translated), keptParts(text), `${text.slice(0, 60)}…`);
      assert.equal(strongMarks(translated), strongMarks(text), `** in ${text.slice(0, 60)}…`);
      assert.notEqual(translated, text, `untranslated: ${text.slice(0, 60)}…`);
    }
  });

  test(`${language}: the quiz and exercises keep their structure; their texts are translated, placeholders kept`, async () => {
    const { data, language: got } = await lessonDataIn(language);
    assert.equal(got, language);
    const walk = (en, tr, path) => {
      if (Array.isArray(en)) {
        assert.equal(tr.length, en.length, path);
        en.forEach((item, i) => walk(item, tr[i], `${path}[${i}]`));
      } else if (en && typeof en === 'object') {
        assert.deepEqual(Object.keys(tr).sort(), Object.keys(en).sort(), path);
        for (const key of Object.keys(en)) walk(en[key], tr[key], `${path}.${key}`);
      } else if (typeof en === 'string' && TEXT_FIELDS.has(path.split('.').pop())) {
        assert.notEqual(tr, en, `${path} is translated`);
        assert.deepEqual(keptParts(tr), keptParts(en), `${path} keeps its placeholders`);
      } else if (/^\w+\.lang$/.test(path)) assert.equal(tr, language, `${path} names the translation's language`);
      else assert.deepEqual(tr, en, `${path} is data, kept`);
    };
    walk(json('web/src/pages/lesson/quiz.json'), data['attn-quiz'], 'quiz');
    walk(json('web/src/pages/lesson/exercises.json'), data['attn-exercises'], 'exercises');
  });

  test(`${language}: proseIn gives the sections in the translation, structure unchanged`, async () => {
    const shown = await proseIn(language, sections);
    assert.equal(shown.language, language);
    const texts = [...proseTexts(shown.sections)];
    assert.deepEqual(
      texts,
      english.map((text) => prose[text]),
    );
    assert.deepEqual(
      shown.sections.map((s) => [s.id, s.title, s.blocks.map((b) => b.kind)]),
      sections.map((s) => [s.id, s.title, s.blocks.map((b) => b.kind)]),
    );
  });
}

test('a language without a prose translation keeps the English prose and says so', async () => {
  const shown = await proseIn('zh-CN', sections);
  assert.equal(shown.language, 'en');
  assert.equal(shown.sections, sections);
  assert.equal((await lessonDataIn('zh-CN')).language, 'en');
});

test('the lesson catalog has every section title and caption sections.ts names, in every language', () => {
  const keys = new Set();
  const visit = (block) => {
    if (block.kind === 'code' || block.kind === 'route-table') keys.add(block.caption);
    for (const inner of block.blocks ?? []) visit(inner);
  };
  for (const section of sections) {
    keys.add(section.title);
    section.blocks.forEach(visit);
  }
  assert.ok(keys.size > 15);
  for (const language of ['en', 'es', 'zh-CN']) {
    const catalog = json(`web/src/messages/${language}/lesson.json`);
    assert.deepEqual(
      [...keys].filter((key) => !Object.hasOwn(catalog, key)),
      [],
      `${language}/lesson.json lacks these`,
    );
  }
});

test('the pseudo-locales change the words of a text and keep its TeX, code and placeholders', () => {
  const text =
    '**Leaving out $1/\\sqrt{d_k}$.** The top weight is {sweep.maxUnscaled.256:4}, see `attention()` ({draws} draws).';
  for (const locale of ['en-XA', 'ar-XB']) {
    const pseudo = pseudoProse(text, locale);
    assert.match(pseudo, /^\[.*·+\]$/s, pseudo);
    for (const kept of ['$1/\\sqrt{d_k}$', '{sweep.maxUnscaled.256:4}', '`attention()`', '{draws}'])
      assert.ok(pseudo.includes(kept), `${locale} keeps ${kept}: ${pseudo}`);
    assert.equal(strongMarks(pseudo), 2);
    assert.ok(!/Leaving|weight|draws\)/.test(pseudo.replace(/\{[^}]*\}/g, '')), pseudo);
  }
});

test('live numbers are written as the locale writes them', () => {
  assert.equal(formatNumber(0.47171, '4', 'es'), '0,4717');
  assert.equal(formatNumber(0.47171, '4'), '0.4717');
  assert.equal(formatNumber(16640, undefined, 'es'), '16.640');
  assert.equal(formatNumber(9408, undefined, 'es'), '9408');
  assert.equal(formatNumber(9408, undefined, 'en'), '9,408');
  assert.equal(formatNumber(0.125, undefined, 'es'), '0,125');
  assert.equal(formatNumber(1.19e-7, 'e', 'es'), '1,19e-7');
  assert.equal(formatNumber(1.19e-7, 'e'), '1.19e-7');
  assert.equal(formatNumber(3, '1', 'zh-CN'), '3.0');
  const pieces = splitLive('best {cue.best:3} of {cue.n}', { 'cue.best': 0.98765, 'cue.n': 12000 }, 'es');
  assert.deepEqual(
    pieces.map((p) => p.text),
    ['best ', '0,988', ' of ', '12.000'],
  );
  // In TeX a decimal comma is braced, so TeX does not space it as punctuation.
  assert.equal(fillLiveTex('\\log(12) = {s.h:4}', { 's.h': 2.4849 }, 'es'), '\\log(12) = 2{,}4849');
  assert.equal(fillLiveTex('\\log(12) = {s.h:4}', { 's.h': 2.4849 }), '\\log(12) = 2.4849');
});
