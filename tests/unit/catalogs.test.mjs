// The message catalogs (web/src/messages/<language>/<namespace>.json): every shipped language has
// every message English has, showing the same arguments; nothing is left that English dropped; each
// compiles; every key the code asks for exists; and the runtime falls back to English per message.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parse } from '@messageformat/parser';
import { compileCatalog, readCatalog } from '../../scripts/vite-messages.ts';
import { SHIPPED, pickLanguage } from '../../web/src/common/language.ts';
import { messagesIn, overrideMessages } from '../../web/src/common/messages.ts';
import { pseudoMessage, pseudoText } from '../../web/src/common/pseudo-locale.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, 'web/src/messages');
const catalogFile = (language, namespace) => join(dir, language, `${namespace}.json`);
const namespaces = readdirSync(join(dir, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5));

/**
 * The argument names a message uses, sorted: `all` of them, and those it `shows` (a plural that
 * only chooses the wording, without a #, shows nothing: a language without plurals may drop it).
 */
function argumentsOf(message) {
  const all = new Set();
  const shows = new Set();
  const walk = (tokens, pluralArg) => {
    for (const token of tokens) {
      if (token.type === 'octothorpe' && pluralArg) shows.add(pluralArg);
      if ('arg' in token) {
        all.add(token.arg);
        if (!token.cases) shows.add(token.arg);
      }
      for (const c of token.cases ?? []) walk(c.tokens, token.type === 'select' ? pluralArg : token.arg);
    }
  };
  walk(parse(message, { strict: false }));
  return { all: [...all].sort(), shows: [...shows].sort() };
}

test('every shipped language has every English message, showing the same arguments, and no other', () => {
  const problems = [];
  for (const language of SHIPPED.filter((l) => l !== 'en')) {
    for (const namespace of namespaces) {
      const file = catalogFile(language, namespace);
      if (!existsSync(file)) {
        problems.push(`${language}/${namespace}.json is missing`);
        continue;
      }
      const english = readCatalog(catalogFile('en', namespace));
      const translated = readCatalog(file);
      for (const key of Object.keys(english)) {
        if (!(key in translated)) problems.push(`${language}/${namespace}.json lacks ${key}`);
        else {
          const theirs = argumentsOf(translated[key]);
          const ours = argumentsOf(english[key]);
          const unknown = theirs.all.filter((name) => !ours.all.includes(name));
          const dropped = ours.shows.filter((name) => !theirs.all.includes(name));
          if (unknown.length || dropped.length)
            problems.push(
              `${language}/${namespace}.json ${key}: arguments {${theirs.all}} where English has {${ours.all}} (shows {${ours.shows}})`,
            );
        }
      }
      for (const key of Object.keys(translated))
        if (!(key in english)) problems.push(`${language}/${namespace}.json has ${key}, which English no longer has`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every catalog compiles in its language', () => {
  for (const language of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()))
    for (const file of readdirSync(join(dir, language.name)).filter((f) => f.endsWith('.json'))) {
      const path = join(dir, language.name, file);
      assert.match(compileCatalog(language.name, readCatalog(path), path), /export default/, path);
    }
});

/** Source files under web/src, recursively. */
function sources(folder = join(root, 'web/src')) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test("every key the code asks for is in English, in a catalog the file imports (or any, for a shared part's)", () => {
  const english = Object.fromEntries(namespaces.map((n) => [n, readCatalog(catalogFile('en', n))]));
  const missing = [];
  let asked = 0;
  for (const file of sources()) {
    const code = readFileSync(file, 'utf8');
    const imported = [...code.matchAll(/from 'attn-messages:([\w-]+)'/g)].map((m) => m[1]);
    const searched = imported.length ? [...imported, 'common'] : namespaces;
    for (const [, key] of code.matchAll(/\.text\(\s*'([\w.-]+)'/g)) {
      asked++;
      if (!searched.some((n) => key in english[n])) missing.push(`${file.slice(root.length + 1)}: ${key}`);
    }
  }
  assert.ok(asked > 0, 'the code asks for no message at all: the pattern no longer finds the calls');
  assert.deepEqual(missing, []);
});

const catalog = (namespace, en, es) => ({
  namespace,
  en,
  load: { es: async () => ({ default: es }) },
});

test('a message a language lacks is said in English, the others in that language', async () => {
  const messages = await messagesIn(
    'es',
    catalog('unit-a', { hello: () => 'Hello', bye: () => 'Bye' }, { hello: () => 'Hola' }),
  );
  assert.equal(messages.text('hello'), 'Hola');
  assert.equal(messages.text('bye'), 'Bye');
  assert.equal(messages.isEnglish('bye'), true);
  assert.equal(messages.isEnglish('hello'), false);
  assert.equal(messages.text('nothing'), '[nothing]');
});

test("an author's override wins in its language only, with its arguments filled in by the language's rules", async () => {
  const quiz = catalog('unit-b', { score: (p) => `Score: ${p.n}` }, { score: (p) => `Puntuación: ${p.n}` });
  overrideMessages('es', 'unit-b', { score: 'Aciertos: {n} de {total}' });
  assert.equal((await messagesIn('es', quiz)).text('score', { n: 16640, total: 3 }), 'Aciertos: 16.640 de 3');
  assert.equal((await messagesIn('en', quiz)).text('score', { n: 2 }), 'Score: 2');
});

test('a language an author gives messages in is spoken, the rest of its messages in English', async () => {
  assert.equal(pickLanguage(['fr-FR']), 'en');
  overrideMessages('fr', 'unit-c', { check: 'Vérifier' });
  assert.equal(pickLanguage(['fr-FR']), 'fr');
  const messages = await messagesIn('fr', catalog('unit-c', { check: () => 'Check', retry: () => 'Retry' }, {}));
  assert.deepEqual([messages.text('check'), messages.text('retry')], ['Vérifier', 'Retry']);
});

test('the pseudo-locale accents, lengthens and brackets the text, and leaves arguments as they are', () => {
  const text = pseudoText('Train both', 'en-XA');
  assert.match(text, /^\[Ţŕàíñ ƀóţĥ ·+\]$/);
  assert.ok(text.length >= 'Train both'.length * 1.4, text);
  const message = pseudoMessage((p) => `Seed ${p.seed} of ${p.name}`, 'en-XA');
  assert.match(message({ seed: 42, name: 'Quiz' }), /^\[Šééđ 42 óƒ Quiz ·+\]$/);
  assert.doesNotMatch(pseudoText('Right to left', 'ar-XB'), /[A-Za-z]/);
});
