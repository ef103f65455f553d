// The core's errors in a widget's words (web/src/widgets/element/attribute-errors.ts): an
// ArgumentError about an option an attribute sets names the attributes, keeps its code, and
// renames its values; anything else is left to the widget's failure display.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArgumentError } from '../../web/src/core/errors.ts';
import { readFileSync } from 'node:fs';
import MessageFormat from '@messageformat/core';
import { AttributeError, attributeError, attributeSaid } from '../../web/src/widgets/element/attribute-errors.ts';
import { AuthorError } from '../../web/src/widgets/element/contract.ts';
import { HEADS_FIGURE } from '../../web/src/widgets/element/contracts.ts';

test("the heads figure words the core's must-divide with its attributes", () => {
  const core = new ArgumentError('numHeads', 'must-divide', 'must divide {dModel} = 64, got 5', { dModel: 64, got: 5 });
  assert.equal(core.message, 'numHeads must divide dModel = 64, got 5');
  const error = attributeError(core, HEADS_FIGURE);
  assert.ok(error instanceof AttributeError && error instanceof AuthorError);
  assert.equal(error.message, 'attribute heads must divide d-model = 64, got 5');
  assert.equal(error.attribute, 'heads');
  assert.equal(error.code, 'must-divide');
  assert.deepEqual({ ...error.values }, { 'd-model': 64, got: 5 });
});

test('an error about no attribute of the widget, or no ArgumentError, is not worded as one', () => {
  assert.equal(attributeError(new ArgumentError('query', 'not-finite', 'must be finite'), HEADS_FIGURE), undefined);
  assert.equal(attributeError(new Error('numHeads must divide dModel'), HEADS_FIGURE), undefined);
});

// What the widget shows in another language: the common catalog's message for the code, built
// from the values (compiled here as the build compiles it), never from the English text.
const common = (language) => JSON.parse(readFileSync(`web/src/messages/${language}/common.json`, 'utf8'));
const say = (language, { key, params }) => new MessageFormat(language).compile(common(language)[key])(params);

test('a refused attribute is said in Spanish and Chinese from its code and values', () => {
  const core = new ArgumentError('numHeads', 'must-divide', 'must divide {dModel} = 64, got 5', { dModel: 64, got: 5 });
  const error = attributeError(core, HEADS_FIGURE);
  assert.deepEqual(error.said, {
    key: 'coreMustDivide',
    params: { attribute: 'heads', other: 'd-model', size: 64, got: 5 },
  });
  assert.equal(say('es', error.said), 'el atributo heads debe ser divisor de d-model = 64; se recibió 5');
  assert.equal(say('zh-CN', error.said), '属性 heads 必须整除 d-model = 64，实际为 5');
});

test('a range with one end says only that end, numbers written as the language writes them', () => {
  const both = attributeSaid('heads', 'out-of-range', { min: 1, max: 16384, got: 0 }, '');
  assert.equal(say('es', both), 'el atributo heads debe ser un valor entre 1 y 16.384; se recibió 0');
  const low = attributeSaid('heads', 'out-of-range', { min: 1, got: 0 }, '');
  assert.equal(say('en', low), 'attribute heads must be at least 1, got 0');
});

test('every error code has a message in every shipped language; a code without one quotes the English', () => {
  const codes = [
    'out-of-range',
    'not-whole',
    'not-finite',
    'not-one-of',
    'must-divide',
    'bad-shape',
    'bad-length',
    'empty',
    'too-many-elements',
    'too-large',
    'not-allowed',
    'wrong-type',
  ];
  for (const code of codes) {
    const said = attributeSaid('mask', code, { min: 1, max: 4, got: 9 }, 'must be one of none, causal');
    for (const language of ['en', 'es', 'zh-CN']) assert.ok(common(language)[said.key], `${language}: ${said.key}`);
  }
  const other = attributeSaid('mask', 'not-one-of', {}, 'must be one of none, causal');
  assert.equal(say('es', other), 'atributo mask: must be one of none, causal');
});
