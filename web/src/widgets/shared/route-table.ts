// The evidence behind a route (core/include/attn/cue/intervene.hpp) as a table: one row per
// intervention the core ran, one column of validation accuracy per run. The trainer shows its
// run's; the lesson shows the recorded runs' side by side. Its words: the route-table catalog,
// in the language of the Messages given (which must hold it: export routeTableMessages).
import type { CueRoute, RouteTest } from '../../core';
import { numberLocale } from '../../common/language';
import { formatLocaleNumber } from '../../common/locale-numbers';
import type { MessageParams, Messages } from '../../common/messages';
import { el } from '../element/base';
import routeTableMessages from 'attn-messages:route-table';

export { routeTableMessages };

const PATTERN_KEYS: Record<string, string> = {
  next: 'patternNext',
  previous: 'patternPrevious',
  'first-cue': 'patternFirstCue',
};

const ROUTE_KEYS: Record<CueRoute['label'], string> = {
  'cue-position': 'nameCuePosition',
  'answer-position': 'nameAnswerPosition',
  'cue-broadcast': 'nameCueBroadcast',
  other: 'nameOther',
  none: 'nameNone',
};

/** "knock out block 2, head 1" ("knock out block 2's attention" with one head), "block 1, head 1: ideal next-token pattern". */
export function testName(
  test: Pick<RouteTest, 'action' | 'pattern' | 'block' | 'head'>,
  heads: number,
  messages: Messages,
): string {
  const say = (key: string, params?: MessageParams) => messages.text(key, params);
  const where = { block: test.block, head: test.head };
  if (test.action === 'none') return say('clean');
  if (test.action === 'knock-out') return say(heads > 1 ? 'knockOutHead' : 'knockOutBlock', where);
  const key = PATTERN_KEYS[test.pattern];
  const pattern = key ? say(key) : test.pattern;
  return say(heads > 1 ? 'patternHead' : 'patternBlock', { ...where, pattern });
}

const key = (t: RouteTest) => `${t.action}/${t.pattern}/${t.block}/${t.head}`;

/**
 * runs: a column title and a route each; rows follow the first run's tests (a run without one
 * shows —). `messages`: the language to say it in (a Messages holding the route-table catalog).
 */
export function routeTable(
  runs: { title: string; route: CueRoute; heads: number }[],
  caption: string,
  messages: Messages,
): HTMLElement {
  const [first] = runs;
  const say = (key: string, params?: MessageParams) => messages.text(key, params);
  const locale = numberLocale(messages.language);
  const f = (x: number) => formatLocaleNumber(x, locale, 3);
  return el(
    'table',
    { class: 'ranked', 'data-table': 'route' },
    el('caption', {}, caption),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, say('intervention')),
        ...runs.map((r) => el('th', { scope: 'col' }, r.title)),
      ),
    ),
    el(
      'tbody',
      {},
      ...first.route.tests.map((test) =>
        el(
          'tr',
          { 'data-test': key(test) },
          el('th', { scope: 'row' }, testName(test, first.heads, messages)),
          ...runs.map((r) => {
            const found = r.route.tests.find((t) => key(t) === key(test));
            return el('td', {}, found ? f(found.accuracy) : '—');
          }),
        ),
      ),
      el(
        'tr',
        { 'data-test': 'baseline' },
        el('th', { scope: 'row' }, say('baseline')),
        ...runs.map((r) => el('td', {}, f(r.route.baselineAccuracy))),
      ),
      el(
        'tr',
        { 'data-test': 'route' },
        el('th', { scope: 'row' }, say('route')),
        ...runs.map((r) => el('td', { 'data-route': r.route.label }, say(ROUTE_KEYS[r.route.label]))),
      ),
    ),
  );
}
