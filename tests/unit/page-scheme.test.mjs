// The page's used colour scheme as page-scheme.ts reads it from a color-scheme value: what
// decides whether a widget paints its own background.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { usedScheme } from '../../web/src/widgets/element/page-scheme.ts';

test('a page that declares no scheme, or only light, is light whatever the reader prefers', () => {
  for (const declared of ['normal', 'light', 'only light'])
    for (const dark of [false, true]) assert.equal(usedScheme(declared, dark), 'light', `${declared}, dark ${dark}`);
});

test('a page that declares only dark is dark; one that declares both follows the reader', () => {
  assert.equal(usedScheme('dark', false), 'dark');
  assert.equal(usedScheme('only dark', false), 'dark');
  assert.equal(usedScheme('light dark', false), 'light');
  assert.equal(usedScheme('light dark', true), 'dark');
  assert.equal(usedScheme('dark light', true), 'dark');
});
