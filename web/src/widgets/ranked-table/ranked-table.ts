// <attn-ranked-table>: a table whose rows the reader ranks by any column. Clicking a column
// header (or Enter/Space on it, it is a button) sorts every row by that column, toggling
// the direction; bars show that column's values, and the highest and lowest cells are marked
// from the numbers. Data: the author's (schemas/table.schema.json, as a child <script
// type="application/json"> or src); by default the live scale sweep from the core, with a
// control for the number of draws. Attributes and events: RANKED_TABLE in contracts.ts.
import type { Core } from '../../core';
import { readAuthorData } from '../element/author-data';
import { acceptedField, attributeSpec, AuthorError } from '../element/contract';
import { RANKED_TABLE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { downloadCsv } from '../shared/download';
import { chooseDefaultSweepDraws, scaleSweepTable, sweepMessages, sweepOf, type TableData } from '../shared/sweep-view';
import rankedMessages from 'attn-messages:ranked-table';
import { numberLocale } from '../../common/language';

export class RankedTable extends AttnElement<typeof RANKED_TABLE> {
  static readonly contract = RANKED_TABLE;
  static readonly messages = [rankedMessages, sweepMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  private data!: TableData;
  private sortKey = '';
  private descending = false;
  private tableHost!: HTMLElement;
  private shownDraws = 0;
  private error!: HTMLElement;

  protected async draw(): Promise<void> {
    const { src, draws, sort, order } = this.settings;
    this.error = el('p', { class: 'attn-error', role: 'alert' });
    const controls = el('div', { class: 'attn-controls' });
    const data = await readAuthorData<TableData>('table', this.inlineJson(), src);
    if (data) {
      this.data = data;
    } else {
      this.shownDraws = draws;
      const limit = acceptedField(attributeSpec(RANKED_TABLE, 'draws'), this.core.configs).max;
      const drawsInput = el('input', {
        type: 'number',
        min: '1',
        max: String(limit),
        step: '1',
        value: String(this.shownDraws),
      });
      const apply = el('button', { type: 'button' }, this.text('recompute'));
      const recompute = () => {
        const value = Number(drawsInput.value);
        if (!Number.isInteger(value) || value < 1 || value > limit) {
          this.error.textContent = this.text('drawsRange', {
            max: this.formatNumber(limit),
            got: drawsInput.value.slice(0, 20),
          });
          return;
        }
        this.error.textContent = '';
        this.shownDraws = value;
        this.data = this.sweepData();
        this.renderTable();
        this.remember({ draws: value });
      };
      apply.addEventListener('click', recompute);
      drawsInput.addEventListener('keydown', (e) => e.key === 'Enter' && recompute());
      controls.append(el('label', {}, this.text('drawsLabel'), drawsInput), apply);
      this.data = this.sweepData();
    }
    if (sort !== undefined && !this.data.columns.some((c) => c.key === sort))
      throw new AuthorError(
        this.text('sortNotColumn', { keys: this.data.columns.map((c) => c.key).join(', '), got: sort.slice(0, 60) }),
      );
    this.sortKey = sort ?? this.data.columns[0].key;
    this.descending = order === 'descending';
    const csv = el('button', { type: 'button' }, this.text('downloadCsv'));
    csv.addEventListener('click', () =>
      downloadCsv(
        'attention-table.csv',
        this.data.columns.map((c) => c.label),
        this.data.rows.map((r) => this.data.columns.map((c) => r[c.key] ?? '')),
      ),
    );
    this.tableHost = el('div', { class: 'table-scroll' });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        controls,
        this.error,
        this.tableHost,
        el('div', { class: 'attn-download' }, csv),
      ),
    );
    this.renderTable();
  }

  /** The core's default sweep with this table's draws, which the page's figures of it then show too. */
  private sweepData(): TableData {
    chooseDefaultSweepDraws(this.shownDraws, this);
    return scaleSweepTable(sweepOf(this.core, { draws: this.shownDraws }), this.messages);
  }

  /** The rows in their current order. */
  rankedRows(): TableData['rows'] {
    const key = this.sortKey;
    const sign = this.descending ? -1 : 1;
    return [...this.data.rows].sort((a, b) => {
      const x = a[key],
        y = b[key];
      // empty cells last, whichever the direction
      if (x === undefined || y === undefined) return Number(x === undefined) - Number(y === undefined);
      return (
        sign *
        (typeof x === 'number' && typeof y === 'number'
          ? x - y
          : String(x).localeCompare(String(y), numberLocale(this.messages.language)))
      );
    });
  }

  private sortBy(key: string): void {
    this.descending = this.sortKey === key ? !this.descending : false;
    this.sortKey = key;
    this.renderTable();
    this.remember({ sort: key, order: this.descending ? 'descending' : 'ascending' });
    this.emit('attn-change', { sortKey: key, descending: this.descending });
    (this.querySelector(`th[data-key="${CSS.escape(key)}"] button`) as HTMLElement | null)?.focus();
  }

  private renderTable(): void {
    const { columns } = this.data;
    const rows = this.rankedRows();
    const values = rows.map((r) => r[this.sortKey]).filter((v): v is number => typeof v === 'number');
    const max = Math.max(...values),
      min = Math.min(...values);
    const scaleTop = Math.max(Math.abs(max), Math.abs(min)) || 1;
    const head = el(
      'tr',
      {},
      ...columns.map((c) => {
        const button = el('button', { type: 'button' }, c.label);
        button.addEventListener('click', () => this.sortBy(c.key));
        const th = el('th', { scope: 'col', 'data-key': c.key }, button);
        th.setAttribute('aria-sort', c.key === this.sortKey ? (this.descending ? 'descending' : 'ascending') : 'none');
        return th;
      }),
    );
    const body = rows.map((row) =>
      el(
        'tr',
        {},
        ...columns.map((c) => {
          const v = row[c.key];
          const text = typeof v === 'number' ? this.formatNumber(v, c.digits) : (v ?? '');
          if (c.key !== this.sortKey || typeof v !== 'number') return el('td', {}, text);
          const fill = el('span', { class: 'bar-fill' });
          fill.style.width = `${(100 * Math.abs(v)) / scaleTop}%`; // CSSOM, allowed under a strict CSP
          const mark = values.length > 1 && v === max ? 'highest' : values.length > 1 && v === min ? 'lowest' : '';
          return el(
            'td',
            { 'data-mark': mark },
            el(
              'span',
              { class: 'cell' },
              text,
              el('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill),
              ...(mark ? [el('span', { class: 'mark' }, this.text(mark))] : []),
            ),
          );
        }),
      ),
    );
    const caption = columns.find((c) => c.key === this.sortKey)?.label ?? '';
    this.tableHost.replaceChildren(
      el(
        'table',
        { class: 'ranked' },
        el(
          'caption',
          { class: 'visually-hidden' },
          this.text(this.descending ? 'rankedHighestFirst' : 'rankedLowestFirst', { column: caption }),
        ),
        el('thead', {}, head),
        el('tbody', {}, ...body),
      ),
    );
  }
}

define(RankedTable);
