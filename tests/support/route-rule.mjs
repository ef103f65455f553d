// The route rule of core/include/attn/cue/intervene.hpp, written again here so the tests name a
// run's route from the raw intervention accuracies (a RouteTest list and the attention analysis)
// and never from the core's or the page's label.

/** The rule's thresholds: a solved run's clean accuracy, the share an ideal pattern keeps, the share of (clean - baseline) a knock-out removes. */
const THRESHOLDS = [0.9, 0.95, 0.5];

/** route: a CueRoute (its tests and baseline); analysis: the run's CueAnalysis. -> the label and the evidence. */
export function routeFromTests(route, analysis) {
  const accuracy = (action, pattern, block, head) =>
    route.tests.find((t) => t.action === action && t.pattern === pattern && t.block === block && t.head === head)
      .accuracy;
  const clean = accuracy('none', '', 0, 0);
  const heads = Array.from(analysis.firstBlockCueToAnswer).length;
  const knocked = Array.from({ length: heads }, (_, h) => accuracy('knock-out', '', 1, h + 1));
  const tested = knocked.indexOf(Math.min(...knocked)) + 1;
  const strongest = (weights) => {
    const list = Array.from(weights);
    return list.indexOf(Math.max(...list)) + 1;
  };
  const evidence = {
    clean,
    baseline: route.baselineAccuracy,
    tested,
    next: accuracy('pattern', 'next', 1, tested),
    previous: accuracy('pattern', 'previous', 1, tested),
    firstCue: accuracy('pattern', 'first-cue', 1, tested),
    cueHead: strongest(analysis.firstBlockCueToAnswer),
    answerHead: strongest(analysis.firstBlockAnswerToCue),
  };
  const [solved, keepsShare, breaksShare] = THRESHOLDS;
  const keeps = (a) => a >= keepsShare * clean;
  const breaks = (head) => knocked[head - 1] <= clean - breaksShare * (clean - route.baselineAccuracy);
  let label = 'other';
  if (clean < solved) label = 'none';
  else if (keeps(evidence.next) && breaks(evidence.cueHead)) label = 'cue-position';
  else if (keeps(evidence.previous) && breaks(evidence.answerHead)) label = 'answer-position';
  else if (keeps(evidence.firstCue)) label = 'cue-broadcast';
  const knockedHead =
    label === 'cue-position' ? evidence.cueHead : label === 'answer-position' ? evidence.answerHead : tested;
  return { label, ...evidence, knockedHead, knocked: knocked[knockedHead - 1] };
}

/**
 * What the core's CueRoute reports of the rule (its label, the head knocked out and what each
 * test measured, its thresholds) next to what routeFromTests makes of the same tests: two objects
 * with the same keys, for assert.deepEqual.
 */
export function coreAndRule(route, analysis) {
  const rule = routeFromTests(route, analysis);
  return {
    core: {
      label: route.label,
      testedHead: route.testedHead,
      knockedHead: route.knockedHead,
      knocked: route.knockedAccuracy,
      next: route.nextAccuracy,
      previous: route.previousAccuracy,
      firstCue: route.firstCueAccuracy,
      thresholds: [route.solvedAt, route.keepsShare, route.breaksShare],
    },
    rule: {
      label: rule.label,
      testedHead: rule.tested,
      knockedHead: rule.knockedHead,
      knocked: rule.knocked,
      next: rule.next,
      previous: rule.previous,
      firstCue: rule.firstCue,
      thresholds: THRESHOLDS,
    },
  };
}
