// The core each widget loads when it starts (its class's `needsCore`, element/base.ts), known by
// tag so that the autoloader can start fetching it before the widget's code arrives
// (preload-core.ts). tests/unit/widget-cores.test.mjs checks it against the classes.
import { TAGS, type WidgetTag } from './element/tags';

/** Which core a widget loads: the whole core, the attention core, or none. */
export type CoreKind = 'whole' | 'attention' | false;

export const WIDGET_CORES: Record<WidgetTag, CoreKind> = {
  [TAGS.softLookup]: 'attention',
  [TAGS.attentionSteps]: 'whole',
  [TAGS.rankedTable]: 'whole',
  [TAGS.scaleFigure]: 'whole',
  [TAGS.maskFigure]: 'whole',
  [TAGS.headsFigure]: 'whole',
  [TAGS.pitfallDemo]: 'whole',
  [TAGS.flowchart]: false,
  [TAGS.quiz]: false,
  [TAGS.exercises]: 'whole',
  [TAGS.cueTrainer]: 'whole',
  [TAGS.cueProbe]: 'whole',
};
