// The core's errors in a widget's words (web/src/widgets/element/attribute-errors.ts): an
// ArgumentError about an option an attribute sets names the attributes, keeps its code, and
// renames its values; anything else is left to the widget's failure display.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArgumentError } from '../../web/src/core/errors.ts';
import { AttributeError, attributeError } from '../../web/src/widgets/element/attribute-errors.ts';
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
