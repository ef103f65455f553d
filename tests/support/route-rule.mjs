// The route rule of core/include/attn/cue/intervene.hpp, written again here so the tests name a
// run's route from the raw intervention accuracies (a RouteTest list and the attention analysis)
// and never from the core's or the page's label.

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
  const keeps = (a) => a >= 0.95 * clean;
  const breaks = (head) => knocked[head - 1] <= clean - 0.5 * (clean - route.baselineAccuracy);
  let label = 'other';
  if (clean < 0.9) label = 'none';
  else if (keeps(evidence.next) && breaks(evidence.cueHead)) label = 'cue-position';
  else if (keeps(evidence.previous) && breaks(evidence.answerHead)) label = 'answer-position';
  else if (keeps(evidence.firstCue)) label = 'cue-broadcast';
  const knockedHead =
    label === 'cue-position' ? evidence.cueHead : label === 'answer-position' ? evidence.answerHead : tested;
  return { label, ...evidence, knocked: knocked[knockedHead - 1] };
}
