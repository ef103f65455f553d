// The evidence behind a route (core/include/attn/cue/intervene.hpp) as a table: one row per
// intervention the core ran, one column of validation accuracy per run. The trainer shows its
// run's; the lesson shows the recorded runs' side by side.
import type { CueRoute, RouteTest } from '../../core';
import { el } from '../element/base';

const PATTERN_NAMES: Record<string, string> = {
  next: 'next-token',
  previous: 'previous-token',
  'first-cue': 'look-at-the-CUE',
};

/** "knock out block 2, head 1" ("knock out block 2's attention" with one head), "block 1, head 1: ideal next-token pattern". */
export function testName(test: Pick<RouteTest, 'action' | 'pattern' | 'block' | 'head'>, heads: number): string {
  const where = heads > 1 ? `block ${test.block}, head ${test.head}` : `block ${test.block}`;
  if (test.action === 'none') return 'nothing changed (clean)';
  if (test.action === 'knock-out') return heads > 1 ? `knock out ${where}` : `knock out ${where}'s attention`;
  const pattern = PATTERN_NAMES[test.pattern] ?? test.pattern;
  return `${where}: ideal ${pattern} pattern`;
}

const key = (t: RouteTest) => `${t.action}/${t.pattern}/${t.block}/${t.head}`;

/** runs: a column title and a route each; rows follow the first run's tests (a run without one shows —). */
export function routeTable(runs: { title: string; route: CueRoute; heads: number }[], caption: string): HTMLElement {
  const [first] = runs;
  return el(
    'table',
    { class: 'ranked', 'data-table': 'route' },
    el('caption', {}, caption),
    el(
      'thead',
      {},
      el('tr', {}, el('th', { scope: 'col' }, 'intervention'), ...runs.map((r) => el('th', { scope: 'col' }, r.title))),
    ),
    el(
      'tbody',
      {},
      ...first.route.tests.map((test) =>
        el(
          'tr',
          { 'data-test': key(test) },
          el('th', { scope: 'row' }, testName(test, first.heads)),
          ...runs.map((r) => {
            const found = r.route.tests.find((t) => key(t) === key(test));
            return el('td', {}, found ? found.accuracy.toFixed(3) : '—');
          }),
        ),
      ),
      el(
        'tr',
        { 'data-test': 'baseline' },
        el('th', { scope: 'row' }, 'guess the most frequent symbol'),
        ...runs.map((r) => el('td', {}, r.route.baselineAccuracy.toFixed(3))),
      ),
      el(
        'tr',
        { 'data-test': 'route' },
        el('th', { scope: 'row' }, 'route the tests name'),
        ...runs.map((r) => el('td', { 'data-route': r.route.label }, r.route.label)),
      ),
    ),
  );
}
