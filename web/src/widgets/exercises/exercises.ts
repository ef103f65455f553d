// <attn-exercises>: "Try it yourself" tasks the reader solves on the page, each checked by the
// core. Tasks: the author's (schemas/exercises.schema.json, as a child <script
// type="application/json"> or src; without them, an author error says so); each task's `kind`
// names the check below.
// Texts are inserted as text only. Each check and each finished set is also an xAPI statement
// (xapi.ts). With a progress store (persist="on", or a host's) each task's last checked answer and
// result are kept and come back when the set draws. Attributes and events: EXERCISES in
// contracts.ts.
import type { Core, MaskMat } from '../../core';
import { mathReady, renderRich } from '../../common/rich-text';
import { marked, readAuthorData, textsLanguage } from '../element/author-data';
import { attributeSpec, AuthorError } from '../element/contract';
import { EXERCISES, SOFT_LOOKUP } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import type { XapiAgent } from '../element/public-types';
import { QUERY_LIMIT } from '../soft-lookup/soft-lookup';
import { sweepOf } from '../shared/sweep-view';
import { activityId, answeredStatement, completedStatement } from '../element/xapi';
import { widgetKey } from '../element/progress-store';
import { readTasks, type SavedTask } from '../element/saved-answers';
import { numberLocale } from '../../common/language';
import exercisesMessages from 'attn-messages:exercises';
import { readNumberField } from '../shared/number-field';

/** A task as schemas/exercises.schema.json describes it. */
type Params = Record<string, number | number[]>;
interface Exercise {
  id: string;
  kind: string;
  title: string;
  prompt: string;
  params: Params;
}

/** The soft lookup's default keys: the aim-query task asks about them. */
const SOFT_LOOKUP_KEYS = attributeSpec(SOFT_LOOKUP, 'keys').default;

/**
 * The author's {name} placeholders filled with the task's parameters: numbers written as `write`
 * writes them, anything else (an author's mistake) as its text.
 */
const fillParams = (text: string, params: Params, write: (n: number) => string) => {
  const say = (v: unknown) => (typeof v === 'number' ? write(v) : String(v));
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    const value: unknown = params[name];
    return value === undefined ? m : Array.isArray(value) ? value.map(say).join(', ') : say(value);
  });
};
const num = (p: Params, name: string) => p[name] as number;

/** A task's answer as the reader entered it: its fields' values, its mask grid's cells. */
interface TaskView {
  fields: (HTMLInputElement | HTMLSelectElement)[];
  cells: HTMLButtonElement[];
  result: HTMLElement;
}

let lists = 0; // heading ids must stay unique when a page holds more than one list

/** Parameters of a multi-head layer, as the core counts them. */
function parameterCount(core: Core, dModel: number, numHeads: number): number {
  const layer = core.createMultiHead({ dModel, numHeads, weights: { seed: 0 } });
  try {
    return layer.parameterCount;
  } finally {
    layer.dispose();
  }
}

export class Exercises extends AttnElement<typeof EXERCISES> {
  static readonly contract = EXERCISES;
  static readonly messages = [exercisesMessages];
  static override readonly graded = true;
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  /**
   * The learner, for the learning records: set by the host page (see EXERCISES.properties). Declared,
   * not a field: a value set before the element was defined (the script form defines it when it
   * first appears) stays.
   */
  declare actor?: XapiAgent;

  private idPrefix?: string;
  /** each task's latest check, by id */
  private results = new Map<string, boolean>();
  /** each task's fields, by id */
  private tasks = new Map<string, TaskView>();
  /** what each task's latest check was made with (SavedTask), by id */
  private answers = new Map<string, SavedTask>();
  private total = 0;
  /** Where the author's texts are in a language of their own (data's lang): an element carrying it. */
  private textsLanguage?: HTMLElement;

  protected async draw(): Promise<void> {
    this.idPrefix ??= ++lists === 1 ? 'ex' : `ex${lists}`;
    const [own] = await Promise.all([
      readAuthorData<{ lang?: string; exercises: Exercise[] }>('exercises', this.inlineJson(), this.settings.src),
      mathReady(),
    ]);
    if (!own) throw new AuthorError(this.text('noTasks'));
    const { exercises } = own;
    this.textsLanguage = textsLanguage(own.lang);
    this.results.clear();
    this.tasks.clear();
    this.answers.clear();
    this.total = exercises.length;
    const sections = exercises.map((x, i) => this.build(x, i));
    const foot: HTMLElement[] = [];
    if (this.progressStore) {
      const forget = el('button', { type: 'button', class: 'attn-forget' }, this.text('forget'));
      forget.addEventListener('click', () => this.forgetProgress());
      foot.push(el('div', { class: 'attn-controls' }, forget));
    }
    this.replaceChildren(...sections, ...foot);
    this.restore();
    this.emitProgress();
  }

  /**
   * Shows the saved answers: each task's entries and its result as last checked. Those that no
   * longer fit the data (the task gone, or of another kind) are dropped.
   */
  private restore(): void {
    const shapes = new Map([...this.tasks].map(([id, t]) => [id, t.fields.length + (t.cells.length ? 1 : 0)]));
    const { tasks, dropped } = readTasks(this.loadProgress('answers'), shapes);
    for (const [id, entry] of tasks) {
      const task = this.tasks.get(id)!;
      const [result, ...entered] = entry;
      task.fields.forEach((field, i) => (field.value = entered[i]));
      const bits = task.cells.length ? entered[task.fields.length] : '';
      task.cells.forEach((cell, i) => cell.setAttribute('aria-pressed', String(bits[i] === '1')));
      task.result.dataset.result = result ? 'right' : 'wrong';
      task.result.textContent = this.text('savedResult', { result: result ? 'right' : 'wrong' });
      this.results.set(id, result === 1);
      this.answers.set(id, entry);
    }
    if (dropped) this.save();
  }

  private save(): void {
    if (this.progressStore) this.saveProgress('answers', Object.fromEntries(this.answers));
  }

  private emitProgress(): void {
    const points = this.score();
    this.emit('attn-progress', {
      key: widgetKey(this),
      points,
      max: this.total,
      answered: this.results.size,
      total: this.total,
    });
  }

  /** Reports a check: its "answered" record, and a "completed" one once every task is checked (again when the score changes). */
  private record(x: Exercise, correct: boolean, response: string): void {
    const before = this.results.size === this.total ? this.score() : undefined;
    this.results.set(x.id, correct);
    const task = this.tasks.get(x.id)!;
    const entered = task.fields.map((f) => f.value);
    if (task.cells.length)
      entered.push(task.cells.map((c) => (c.getAttribute('aria-pressed') === 'true' ? 1 : 0)).join(''));
    this.answers.set(x.id, [correct ? 1 : 0, ...entered]);
    this.save();
    const activity = activityId(this, this.settings['activity-id']);
    const statement = answeredStatement({
      element: this.textsLanguage ?? this,
      actor: this.actor,
      registration: this.settings.registration,
      activity,
      id: x.id,
      name: x.title,
      success: correct,
      response,
    });
    this.emit('attn-exercise-checked', { id: x.id, correct, statement });
    const score = this.score();
    if (this.results.size === this.total && score !== before)
      this.emit('attn-exercises-completed', {
        score,
        total: this.total,
        statement: completedStatement({
          element: this,
          actor: this.actor,
          registration: this.settings.registration,
          activity,
          name: this.text('setName'),
          score,
          total: this.total,
          passMark: this.settings['pass-mark'],
        }),
      });
    this.emitProgress();
  }

  private score(): number {
    return [...this.results.values()].filter(Boolean).length;
  }

  private build(x: Exercise, index: number): HTMLElement {
    const result = el('p', { class: 'result', 'aria-live': 'polite' });
    // How an ambiguous entry was read (Spanish "9.408": 9408, not 9,408), until the next check.
    const reading = el('p', { class: 'number-reading', 'aria-live': 'polite' });
    const report = (correct: boolean, text: string, response: string) => {
      result.dataset.result = correct ? 'right' : 'wrong';
      result.textContent = this.text(correct ? 'right' : 'notYet', { detail: text });
      this.record(x, correct, response);
    };
    const refuse = (text: string) => {
      result.dataset.result = 'wrong';
      result.textContent = text;
    };
    const check = el('button', { type: 'button' }, this.text('check'));
    // Each check starts with no reading told (this listener runs before the task's own).
    check.addEventListener('click', () => (reading.textContent = ''));
    const body = this.inputsFor(x, check, report, refuse, (text) =>
      reading.append(reading.textContent ? ` ${text}` : text),
    );
    const headingId = `${this.idPrefix}-${x.id}`;
    this.tasks.set(x.id, {
      fields: [...body.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')],
      cells: [...body.querySelectorAll<HTMLButtonElement>('button[aria-pressed]')],
      result,
    });
    return el(
      'section',
      { class: 'exercise', 'data-exercise': x.id, 'aria-labelledby': headingId },
      el('h3', { id: headingId }, `${this.formatNumber(index + 1)}. `, marked(this.textsLanguage, x.title)),
      el(
        'p',
        {},
        marked(
          this.textsLanguage,
          renderRich(fillParams(x.prompt, { ...x.params, queryLimit: QUERY_LIMIT }, (n) => this.formatNumber(n))),
        ),
      ),

      body,
      el('div', { class: 'attn-controls' }, check),
      reading,
      result,
    );
  }

  private inputsFor(
    x: Exercise,
    check: HTMLButtonElement,
    report: (ok: boolean, t: string, response: string) => void,
    refuse: (t: string) => void,
    tellReading: (t: string) => void,
  ): HTMLElement {
    const p = x.params;
    const numberInput = (label: string, attrs: Record<string, string> = {}) => {
      const input = el('input', { type: 'text', inputmode: 'decimal', size: '8', ...attrs });
      return { input, label: el('label', {}, label, input) };
    };
    const locale = numberLocale(this.messages.language);
    /** The field's number by the widget's locale, or undefined (refused, the field named by `name`). */
    const parse = (
      input: HTMLInputElement,
      name: string,
      min: number,
      max: number,
      integer = false,
    ): number | undefined => {
      const read = readNumberField(input.value, locale, { min, max, integer });
      if (read.value !== undefined && read.otherValue !== undefined)
        tellReading(
          this.text('readAs', {
            typed: input.value.trim(),
            value: this.formatNumber(read.value),
            other: this.formatNumber(read.otherValue),
          }),
        );
      if (!read.ok) {
        refuse(
          this.text(integer ? 'mustBeWhole' : 'mustBeNumber', {
            name,
            min: this.formatNumber(min),
            max: this.formatNumber(max),
            got: input.value.slice(0, 40),
          }),
        );
        return undefined;
      }
      return read.value;
    };
    switch (x.kind) {
      case 'predict-max-weight': {
        const dks = p.dks as number[];
        const select = el(
          'select',
          {},
          ...dks.map((d) => el('option', { value: String(d) }, `d_k = ${this.formatNumber(d)}`)),
        );
        const guess = numberInput(this.text('yourGuess'));
        check.addEventListener('click', () => {
          const g = parse(guess.input, this.text('fieldGuess'), 0, 1);
          if (g === undefined) return;
          const dk = Number(select.value);
          const sweep = sweepOf(this.core, { dks: [dk], draws: num(p, 'draws'), tokens: num(p, 'tokens'), seed: 0 });
          const measured = sweep.rows[0].unscaled.maxWeight.mean;
          report(
            Math.abs(g - measured) <= num(p, 'tolerance'),
            this.text('measuredMaxWeight', { value: this.formatNumber(measured, 4), dk: this.formatNumber(dk) }),
            `d_k ${dk}: ${g}`,
          );
        });
        return el('div', { class: 'attn-controls' }, el('label', {}, this.text('keyWidth'), select), guess.label);
      }
      case 'build-mask': {
        const n = num(p, 'size');
        const cells: HTMLButtonElement[] = [];
        const grid = el('div', {
          class: 'mask-builder',
          dir: 'ltr', // a matrix: queries down, keys across, in every language
          role: 'group',
          'aria-label': this.text('maskGrid', { n }),
        });
        grid.style.gridTemplateColumns = `repeat(${n}, 1.9rem)`; // CSSOM, allowed under a strict CSP
        for (let i = 0; i < n * n; i++) {
          // One Tab stop for the whole grid (roving tabindex); arrow keys move inside it.
          const b = el('button', {
            type: 'button',
            'aria-pressed': 'false',
            tabindex: i === 0 ? '0' : '-1',
            'aria-label': this.text('maskCell', { query: Math.floor(i / n) + 1, key: (i % n) + 1 }),
          });
          b.addEventListener('click', () =>
            b.setAttribute('aria-pressed', String(b.getAttribute('aria-pressed') !== 'true')),
          );
          cells.push(b);
          grid.append(b);
        }
        grid.addEventListener('keydown', (event) => {
          const at = cells.indexOf(event.target as HTMLButtonElement);
          const [r, c] = [Math.floor(at / n), at % n];
          const to = (
            {
              ArrowLeft: [r, c - 1],
              ArrowRight: [r, c + 1],
              ArrowUp: [r - 1, c],
              ArrowDown: [r + 1, c],
              Home: [r, 0],
              End: [r, n - 1],
            } as Record<string, number[]>
          )[event.key];
          if (at < 0 || !to) return;
          event.preventDefault();
          const [tr, tc] = [Math.min(n - 1, Math.max(0, to[0])), Math.min(n - 1, Math.max(0, to[1]))];
          cells[at].tabIndex = -1;
          cells[tr * n + tc].tabIndex = 0;
          cells[tr * n + tc].focus();
        });
        check.addEventListener('click', () => {
          const mask: MaskMat = {
            rows: n,
            cols: n,
            data: Uint8Array.from(cells.map((c) => (c.getAttribute('aria-pressed') === 'true' ? 1 : 0))),
          };
          if (!mask.data.some((v) => v)) return refuse(this.text('maskNone'));
          // A query with no key left has nothing to attend to (its row turns uniform or NaN).
          const empty = Array.from({ length: n }, (_, r) => r).filter(
            (r) => this.core.allowedFraction({ rows: 1, cols: n, data: mask.data.slice(r * n, (r + 1) * n) }) === 0,
          );
          const fraction = this.core.allowedFraction(mask);
          const causal = this.core.combineMasks(mask, this.core.causalMask(n));
          const peeks = mask.data.reduce((count, v, i) => count + (v && !causal.data[i] ? 1 : 0), 0);
          const ok = Math.abs(fraction - num(p, 'fraction')) < 1e-12 && peeks === 0 && empty.length === 0;
          const rows = new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(
            empty.map((r) => this.formatNumber(r + 1)),
          );
          report(
            ok,
            this.text('maskResult', {
              fraction: this.formatNumber(fraction, 4),
              peeks,
              empty: empty.length,
              rows,
            }),
            mask.data.join(''),
          );
        });
        return grid;
      }
      case 'aim-query': {
        const qx = numberInput('x'),
          qy = numberInput('y');
        check.addEventListener('click', () => {
          // The sketch's own range: an answer found by dragging there is accepted here.
          const x0 = parse(qx.input, 'x', -QUERY_LIMIT, QUERY_LIMIT),
            y0 = parse(qy.input, 'y', -QUERY_LIMIT, QUERY_LIMIT);
          if (x0 === undefined || y0 === undefined) return;
          const k = num(p, 'key') - 1;
          const result = this.core.attention(
            { rows: 1, cols: 2, data: Float32Array.of(x0, y0) },
            { rows: 5, cols: 2, data: Float32Array.from(SOFT_LOOKUP_KEYS.flat()) },
            { rows: 5, cols: 2, data: Float32Array.from(SOFT_LOOKUP_KEYS.flat()) },
          );
          const w = result.weights.data[k];
          report(
            w >= num(p, 'target'),
            this.text('aimResult', { key: k + 1, weight: this.formatNumber(w, 4) }),
            `${x0}, ${y0}`,
          );
        });
        return el('div', { class: 'attn-controls' }, qx.label, qy.label);
      }
      case 'count-parameters': {
        const answer = numberInput(this.text('parameters'));
        check.addEventListener('click', () => {
          const g = parse(answer.input, this.text('fieldCount'), 0, 1e9, true);
          if (g === undefined) return;
          const count = parameterCount(this.core, num(p, 'dModel'), num(p, 'numHeads'));
          report(g === count, g === count ? this.text('countRight', { count }) : this.text('countHint'), String(g));
        });
        return el('div', { class: 'attn-controls' }, answer.label);
      }
      case 'entropy-threshold': {
        const dks = [2, 4, 8, 16, 32, 64, 128, 256, 512];
        const select = el('select', {}, ...dks.map((d) => el('option', { value: String(d) }, this.formatNumber(d))));
        check.addEventListener('click', () => {
          const sweep = sweepOf(this.core, { dks, draws: num(p, 'draws'), tokens: num(p, 'tokens'), seed: 0 });
          const first = sweep.rows.find((r) => r.unscaled.entropy.mean < num(p, 'threshold'));
          const chosen = Number(select.value);
          const row = sweep.rows.find((r) => r.dk === chosen)!;
          report(
            first?.dk === chosen,
            this.text('measuredEntropy', {
              dk: this.formatNumber(chosen),
              entropy: this.formatNumber(row.unscaled.entropy.mean, 3),
            }),
            String(chosen),
          );
        });
        return el('div', { class: 'attn-controls' }, el('label', {}, 'd_k', select));
      }
      case 'one-block-heads': {
        // Checked against the 1-block runs the native core recorded at build time.
        const guess = numberInput(this.text('yourGuess'));
        check.addEventListener('click', async () => {
          const g = parse(guess.input, this.text('fieldGuess'), 0, 1);
          if (g === undefined) return;
          // The recorded runs load only when a reader checks this kind of task.
          const runs = (await import('../../common/recorded-runs')).oneBlockRuns();
          const run = runs.find(
            (r) =>
              r.config.heads === num(p, 'heads') &&
              r.config.epochs === num(p, 'epochs') &&
              r.config.seed === num(p, 'seed'),
          );
          if (!run) return refuse(this.text('noRecordedRun', { heads: num(p, 'heads'), epochs: num(p, 'epochs') }));
          const others = runs
            .filter((r) => r !== run && r.config.seed === run.config.seed && r.config.heads !== run.config.heads)
            .sort((a, b) => a.config.heads - b.config.heads)
            .map((r) =>
              this.text('otherRun', {
                heads: r.config.heads,
                epochs: r.config.epochs,
                best: this.formatNumber(r.best, 3),
              }),
            );
          const reached = {
            best: this.formatNumber(run.best, 3),
            epoch: run.bestEpoch,
            baseline: this.formatNumber(run.baseline, 3),
          };
          report(
            Math.abs(g - run.best) <= num(p, 'tolerance'),
            others.length
              ? this.text('runReachedOthers', { ...reached, seed: run.config.seed, others: others.join('; ') })
              : this.text('runReached', reached),
            String(g),
          );
        });
        return el('div', { class: 'attn-controls' }, guess.label);
      }
    }
    throw new Error(`unknown exercise kind ${x.kind}`);
  }
}

define(Exercises);
