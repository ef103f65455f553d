// The autoloader's warning for an attn-* element that is no widget (web/src/widgets/element/
// closest-tag.ts): it names the known tag the author most likely meant.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { closestTag, unknownTagWarning } from '../../web/src/widgets/element/closest-tag.ts';

test('a misspelled tag is matched to the widget it most likely names', () => {
  assert.equal(closestTag('attn-quizz'), 'attn-quiz');
  assert.equal(closestTag('attn-exercise'), 'attn-exercises');
  assert.equal(closestTag('attn-cue-probes'), 'attn-cue-probe');
  assert.equal(closestTag('attn-mask-figur'), 'attn-mask-figure');
  assert.equal(closestTag('attn-trainer'), 'attn-cue-trainer');
});

test('the warning names the element, the closest widget and every widget', () => {
  const warning = unknownTagWarning('attn-quizz');
  assert.match(
    warning,
    /^attention-lab: <attn-quizz> is not an attention-lab widget, so it shows nothing\. Did you mean <attn-quiz>\?/,
  );
  assert.match(warning, /attn-soft-lookup, .*attn-cue-probe\.$/);
});
