// Each widget's tag name, written once. The contracts (contracts.ts) take their tag from here,
// and so does the autoloader (autoload.ts), the one script a course page includes, which needs
// the names and nothing else of the contracts.
export const TAGS = {
  softLookup: 'attn-soft-lookup',
  attentionSteps: 'attn-attention-steps',
  rankedTable: 'attn-ranked-table',
  scaleFigure: 'attn-scale-figure',
  maskFigure: 'attn-mask-figure',
  headsFigure: 'attn-heads-figure',
  pitfallDemo: 'attn-pitfall-demo',
  flowchart: 'attn-flowchart',
  quiz: 'attn-quiz',
  exercises: 'attn-exercises',
  cueTrainer: 'attn-cue-trainer',
  cueProbe: 'attn-cue-probe',
} as const;

export type WidgetTag = (typeof TAGS)[keyof typeof TAGS];

/** The class every widget gives itself once defined: widgets.css styles widgets through it. */
export const HOST_CLASS = 'attn-widget';
