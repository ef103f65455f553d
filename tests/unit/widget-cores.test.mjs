// The autoloader's list of the core each widget loads (web/src/widgets/widget-cores.ts), which
// it preloads on seeing the tag, agrees with each widget class's own `needsCore` (base.ts's
// default 'whole' when the class declares none): a wrong entry would fetch a core for nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';

import { TAGS } from '../../web/src/widgets/element/tags.ts';
import { WIDGET_CORES } from '../../web/src/widgets/widget-cores.ts';

const widgets = resolve(import.meta.dirname, '../../web/src/widgets');

/** The `needsCore` a widget's class declares, read from its source (its module needs a DOM to load). */
function declaredCore(tag) {
  const name = tag.replace(/^attn-/, '');
  const source = readFileSync(resolve(widgets, name, `${name}.ts`), 'utf8');
  const declared = source.match(/static readonly needsCore = (?:'(whole|attention)'|(false))/);
  if (!declared) return 'whole';
  return declared[2] ? false : declared[1];
}

test('every widget has its core listed, as its class declares it', () => {
  assert.deepEqual(Object.keys(WIDGET_CORES).sort(), Object.values(TAGS).sort());
  for (const tag of Object.values(TAGS)) assert.equal(WIDGET_CORES[tag], declaredCore(tag), `<${tag}>`);
});

test('the soft lookup loads the attention core, the quiz none, the trainer the whole core', () => {
  assert.equal(declaredCore(TAGS.softLookup), 'attention');
  assert.equal(declaredCore(TAGS.quiz), false);
  assert.equal(declaredCore(TAGS.cueTrainer), 'whole');
});
