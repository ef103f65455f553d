// Which shipped language a request gets: same language and script, else the next request, else English.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickLanguage } from '../../web/src/common/language.ts';

test('a region or script variant of a shipped language gets it', () => {
  assert.equal(pickLanguage(['es-ES']), 'es');
  assert.equal(pickLanguage(['es-419']), 'es');
  assert.equal(pickLanguage(['zh']), 'zh-CN');
  assert.equal(pickLanguage(['zh-SG']), 'zh-CN');
  assert.equal(pickLanguage(['zh-Hans']), 'zh-CN');
  assert.equal(pickLanguage(['en-GB']), 'en');
});

test('Traditional Chinese is not served Simplified: the next request, else English', () => {
  assert.equal(pickLanguage(['zh-TW']), 'en');
  assert.equal(pickLanguage(['zh-Hant-HK', 'es']), 'es');
});

test('unknown, malformed or empty requests are skipped', () => {
  assert.equal(pickLanguage(['pt-BR', 'es']), 'es');
  assert.equal(pickLanguage(['not a tag!', '', null, undefined, 'zh-CN']), 'zh-CN');
  assert.equal(pickLanguage([]), 'en');
  assert.equal(pickLanguage(['ar']), 'en');
});
