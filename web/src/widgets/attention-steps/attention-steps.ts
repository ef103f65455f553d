// <attn-attention-steps>: one attention call laid out as matrices, every one from the core
// (core.attentionSteps): Q, K, V -> Q Kᵀ -> times 1/√d_k -> causal mask (optional) -> softmax ->
// times V. Each matrix is a table (a screen reader reads the numbers as they are shown) and a
// keyboard grid: the arrow keys move between cells, Enter edits a cell of Q, K or V; a tap or a
// click on such a cell edits it too. Focusing or pointing at a cell marks the cells it came from
// and writes out its sum, with the core's numbers as the terms and the core's result as the
// total: the widget itself computes nothing. The focused cell's sum is also shown in a callout
// beside it (under the matrices, the same text is a live region for screen readers). Hints say
// "tap" or "click" and "Enter" after the pointer in use (shared/input-kind.ts).
// Attributes and events: ATTENTION_STEPS in contracts.ts (the core's defaults and ranges).
import type { AttentionSteps as Steps, Core, Mat } from '../../core';
import { acceptedField, attributeSpec } from '../element/contract';
import { formatLocaleNumber } from '../../common/locale-numbers';
import { ATTENTION_STEPS } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { numberLocale } from '../../common/language';
import stepsMessages from 'attn-messages:attention-steps';
import { readNumberField } from '../shared/number-field';
import { inputKind, onInputKind } from '../shared/input-kind';

type MatrixId = 'query' | 'key' | 'value' | 'scores' | 'scaled' | 'masked' | 'weights' | 'output';
type Cells = { query: Mat; key: Mat; value: Mat };
/** A cell of one matrix: [matrix, row, column]. */
type CellRef = [MatrixId, number, number];

const EDITABLE: readonly MatrixId[] = ['query', 'key', 'value'];
/** What a reader may type into a cell of Q, K or V (a wider range only hides the arithmetic). */
const EDIT_LIMIT = 10;

/**
 * How each matrix is titled (a formula, or the message `titleKey`), the message saying what it
 * holds (`what-` + id in the catalog), and what its rows and columns are.
 */
const MATRICES: Record<MatrixId, { title: string; titleKey?: string; row: string; col: string }> = {
  query: { title: 'Q', row: 'q', col: '' },
  key: { title: 'K', row: 'k', col: '' },
  value: { title: 'V', row: 'v', col: '' },
  scores: { title: 'Q Kᵀ', row: 'q', col: 'k' },
  scaled: { title: '÷ √dₖ', row: 'q', col: 'k' },
  masked: { title: 'causal mask', titleKey: 'titleMasked', row: 'q', col: 'k' },
  weights: { title: 'softmax', row: 'q', col: 'k' },
  output: { title: '× V', row: 'o', col: '' },
};
const WHAT: Record<MatrixId, string> = {
  query: 'whatQuery',
  key: 'whatKey',
  value: 'whatValue',
  scores: 'whatScores',
  scaled: 'whatScaled',
  masked: 'whatMasked',
  weights: 'whatWeights',
  output: 'whatOutput',
};

/** A number as `locale` writes it, with a true minus sign, `digits` decimals, huge ones as 1e9. */
function fmt(v: number, locale: string, digits = 2): string {
  const text = Math.abs(v) >= 1e6 ? v.toExponential(0).replace('e+', 'e') : formatLocaleNumber(v, locale, digits);
  return text.replace('-', '−');
}
/** What a cell of Q, K or V is, by matrix. */
const EXPLAIN_INPUT = { query: 'explainQuery', key: 'explainKey', value: 'explainValue' } as const;
const at = (m: Mat, i: number, j: number) => m.data[i * m.cols + j];

export class AttentionSteps extends AttnElement<typeof ATTENTION_STEPS> {
  static readonly contract = ATTENTION_STEPS;
  static readonly messages = [stepsMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  private steps!: Steps;
  /** the reader's cells, replacing the drawn ones until a setting changes */
  private edited?: Cells;
  private flow!: HTMLElement;
  private explain!: HTMLElement;
  private error!: HTMLElement;
  private reading!: HTMLElement;
  private hint!: HTMLElement;
  /** the focused cell's explanation beside it (the one under the matrices is far on a phone) */
  private callout!: HTMLElement;
  private panel!: HTMLElement;
  private focused?: CellRef;
  private stopInputKind?: () => void;

  /** A number as the widget's language writes it in the matrices and sums (see fmt). */
  private fmt(v: number, digits = 2): string {
    return fmt(v, numberLocale(this.messages.language), digits);
  }
  /** A factor in a written-out sum: negative ones in parentheses. */
  private factor(v: number, digits = 2): string {
    return v < 0 ? `(${this.fmt(v, digits)})` : this.fmt(v, digits);
  }
  private matrixTitle(id: MatrixId): string {
    const info = MATRICES[id];
    return info.titleKey ? this.text(info.titleKey) : info.title;
  }

  protected draw(): void {
    this.edited = undefined;
    const s = this.settings;
    const configs = this.core.configs;
    const range = (name: 'tokens' | 'dk' | 'dv') => acceptedField(attributeSpec(ATTENTION_STEPS, name), configs);
    const select = (name: 'tokens' | 'dk' | 'dv', value: number) => {
      const { min, max } = range(name);
      const node = el('select', { name });
      for (let v = min; v <= max; v++)
        node.append(
          el('option', v === value ? { value: String(v), selected: '' } : { value: String(v) }, this.formatNumber(v)),
        );
      return node;
    };
    const tokens = select('tokens', s.tokens),
      dk = select('dk', s.dk),
      dv = select('dv', s.dv);
    const causal = el(
      'input',
      s.causal ? { type: 'checkbox', name: 'causal', checked: '' } : { type: 'checkbox', name: 'causal' },
    );
    const scale = el(
      'input',
      s.scale ? { type: 'checkbox', name: 'scale', checked: '' } : { type: 'checkbox', name: 'scale' },
    );
    const redraw = el('button', { type: 'button' }, this.text('drawNew'));
    const apply = (seed = this.settings.seed) => {
      this.remember({
        tokens: Number(tokens.value),
        dk: Number(dk.value),
        dv: Number(dv.value),
        causal: causal.checked,
        scale: scale.checked,
        seed,
      });
      this.edited = undefined;
      this.compute();
      this.changed();
    };
    for (const control of [tokens, dk, dv, causal, scale]) control.addEventListener('change', () => apply());
    const seedMax = acceptedField(attributeSpec(ATTENTION_STEPS, 'seed'), configs).max;
    redraw.addEventListener('click', () => apply(this.settings.seed >= seedMax ? 0 : this.settings.seed + 1));
    // The matrices and their order are a computation written out: left to right in every language.
    this.flow = el('div', { class: 'steps-flow', dir: 'ltr' });
    this.explain = el('p', { class: 'steps-explain', 'aria-live': 'polite' });
    this.error = el('p', { class: 'attn-error', role: 'alert' });
    this.reading = el('p', { class: 'steps-reading', 'aria-live': 'polite' });
    this.flow.addEventListener('keydown', (event) => this.onKey(event));
    this.flow.addEventListener('focusin', (event) => {
      const ref = this.refOf(event.target);
      if (ref) this.focused = ref;
      this.show(ref);
    });
    this.flow.addEventListener('focusout', (event) => {
      if (!(event.relatedTarget instanceof Node && this.flow.contains(event.relatedTarget))) this.callout.hidden = true;
    });
    this.flow.addEventListener('pointerover', (event) => this.show(this.refOf(event.target) ?? this.focused));
    this.flow.addEventListener('pointerleave', () => this.show(this.focused));
    // A tap or a click: on a cell of Q, K or V it opens the cell's editor, on another it focuses it.
    // On pointerup, not click: finishing an open editor redraws the matrices under the pointer.
    this.flow.addEventListener('pointerup', (event) => {
      const ref = this.refOf(event.target);
      if (event.button !== 0 || !ref || event.target instanceof HTMLInputElement) return;
      if (EDITABLE.includes(ref[0])) {
        this.flow.querySelector<HTMLInputElement>('td input')?.blur();
        this.edit(ref);
      } else {
        const td = this.cell(ref);
        if (td) this.focusCell(td, true);
      }
    });
    // A tap that opened an editor ends there: no mouse events after it (Firefox would send their
    // mousedown to the cell, not to the field now over it, and move the focus off the field).
    this.flow.addEventListener(
      'touchend',
      (event) => {
        if (event.target instanceof Element && event.target.closest('td')?.querySelector(':scope > input'))
          event.preventDefault();
      },
      { passive: false },
    );
    this.hint = el('p', { class: 'steps-hint' });
    this.callout = el('p', { class: 'steps-callout', 'aria-hidden': 'true', hidden: '' });
    this.showHint();
    this.stopInputKind?.();
    this.stopInputKind = onInputKind(() => {
      this.showHint();
      this.show(this.focused);
    });
    this.panel = el(
      'div',
      { class: 'attn-panel steps' },
      el(
        'div',
        { class: 'attn-controls' },
        el('label', {}, this.text('tokens'), tokens),
        el('label', {}, 'dₖ', dk),
        el('label', {}, 'dᵥ', dv),
        el('label', {}, causal, this.text('causalMask')),
        el('label', {}, scale, this.text('divideByRoot')),
        redraw,
      ),
      this.hint,
      this.error,
      this.reading,
      this.flow,
      this.explain,
      this.callout,
    );
    this.replaceChildren(this.panel);
    this.compute();
  }

  protected teardown(): void {
    this.stopInputKind?.();
    this.stopInputKind = undefined;
  }

  private showHint(): void {
    this.hint.textContent = this.text('hint', { input: inputKind() });
  }

  /** Runs the core on the drawn or the edited cells and lays out every matrix. */
  private compute(): void {
    const { tokens, dk: dK, dv: dV, causal, scale, seed } = this.settings;
    this.steps = this.edited
      ? this.core.attentionSteps({ causal, scale }, this.edited)
      : this.core.attentionSteps({ tokens, dK, dV, causal, scale, seed });
    const stage = (id: MatrixId) => this.matrix(id, this.steps[id]);
    const noMask = el('p', { class: 'steps-nomask' }, this.text('noMask'));
    this.flow.replaceChildren(
      el('div', { class: 'steps-row' }, stage('query'), stage('key'), stage('value')),
      el(
        'div',
        { class: 'steps-row' },
        stage('scores'),
        stage('scaled'),
        causal ? stage('masked') : noMask,
        stage('weights'),
        stage('output'),
      ),
    );
    const focus = this.focused && this.cell(this.focused);
    if (focus) this.focusCell(focus, this.contains(document.activeElement));
    else this.show(undefined);
  }

  /** One matrix as a table and a keyboard grid: one cell of it in the tab order. */
  private matrix(id: MatrixId, m: Mat): HTMLElement {
    const info = MATRICES[id];
    const edits = EDITABLE.includes(id);
    const colLabel = (j: number) => (info.col ? `${info.col}${j}` : String(j));
    const head = el(
      'tr',
      {},
      el('td', {}),
      ...Array.from({ length: m.cols }, (_, j) => el('th', { scope: 'col' }, colLabel(j))),
    );
    const rows = Array.from({ length: m.rows }, (_, i) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, `${info.row}${i}`),
        ...Array.from({ length: m.cols }, (_, j) => {
          const v = at(m, i, j);
          const blocked = id === 'masked' && this.steps.allowed.data[i * m.cols + j] === 0;
          const attrs: Record<string, string> = {
            tabindex: i === 0 && j === 0 ? '0' : '-1',
            'data-row': String(i),
            'data-col': String(j),
            'data-value': String(v),
          };
          if (blocked) attrs['data-blocked'] = '';
          if (edits && this.edited) attrs['data-edited'] = '';
          return el('td', attrs, this.fmt(v));
        }),
      ),
    );
    const caption = el(
      'caption',
      {},
      el('span', { class: 'steps-title', ...(MATRICES[id].titleKey ? {} : { translate: 'no' }) }, this.matrixTitle(id)),
      ' ',
      el('span', { class: 'steps-what' }, this.text(WHAT[id])),
    );
    const table = el(
      'table',
      { class: 'steps-matrix', role: 'grid', 'data-matrix': id, 'aria-readonly': edits ? 'false' : 'true' },
      caption,
      el('thead', {}, head),
      el('tbody', {}, ...rows),
    );
    return el('div', { class: 'steps-stage' }, table);
  }

  private cell([id, i, j]: CellRef): HTMLTableCellElement | null {
    return this.flow.querySelector(`table[data-matrix="${id}"] td[data-row="${i}"][data-col="${j}"]`);
  }

  private refOf(target: EventTarget | null): CellRef | undefined {
    const td = target instanceof Element ? target.closest('td[data-row]') : null;
    const id = td?.closest('table')?.dataset.matrix as MatrixId | undefined;
    return td && id ? [id, Number(td.getAttribute('data-row')), Number(td.getAttribute('data-col'))] : undefined;
  }

  /** Makes `td` its grid's one tabbable cell, and focuses it when `move`. */
  private focusCell(td: HTMLTableCellElement, move: boolean): void {
    for (const other of td.closest('table')!.querySelectorAll('td[tabindex="0"]')) other.setAttribute('tabindex', '-1');
    td.setAttribute('tabindex', '0');
    if (move) td.focus();
    else this.show(this.refOf(td));
  }

  private onKey(event: KeyboardEvent): void {
    const ref = this.refOf(event.target);
    if (!ref || event.target instanceof HTMLInputElement) return;
    const [id, i, j] = ref;
    const m = this.steps[id];
    const moves: Record<string, [number, number]> = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, m.cols - 1],
      PageUp: [0, j],
      PageDown: [m.rows - 1, j],
    };
    if (event.key in moves) {
      event.preventDefault();
      const [r, c] = moves[event.key];
      const td = this.cell([id, Math.min(Math.max(r, 0), m.rows - 1), Math.min(Math.max(c, 0), m.cols - 1)]);
      if (td) this.focusCell(td, true);
    } else if ((event.key === 'Enter' || event.key === 'F2') && EDITABLE.includes(id)) {
      event.preventDefault();
      this.edit(ref);
    }
  }

  /** Turns a cell of Q, K or V into a text field: Enter (or leaving it) keeps the value, Escape does not. */
  private edit(ref: CellRef): void {
    const [id, i, j] = ref;
    const td = this.cell(ref);
    if (!td || td.querySelector('input')) return;
    const name = this.text('cellName', { matrix: this.matrixTitle(id), row: i, col: j });
    const locale = numberLocale(this.messages.language);
    // The cell's number as the reader's language writes it (up to 6 decimals): unchanged, it stays exact.
    const shown = formatLocaleNumber(at(this.steps[id], i, j), locale).replace('-', '−');
    const input = el('input', { type: 'text', inputmode: 'decimal', value: shown, 'aria-label': name, size: '5' });
    let done = false;
    /** keep: the typed value (refused when it is not a number in range); refocus: back to the cell */
    const finish = (keep: boolean, refocus: boolean) => {
      if (done) return;
      const text = input.value.trim();
      if (keep && text === shown) keep = false; // nothing typed: nothing changes
      const read = readNumberField(text, locale, { min: -EDIT_LIMIT, max: EDIT_LIMIT });
      // An ambiguous entry (Spanish "0.500": 500, or 0,5) says how it was read, kept or refused.
      this.reading.textContent =
        keep && read.value !== undefined && read.otherValue !== undefined
          ? this.text('readAs', {
              typed: text.slice(0, 20),
              value: formatLocaleNumber(read.value, locale),
              other: formatLocaleNumber(read.otherValue, locale),
            })
          : '';
      if (keep && !read.ok) {
        this.error.textContent = this.text('cellRange', {
          cell: name,
          min: this.fmt(-EDIT_LIMIT, 0),
          max: this.fmt(EDIT_LIMIT, 0),
          got: text.slice(0, 20),
        });
        input.setAttribute('aria-invalid', 'true');
        return;
      }
      done = true;
      this.error.textContent = '';
      if (keep && read.ok) this.setCell(ref, read.value);
      else td.replaceChildren(this.fmt(at(this.steps[id], i, j)));
      this.focusCell(this.cell(ref)!, refocus);
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true, true);
      else if (event.key === 'Escape') finish(false, true);
      else return;
      event.preventDefault();
      event.stopPropagation();
    });
    // Leaving the field keeps a good value and drops a bad one.
    input.addEventListener('blur', () => {
      finish(true, false);
      finish(false, false);
    });
    // The field lies over the cell's number, which keeps the column as wide as it was.
    td.replaceChildren(el('span', { class: 'steps-under', 'aria-hidden': 'true' }, td.textContent ?? ''), input);
    input.focus();
    input.select();
  }

  private setCell([id, i, j]: CellRef, v: number): void {
    const copy = (m: Mat): Mat => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
    const cells: Cells = this.edited ?? {
      query: copy(this.steps.query),
      key: copy(this.steps.key),
      value: copy(this.steps.value),
    };
    const m = cells[id as keyof Cells];
    m.data[i * m.cols + j] = v;
    this.edited = cells;
    this.compute();
    this.changed();
  }

  /** Tells the page the reader changed the example. */
  private changed(): void {
    const { causal, scale } = this.steps.config;
    this.emit('attn-change', {
      causal,
      scale,
      weights: Array.from(this.steps.weights.data),
      output: Array.from(this.steps.output.data),
    });
  }

  /** Marks the cells `ref` came from and writes out its sum (nothing marked for no cell). */
  private show(ref: CellRef | undefined): void {
    for (const node of this.flow.querySelectorAll('[data-mark]')) node.removeAttribute('data-mark');
    if (!ref || !this.cell(ref)) {
      this.callout.hidden = true;
      return void (this.explain.textContent = this.text('explainNone', { input: inputKind() }));
    }
    const [id, i, j] = ref;
    const { sources, text, formula } = this.derivation(ref);
    this.cell(ref)!.setAttribute('data-mark', 'self');
    for (const source of sources) this.cell(source)?.setAttribute('data-mark', 'source');
    // A sum written out is a formula: left to right in every language.
    this.explain.replaceChildren(
      `${this.matrixTitle(id)} [${i}, ${j}]: `,
      formula === undefined ? text! : el('span', { dir: 'ltr', translate: 'no' }, formula),
    );
    const focusedHere = this.flow.contains(document.activeElement);
    const [fid, fi, fj] = this.focused ?? [];
    if (focusedHere && fid === id && fi === i && fj === j) this.placeCallout(this.cell(ref)!);
    else if (!focusedHere) this.callout.hidden = true;
  }

  /**
   * Shows the explanation in the callout just under `td` (above it when the screen ends first),
   * within the panel: it covers the cells below for a while and takes no room of the page.
   */
  private placeCallout(td: HTMLTableCellElement): void {
    const callout = this.callout;
    callout.replaceChildren(...[...this.explain.childNodes].map((node) => node.cloneNode(true)));
    callout.hidden = false;
    const panel = this.panel.getBoundingClientRect(),
      cell = td.getBoundingClientRect();
    const gap = 4;
    const left = Math.min(Math.max(cell.left - panel.left, gap), panel.width - callout.offsetWidth - gap);
    const screenBottom = window.visualViewport?.height ?? innerHeight;
    const below = cell.bottom + gap + callout.offsetHeight <= screenBottom || cell.top - callout.offsetHeight < gap;
    const top = below ? cell.bottom - panel.top + gap : cell.top - panel.top - callout.offsetHeight - gap;
    // CSSOM, allowed under a strict CSP
    callout.style.left = `${Math.max(left, 0)}px`;
    callout.style.top = `${top}px`;
  }

  /**
   * Where a cell's value comes from: the cells it is made of, and its sum written out with the
   * core's numbers (`formula`), or said in words (`text`).
   */
  private derivation([id, i, j]: CellRef): { sources: CellRef[]; text?: string; formula?: string } {
    const s = this.steps;
    const n = s.config.tokens;
    const row = (m: MatrixId, r: number, cols: number) => Array.from({ length: cols }, (_, c): CellRef => [m, r, c]);
    const value = at(s[id], i, j);
    switch (id) {
      case 'query':
      case 'key':
      case 'value':
        return {
          sources: [],
          // How to change the cell, or, while it is being edited, how to keep or drop the new value.
          text: this.text('whatAndHow', {
            what: this.text(EXPLAIN_INPUT[id], { value: this.fmt(value), component: j, token: i }),
            how: this.text(this.cell([id, i, j])?.querySelector('input') ? 'editing' : 'change', {
              input: inputKind(),
            }),
          }),
        };
      case 'scores': {
        const terms = Array.from(
          { length: s.query.cols },
          (_, c) => `${this.factor(at(s.query, i, c))} × ${this.factor(at(s.key, j, c))}`,
        );
        return {
          sources: [...row('query', i, s.query.cols), ...row('key', j, s.key.cols)],
          formula: `q${i} · k${j} = ${terms.join(' + ')} = ${this.fmt(value, 4)}`,
        };
      }
      case 'scaled':
        return s.config.scale
          ? {
              sources: [['scores', i, j]],
              formula: `${this.factor(at(s.scores, i, j), 4)} × 1/√${s.config.dK} = ${this.factor(at(s.scores, i, j), 4)} × ${this.fmt(s.scaleFactor, 4)} = ${this.fmt(value, 4)}`,
            }
          : { sources: [['scores', i, j]], text: this.text('explainNotScaled', { value: this.fmt(value, 4) }) };
      case 'masked':
        return {
          sources: [['scaled', i, j]],
          text: s.allowed.data[i * n + j]
            ? this.text('explainKept', { key: j, query: i, value: this.fmt(value, 4) })
            : this.text('explainBlocked', { key: j, query: i, value: this.fmt(s.maskedValue) }),
        };
      case 'weights': {
        const from: MatrixId = s.config.causal ? 'masked' : 'scaled';
        const exps = Array.from({ length: n }, (_, k) => `exp(${this.fmt(at(s[from], i, k), 4)})`);
        return { sources: row(from, i, n), formula: `${exps[j]} / (${exps.join(' + ')}) = ${this.fmt(value, 4)}` };
      }
      case 'output': {
        const terms = Array.from(
          { length: n },
          (_, k) => `${this.fmt(at(s.weights, i, k), 4)} × ${this.factor(at(s.value, k, j))}`,
        );
        return {
          sources: [...row('weights', i, n), ...Array.from({ length: n }, (_, k): CellRef => ['value', k, j])],
          formula: `${terms.join(' + ')} = ${this.fmt(value, 4)}`,
        };
      }
    }
  }
}

define(AttentionSteps);
