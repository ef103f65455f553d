// The message catalogs (web/src/messages/<language>/<namespace>.json, ICU MessageFormat) as
// modules, compiled at build time by @messageformat/core so that the page runs plain functions
// and parses no message (docs/translations.md).
//
//   import quiz from 'attn-messages:quiz'
//     { namespace: 'quiz', en: { check: () => 'Check', … }, load: { es: () => import(…), … } }
//
// English is in the module itself (every key exists in English); each other language, and each
// pseudo-locale (web/src/common/pseudo-locale.ts, made from English in the browser), is a
// dynamic import, so a bundler puts it in a chunk of its own that loads only when a reader
// needs that language.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/compile-module.js';
import type { Plugin } from 'vite';

const PREFIX = 'attn-messages:';
const RESOLVED = `\0${PREFIX}`;

/** The languages with catalogs: each folder of `dir`, English first. */
function languagesIn(dir: string): string[] {
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  if (!found.includes('en')) throw new Error(`${dir} has no en/ catalogs: English holds every message`);
  return ['en', ...found.filter((language) => language !== 'en').sort()];
}

/** The ICU messages of one catalog file, checked to be a flat object of strings. */
export function readCatalog(file: string): Record<string, string> {
  const messages: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof messages !== 'object' || messages === null || Array.isArray(messages))
    throw new Error(`${file}: a catalog is an object of key: message`);
  for (const [key, message] of Object.entries(messages))
    if (typeof message !== 'string') throw new Error(`${file}: ${key} is not a string`);
  return messages as Record<string, string>;
}

/** One catalog compiled to an ES module whose default export is an object of functions. */
export function compileCatalog(language: string, messages: Record<string, string>, file: string): string {
  try {
    return compileModule(new MessageFormat(language, { strict: false }), messages);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
}

export function messageCatalogs(dir: string, pseudoModule: string): Plugin {
  const languages = languagesIn(dir);
  const fileOf = (language: string, namespace: string) => resolve(dir, language, `${namespace}.json`);
  return {
    name: 'attention-lab:messages',
    resolveId(id) {
      if (id.startsWith(PREFIX)) return `\0${id}`;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return;
      const [namespace, language] = id.slice(RESOLVED.length).split('/');
      if (language === undefined) {
        if (!existsSync(fileOf('en', namespace))) this.error(`no English catalog ${fileOf('en', namespace)}`);
        const loaders = languages
          .filter((l) => l !== 'en' && existsSync(fileOf(l, namespace)))
          .map((l) => `${JSON.stringify(l)}: () => import(${JSON.stringify(`${PREFIX}${namespace}/${l}`)})`);
        // The pseudo-locales are made from English in the browser, by a module loaded only for them.
        const pseudo = ['en-XA', 'ar-XB'].map(
          (l) =>
            `${JSON.stringify(l)}: () => import(${JSON.stringify(pseudoModule)}).then((m) => ({ default: m.pseudoCatalog(en, ${JSON.stringify(l)}) }))`,
        );
        return [
          `import en from ${JSON.stringify(`${PREFIX}${namespace}/en`)};`,
          `export default { namespace: ${JSON.stringify(namespace)}, en, load: { ${[...loaders, ...pseudo].join(', ')} } };`,
        ].join('\n');
      }
      const file = fileOf(language, namespace);
      this.addWatchFile(file);
      return compileCatalog(language, readCatalog(file), file);
    },
  };
}
