// <attn-exercises>: "Try it yourself" tasks the reader solves on the page, each checked by the
// core. Tasks: the author's (schemas/exercises.schema.json, as a child <script
// type="application/json"> or src; without them, an author error says so); each task's `kind`
// names the check below. A wrong answer gets a hint (where to look, what to compute), never the
// answer; "Show the answer" gives it, and a task whose answer was shown is kept as such (saved
// progress, score): it does not count as right, and later checks of it are not recorded.
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
import { firstReach } from './recorded-curves';

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

/** A task's saved result (SavedTask's first entry): not yet, right, answer shown. */
const RESULT = { wrong: 0, right: 1, revealed: 2 } as const;

/** The widths the entropy-threshold task offers. */
const ENTROPY_DKS = [2, 4, 8, 16, 32, 64, 128, 256, 512];

/**
 * A causal n x n mask allowing `count` pairs with every query keeping a key: the diagonal, then
 * the keys just before each query, row by row; undefined when no such mask exists.
 */
export function causalMaskWith(n: number, count: number): Uint8Array | undefined {
  if (!Number.isInteger(count) || count < n || count > (n * (n + 1)) / 2) return undefined;
  const data = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) data[r * n + r] = 1;
  let left = count - n;
  for (let r = 1; r < n && left > 0; r++) for (let c = r - 1; c >= 0 && left > 0; c--, left--) data[r * n + c] = 1;
  return data;
}

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
  /** each task's latest check, by id (false for an answer shown) */
  private results = new Map<string, boolean>();
  /** the tasks whose answer was shown */
  private revealed = new Set<string>();
  /** each task's answer, said when the reader asks for it, by id */
  private shows = new Map<string, () => string | Promise<string>>();
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
    this.revealed.clear();
    this.shows.clear();
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
      const outcome = result === RESULT.revealed ? 'revealed' : result === RESULT.right ? 'right' : 'wrong';
      task.result.dataset.result = outcome;
      task.result.textContent = this.text('savedResult', { result: outcome });
      if (result === RESULT.revealed) this.revealed.add(id);
      this.results.set(id, result === RESULT.right);
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

  /** What the reader has entered in task `id`: each field's text, a mask grid as 0s and 1s. */
  private entered(id: string): string[] {
    const task = this.tasks.get(id)!;
    const entered = task.fields.map((f) => f.value);
    if (task.cells.length)
      entered.push(task.cells.map((c) => (c.getAttribute('aria-pressed') === 'true' ? 1 : 0)).join(''));
    return entered;
  }

  /**
   * Keeps a task whose answer was shown as such: not right (a task already checked right stays
   * right), saved with RESULT.revealed; the set completes as with a check.
   */
  private recordReveal(x: Exercise): void {
    if (this.revealed.has(x.id) || this.results.get(x.id) === true) return;
    const before = this.results.size === this.total ? this.score() : undefined;
    this.revealed.add(x.id);
    this.results.set(x.id, false);
    this.answers.set(x.id, [RESULT.revealed, ...this.entered(x.id)]);
    this.save();
    this.complete(before);
    this.emitProgress();
  }

  /** Reports a check: its "answered" record, and a "completed" one once every task is checked (again when the score changes). */
  private record(x: Exercise, correct: boolean, response: string): void {
    const before = this.results.size === this.total ? this.score() : undefined;
    this.results.set(x.id, correct);
    this.answers.set(x.id, [correct ? RESULT.right : RESULT.wrong, ...this.entered(x.id)]);
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
    this.complete(before);
    this.emitProgress();
  }

  /** The "completed" record once every task is checked or shown, again when the score changes (`before`: the score then, if complete). */
  private complete(before: number | undefined): void {
    const activity = activityId(this, this.settings['activity-id']);
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
  }

  private score(): number {
    return [...this.results.values()].filter(Boolean).length;
  }

  private build(x: Exercise, index: number): HTMLElement {
    const result = el('p', { class: 'result', 'aria-live': 'polite' });
    // How an ambiguous entry was read (Spanish "9.408": 9408, not 9,408), until the next check.
    const reading = el('p', { class: 'number-reading', 'aria-live': 'polite' });
    // `text`: what the check found when right, a hint when not (never the answer).
    const report = (correct: boolean, text: string, response: string) => {
      result.dataset.result = correct ? 'right' : 'wrong';
      if (this.revealed.has(x.id)) {
        // Shown before: said, not recorded.
        result.textContent = this.text('afterReveal', { result: correct ? 'right' : 'wrong', detail: text });
        return;
      }
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
    const body = this.inputsFor(
      x,
      check,
      report,
      refuse,
      (text) => reading.append(reading.textContent ? ` ${text}` : text),
      (say) => this.shows.set(x.id, say),
    );
    const show = el('button', { type: 'button', class: 'attn-show-answer' }, this.text('showAnswer'));
    show.addEventListener('click', async () => {
      reading.textContent = '';
      const say = this.shows.get(x.id);
      if (!say) return;
      const answer = await say();
      // Asked after a right check: the answer alone, and the task stays right.
      const counted = this.results.get(x.id) === true;
      result.dataset.result = counted ? 'right' : 'revealed';
      result.textContent = counted ? answer : this.text('answerShown', { answer });
      this.recordReveal(x);
    });
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
      el('div', { class: 'attn-controls' }, check, show),
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
    answer: (say: () => string | Promise<string>) => void,
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
        /** The chosen width and the core's measurement there. */
        const measure = () => {
          const dk = Number(select.value);
          const sweep = sweepOf(this.core, { dks: [dk], draws: num(p, 'draws'), tokens: num(p, 'tokens'), seed: 0 });
          return { dk, measured: sweep.rows[0].unscaled.maxWeight.mean };
        };
        const said = (dk: number, measured: number) =>
          this.text('measuredMaxWeight', { value: this.formatNumber(measured, 4), dk: this.formatNumber(dk) });
        check.addEventListener('click', () => {
          const g = parse(guess.input, this.text('fieldGuess'), 0, 1);
          if (g === undefined) return;
          const { dk, measured } = measure();
          const ok = Math.abs(g - measured) <= num(p, 'tolerance');
          report(
            ok,
            ok
              ? said(dk, measured)
              : this.text('hintMaxWeight', { side: g > measured ? 'high' : 'low', dk: this.formatNumber(dk) }),
            `d_k ${dk}: ${g}`,
          );
        });
        answer(() => {
          const { dk, measured } = measure();
          return said(dk, measured);
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
        answer(() => {
          const total = n * n;
          const count = num(p, 'fraction') * total;
          const data = causalMaskWith(n, Math.round(count));
          if (!data || Math.abs(count - Math.round(count)) > 1e-9)
            return this.text('maskImpossible', { n, min: n, max: (n * (n + 1)) / 2, total });
          cells.forEach((cell, i) => cell.setAttribute('aria-pressed', String(data[i] === 1)));
          return this.text('maskShown', { count: Math.round(count), total });
        });
        return grid;
      }
      case 'aim-query': {
        const qx = numberInput('x'),
          qy = numberInput('y');
        const k = num(p, 'key') - 1;
        const keys = { rows: 5, cols: 2, data: Float32Array.from(SOFT_LOOKUP_KEYS.flat()) };
        const weightAt = (x0: number, y0: number) =>
          this.core.attention({ rows: 1, cols: 2, data: Float32Array.of(x0, y0) }, keys, keys).weights.data[k];
        check.addEventListener('click', () => {
          // The sketch's own range: an answer found by dragging there is accepted here.
          const x0 = parse(qx.input, 'x', -QUERY_LIMIT, QUERY_LIMIT),
            y0 = parse(qy.input, 'y', -QUERY_LIMIT, QUERY_LIMIT);
          if (x0 === undefined || y0 === undefined) return;
          const w = weightAt(x0, y0);
          const ok = w >= num(p, 'target');
          const weight = { key: k + 1, weight: this.formatNumber(w, 4) };
          report(ok, this.text(ok ? 'aimResult' : 'aimHint', weight), `${x0}, ${y0}`);
        });
        answer(() => {
          // The query on a half-unit grid over the sketch's range that gives key k the most weight.
          let best = { x: 0, y: 0, w: -1 };
          for (let x0 = -QUERY_LIMIT; x0 <= QUERY_LIMIT; x0 += 0.5)
            for (let y0 = -QUERY_LIMIT; y0 <= QUERY_LIMIT; y0 += 0.5) {
              const w = weightAt(x0, y0);
              if (w > best.w) best = { x: x0, y: y0, w };
            }
          return this.text('aimShown', {
            x: this.formatNumber(best.x),
            y: this.formatNumber(best.y),
            key: k + 1,
            weight: this.formatNumber(best.w, 4),
            enough: String(best.w >= num(p, 'target')),
          });
        });
        return el('div', { class: 'attn-controls' }, qx.label, qy.label);
      }
      case 'count-parameters': {
        const answerField = numberInput(this.text('parameters'));
        const count = () => parameterCount(this.core, num(p, 'dModel'), num(p, 'numHeads'));
        check.addEventListener('click', () => {
          const g = parse(answerField.input, this.text('fieldCount'), 0, 1e9, true);
          if (g === undefined) return;
          const right = count();
          report(
            g === right,
            g === right ? this.text('countRight', { count: right }) : this.text('countHint'),
            String(g),
          );
        });
        answer(() => this.text('countShown', { count: count(), dModel: num(p, 'dModel') }));
        return el('div', { class: 'attn-controls' }, answerField.label);
      }
      case 'entropy-threshold': {
        const select = el(
          'select',
          {},
          ...ENTROPY_DKS.map((d) => el('option', { value: String(d) }, this.formatNumber(d))),
        );
        const measure = () => {
          const sweep = sweepOf(this.core, {
            dks: ENTROPY_DKS,
            draws: num(p, 'draws'),
            tokens: num(p, 'tokens'),
            seed: 0,
          });
          const at = sweep.rows.findIndex((r) => r.unscaled.entropy.mean < num(p, 'threshold'));
          return { rows: sweep.rows, at };
        };
        check.addEventListener('click', () => {
          const { rows, at } = measure();
          const chosen = Number(select.value);
          const row = rows.find((r) => r.dk === chosen)!;
          const ok = at >= 0 && rows[at].dk === chosen;
          const measured = { dk: this.formatNumber(chosen), entropy: this.formatNumber(row.unscaled.entropy.mean, 3) };
          report(
            ok,
            ok
              ? this.text('measuredEntropy', measured)
              : this.text('entropyHint', {
                  ...measured,
                  threshold: this.formatNumber(num(p, 'threshold')),
                  side: row.unscaled.entropy.mean < num(p, 'threshold') ? 'below' : 'above',
                }),
            String(chosen),
          );
        });
        answer(() => {
          const { rows, at } = measure();
          const threshold = this.formatNumber(num(p, 'threshold'));
          if (at < 0) return this.text('entropyNone', { threshold });
          const before = rows[at - 1];
          return this.text('entropyShown', {
            dk: this.formatNumber(rows[at].dk),
            entropy: this.formatNumber(rows[at].unscaled.entropy.mean, 3),
            threshold,
            previous: before ? this.formatNumber(before.dk) : 'none',
            previousEntropy: before ? this.formatNumber(before.unscaled.entropy.mean, 3) : '',
          });
        });
        return el('div', { class: 'attn-controls' }, el('label', {}, 'd_k', select));
      }
      case 'one-block-heads': {
        // Checked against the 1-block runs the native core recorded at build time.
        const guess = numberInput(this.text('yourGuess'));
        const settings = { heads: num(p, 'heads'), epochs: num(p, 'epochs') };
        /** The recorded run with the task's settings and what it reached, or undefined (none in this build). */
        const recorded = async () => {
          // The recorded runs load only when a reader checks this kind of task.
          const runs = (await import('../../common/recorded-runs')).oneBlockRuns();
          const run = runs.find(
            (r) =>
              r.config.heads === settings.heads &&
              r.config.epochs === settings.epochs &&
              r.config.seed === num(p, 'seed'),
          );
          if (!run) return undefined;
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
          const said = others.length
            ? this.text('runReachedOthers', { ...reached, seed: run.config.seed, others: others.join('; ') })
            : this.text('runReached', reached);
          return { best: run.best, said };
        };
        check.addEventListener('click', async () => {
          const g = parse(guess.input, this.text('fieldGuess'), 0, 1);
          if (g === undefined) return;
          const run = await recorded();
          if (!run) return refuse(this.text('noRecordedRun', settings));
          const ok = Math.abs(g - run.best) <= num(p, 'tolerance');
          report(
            ok,
            ok ? run.said : this.text('runHint', { ...settings, tolerance: this.formatNumber(num(p, 'tolerance')) }),
            String(g),
          );
        });
        answer(async () => (await recorded())?.said ?? this.text('noRecordedRun', settings));
        return el('div', { class: 'attn-controls' }, guess.label);
      }
      case 'one-block-climb': {
        // Checked against the validation curve of the 1-block run the native core recorded.
        const epochs = num(p, 'epochs');
        const field = numberInput(this.text('epoch'), { inputmode: 'numeric' });
        const settings = { heads: num(p, 'heads'), epochs };
        const reach = this.formatNumber(num(p, 'reach'));
        const recorded = () => firstReach(settings.heads, epochs, num(p, 'seed'), num(p, 'reach'));
        const said = (at: { epoch: number; accuracy: number }) =>
          at.epoch
            ? this.text('climbReached', { reach, epoch: at.epoch, accuracy: this.formatNumber(at.accuracy, 3) })
            : this.text('climbNever', { reach, epochs, best: this.formatNumber(at.accuracy, 3) });
        check.addEventListener('click', async () => {
          const g = parse(field.input, this.text('fieldEpoch'), 1, epochs, true);
          if (g === undefined) return;
          const at = await recorded();
          if (!at) return refuse(this.text('noRecordedRun', settings));
          if (!at.epoch) return refuse(said(at));
          const ok = Math.abs(g - at.epoch) <= num(p, 'tolerance');
          report(
            ok,
            ok ? said(at) : this.text('climbHint', { ...settings, reach, side: g < at.epoch ? 'early' : 'late' }),
            String(g),
          );
        });
        answer(async () => {
          const at = await recorded();
          return at ? said(at) : this.text('noRecordedRun', settings);
        });
        return el('div', { class: 'attn-controls' }, field.label);
      }
    }
    throw new Error(`unknown exercise kind ${x.kind}`);
  }
}

define(Exercises);
