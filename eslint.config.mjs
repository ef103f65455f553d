// ESLint for the TypeScript (typescript-eslint) and the node scripts; formatting is Prettier's
// (eslint-config-prettier turns off the rules that would disagree with it). `npm run lint`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['build*/', 'dist/', 'dist-package/', 'web/dist/', 'web/src/generated/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  // The site's code runs in browsers (pages, widgets) and Workers.
  { files: ['web/**/*.{ts,js,mjs}'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  // Tests, benchmarks and scripts run in node and send functions to the pages they drive.
  {
    files: ['tests/**/*.{mjs,js}', 'bench/**/*.mjs', 'scripts/**/*.{mjs,ts}', '*.{mjs,ts}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // The map of docs/architecture.md: a widget stands alone, so nothing under widgets/ or worker/
  // imports a page; the neutral modules in common/ import neither pages nor widgets. Static imports and
  // re-exports, then import() and import.meta.glob(), which no-restricted-imports does not see.
  ...[
    {
      files: ['web/src/widgets/**/*.ts', 'web/src/worker/**/*.ts'],
      folders: ['pages'],
      why: 'A widget (and its Worker) stands alone: it imports nothing of a page.',
    },
    {
      files: ['web/src/common/**/*.ts'],
      folders: ['pages', 'widgets'],
      why: 'common/ serves pages and widgets alike: it imports neither.',
    },
  ].map(({ files, folders, why }) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: folders.map((f) => `**/${f}/**`), message: why }] }],
      'no-restricted-syntax': [
        'error',
        ...folders.flatMap((folder) => [
          { selector: `ImportExpression[source.value=/(^|\\/)${folder}\\//]`, message: why },
          {
            selector: `CallExpression[callee.object.type='MetaProperty'][callee.property.name='glob'] Literal[value=/(^|\\/)${folder}\\//]`,
            message: why,
          },
        ]),
      ],
    },
  })),
  // Destructuring that drops fields ({ dropped, ...kept }) is how a copy leaves some out.
  // `const core = this` lets the methods of an object a facade call returns reach the core, where
  // their own `this` is the object.
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['core'] }],
    },
  },
  prettier,
);
