// <attn-ranked-table>: a table whose rows the reader ranks by any column. Clicking a column
// header (or Enter/Space on it, it is a button) sorts every row by that column, toggling
// the direction; bars show that column's values, and the highest and lowest cells are marked
// from the numbers. Data: a child <script type="application/json"> or the `src` attribute
// ({columns: [{key, label, digits?}], rows: [{key: number | string}]}); by default the live
// scale sweep from the core, with a control for the number of draws.
import { scaleSweepTable, sweepOf, type TableData } from '../sweep-view';
import { AttnElement, define, el, fetchJson } from './base';
import { downloadCsv } from './download';

export function validateTable(data: unknown): TableData {
  const fail = (what: string) => { throw new Error(`table data: ${what}`); };
  const t = data as TableData;
  if (typeof t !== 'object' || t === null || !Array.isArray(t.columns) || !Array.isArray(t.rows)) fail('needs "columns" and "rows" lists');
  if (t.columns.length < 1 || t.columns.length > 20) fail('needs 1 to 20 columns');
  if (t.rows.length < 1 || t.rows.length > 500) fail('needs 1 to 500 rows');
  for (const c of t.columns) if (typeof c?.key !== 'string' || typeof c.label !== 'string') fail('every column needs a "key" and a "label" (text)');
  t.rows.forEach((row, i) => {
    for (const c of t.columns) {
      const v = row?.[c.key];
      if (!(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) fail(`row ${i + 1} needs a finite number or text for "${c.key}"`);
    }
  });
  return t;
}

// The sweep runs on the page's thread: this widget asks for at most this many draws per d_k
// (about a second of work on a slow machine), well inside the core's own limit.
const MAX_DRAWS_ON_PAGE = 5000;

export class RankedTable extends AttnElement {
  static readonly coreAttributes = [{ attribute: 'draws', config: 'scaleSweep', key: 'draws' }] as const;

  private data!: TableData;
  private sortKey = '';
  private descending = false;
  private tableHost!: HTMLElement;
  private draws = 0;
  private error!: HTMLElement;

  protected async setup(): Promise<void> {
    const saved = this.savedState();
    this.error = el('p', { class: 'attn-error', role: 'alert' });
    const inline = this.querySelector('script[type="application/json"]');
    const src = this.getAttribute('src');
    const controls = el('div', { class: 'attn-controls' });
    if (inline || src) {
      const raw = inline ? JSON.parse(inline.textContent ?? '') : await fetchJson(src!, 'table data');
      this.data = validateTable(raw);
    } else {
      this.draws = Number(saved.draws) || this.optionAttribute('draws') || this.core.configs.scaleSweep.defaults.draws;
      const drawsInput = el('input', { type: 'number', min: '1', max: String(MAX_DRAWS_ON_PAGE), step: '1', value: String(this.draws), 'aria-describedby': 'draws-help' });
      const apply = el('button', { type: 'button' }, 'Recompute');
      const recompute = () => {
        const value = Number(drawsInput.value);
        if (!Number.isInteger(value) || value < 1 || value > MAX_DRAWS_ON_PAGE) {
          this.error.textContent = `Draws must be a whole number from 1 to ${MAX_DRAWS_ON_PAGE} here, got "${drawsInput.value}".`;
          return;
        }
        this.error.textContent = '';
        this.draws = value;
        this.data = this.sweepData();
        this.render();
        this.saveState({ draws: value });
      };
      apply.addEventListener('click', recompute);
      drawsInput.addEventListener('keydown', (e) => e.key === 'Enter' && recompute());
      controls.append(el('label', {}, 'random draws per d_k', drawsInput), apply);
      this.draws = Math.min(MAX_DRAWS_ON_PAGE, Math.max(1, Math.round(this.draws)));
      this.data = this.sweepData();
    }
    this.sortKey = saved.sort && this.data.columns.some((c) => c.key === saved.sort) ? saved.sort : this.data.columns[0].key;
    this.descending = saved.dir === 'desc';
    const csv = el('button', { type: 'button' }, 'Download CSV');
    csv.addEventListener('click', () => downloadCsv('attention-table.csv', this.data.columns.map((c) => c.label), this.data.rows.map((r) => this.data.columns.map((c) => r[c.key]))));
    this.tableHost = el('div', { class: 'table-scroll' });
    this.replaceChildren(el('div', { class: 'attn-panel' }, controls, this.error, this.tableHost, el('div', { class: 'attn-download' }, csv)));
    this.render();
  }

  private sweepData(): TableData {
    return scaleSweepTable(sweepOf(this.core, { draws: this.draws }));
  }

  /** The rows in their current order. */
  rankedRows(): TableData['rows'] {
    const key = this.sortKey;
    const sign = this.descending ? -1 : 1;
    return [...this.data.rows].sort((a, b) => {
      const x = a[key], y = b[key];
      return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
    });
  }

  private sortBy(key: string): void {
    this.descending = this.sortKey === key ? !this.descending : false;
    this.sortKey = key;
    this.render();
    this.saveState({ sort: key, dir: this.descending ? 'desc' : 'asc' });
    this.emit('attn-change', { sortKey: key, descending: this.descending });
    (this.querySelector(`th[data-key="${CSS.escape(key)}"] button`) as HTMLElement | null)?.focus();
  }

  private render(): void {
    const { columns } = this.data;
    const rows = this.rankedRows();
    const values = rows.map((r) => r[this.sortKey]).filter((v): v is number => typeof v === 'number');
    const max = Math.max(...values), min = Math.min(...values);
    const scaleTop = Math.max(Math.abs(max), Math.abs(min)) || 1;
    const head = el('tr', {}, ...columns.map((c) => {
      const button = el('button', { type: 'button' }, c.label);
      button.addEventListener('click', () => this.sortBy(c.key));
      const th = el('th', { scope: 'col', 'data-key': c.key }, button);
      th.setAttribute('aria-sort', c.key === this.sortKey ? (this.descending ? 'descending' : 'ascending') : 'none');
      return th;
    }));
    const body = rows.map((row) => el('tr', {}, ...columns.map((c) => {
      const v = row[c.key];
      const text = typeof v === 'number' ? (c.digits === undefined ? String(v) : v.toFixed(c.digits)) : v;
      if (c.key !== this.sortKey || typeof v !== 'number') return el('td', {}, text);
      const fill = el('span', { class: 'bar-fill' });
      fill.style.width = `${(100 * Math.abs(v)) / scaleTop}%`; // CSSOM, allowed under a strict CSP
      const mark = values.length > 1 && v === max ? 'highest' : values.length > 1 && v === min ? 'lowest' : '';
      return el('td', { 'data-mark': mark }, el('span', { class: 'cell' }, text, el('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill), ...(mark ? [el('span', { class: 'mark' }, mark)] : [])));
    })));
    const caption = columns.find((c) => c.key === this.sortKey)?.label ?? '';
    this.tableHost.replaceChildren(el('table', { class: 'ranked' },
      el('caption', { class: 'visually-hidden' }, `Ranked by ${caption}, ${this.descending ? 'highest' : 'lowest'} first`),
      el('thead', {}, head), el('tbody', {}, ...body)));
  }
}

define('attn-ranked-table', RankedTable);
