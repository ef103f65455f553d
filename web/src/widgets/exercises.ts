// <attn-exercises>: "Try it yourself" tasks the reader solves on the page, each checked by the
// core. The texts come from lesson/exercises.json (or a child <script type="application/json">
// with the same shape); each exercise's `kind` names the check below. Texts are inserted as
// text only. Emits attn-exercise-checked {id, correct}.
import lessonExercises from '../lesson/exercises.json';
import type { Core, MaskMat } from '../core';
import { oneBlockRuns } from '../recorded-runs';
import { renderRich } from '../rich-text';
import { sweepOf } from '../sweep-view';
import { AttnElement, define, el } from './base';

type Params = Record<string, number | number[]>;
interface Exercise { id: string; kind: string; title: string; prompt: string; params: Params }

const SOFT_LOOKUP_KEYS = [[2, 0.4], [0.9, 2], [-1.8, 1.1], [-1.2, -1.9], [1.3, -1.7]];
const KINDS = ['predict-max-weight', 'build-mask', 'aim-query', 'count-parameters', 'entropy-threshold', 'one-block-heads'];

function validate(data: unknown): Exercise[] {
  const list = (data as { exercises?: unknown })?.exercises;
  if (!Array.isArray(list) || list.length < 1 || list.length > 20) throw new Error('exercise data: needs an "exercises" list of 1 to 20');
  list.forEach((x, i) => {
    if (typeof x?.id !== 'string' || typeof x.title !== 'string' || typeof x.prompt !== 'string' || typeof x.params !== 'object')
      throw new Error(`exercise data: exercise ${i + 1} needs "id", "title", "prompt" (text) and "params"`);
    if (!KINDS.includes(x.kind)) throw new Error(`exercise data: exercise ${i + 1} has unknown kind "${x.kind}" (known: ${KINDS.join(', ')})`);
  });
  return list as Exercise[];
}

const fillParams = (text: string, params: Params) => text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
const num = (p: Params, name: string) => p[name] as number;

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

export class Exercises extends AttnElement {
  private idPrefix = 'ex';

  protected setup(): void {
    this.idPrefix = ++lists === 1 ? 'ex' : `ex${lists}`;
    const inline = this.querySelector('script[type="application/json"]');
    const exercises = validate(inline ? JSON.parse(inline.textContent ?? '') : lessonExercises);
    this.replaceChildren(...exercises.map((x, i) => this.build(x, i)));
  }

  private build(x: Exercise, index: number): HTMLElement {
    const result = el('p', { class: 'result', 'aria-live': 'polite' });
    const report = (correct: boolean, text: string) => {
      result.dataset.result = correct ? 'right' : 'wrong';
      result.textContent = (correct ? 'Correct. ' : 'Not yet. ') + text;
      this.emit('attn-exercise-checked', { id: x.id, correct });
    };
    const refuse = (text: string) => {
      result.dataset.result = 'wrong';
      result.textContent = text;
    };
    const check = el('button', { type: 'button' }, 'Check');
    const body = this.inputsFor(x, check, report, refuse);
    const headingId = `${this.idPrefix}-${x.id}`;
    return el('section', { class: 'exercise', 'data-exercise': x.id, 'aria-labelledby': headingId },
      el('h3', { id: headingId }, `${index + 1}. ${x.title}`),
      el('p', {}, renderRich(fillParams(x.prompt, x.params))),
      body, el('div', { class: 'attn-controls' }, check), result);
  }

  private inputsFor(x: Exercise, check: HTMLButtonElement, report: (ok: boolean, t: string) => void, refuse: (t: string) => void): HTMLElement {
    const p = x.params;
    const numberInput = (label: string, attrs: Record<string, string> = {}) => {
      const input = el('input', { type: 'text', inputmode: 'decimal', size: '8', ...attrs });
      return { input, label: el('label', {}, label, input) };
    };
    const parse = (input: HTMLInputElement, name: string, min: number, max: number, integer = false): number | undefined => {
      const v = Number(input.value.trim().replace('−', '-'));
      if (input.value.trim() === '' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
        refuse(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${input.value}".`);
        return undefined;
      }
      return v;
    };
    switch (x.kind) {
      case 'predict-max-weight': {
        const dks = p.dks as number[];
        const select = el('select', {}, ...dks.map((d) => el('option', { value: String(d) }, `d_k = ${d}`)));
        const guess = numberInput('your guess');
        check.addEventListener('click', () => {
          const g = parse(guess.input, 'Your guess', 0, 1);
          if (g === undefined) return;
          const dk = Number(select.value);
          const sweep = sweepOf(this.core, { dks: [dk], draws: num(p, 'draws'), tokens: num(p, 'tokens'), seed: 0 });
          const measured = sweep.rows[0].unscaled.maxWeight.mean;
          report(Math.abs(g - measured) <= num(p, 'tolerance'), `The core measured ${measured.toFixed(4)} at d_k = ${dk}.`);
        });
        return el('div', { class: 'attn-controls' }, el('label', {}, 'key width', select), guess.label);
      }
      case 'build-mask': {
        const n = num(p, 'size');
        const cells: HTMLButtonElement[] = [];
        const grid = el('div', {
          class: 'mask-builder grid-6', role: 'group',
          'aria-label': `${n} by ${n} mask: arrow keys move between cells, Space or Enter switches one`,
        });
        for (let i = 0; i < n * n; i++) {
          // One Tab stop for the whole grid (roving tabindex); arrow keys move inside it.
          const b = el('button', { type: 'button', 'aria-pressed': 'false', tabindex: i === 0 ? '0' : '-1', 'aria-label': `query ${Math.floor(i / n) + 1}, key ${(i % n) + 1}` });
          b.addEventListener('click', () => b.setAttribute('aria-pressed', String(b.getAttribute('aria-pressed') !== 'true')));
          cells.push(b);
          grid.append(b);
        }
        grid.addEventListener('keydown', (event) => {
          const at = cells.indexOf(event.target as HTMLButtonElement);
          const [r, c] = [Math.floor(at / n), at % n];
          const to = ({ ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1], ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], Home: [r, 0], End: [r, n - 1] } as Record<string, number[]>)[event.key];
          if (at < 0 || !to) return;
          event.preventDefault();
          const [tr, tc] = [Math.min(n - 1, Math.max(0, to[0])), Math.min(n - 1, Math.max(0, to[1]))];
          cells[at].tabIndex = -1;
          cells[tr * n + tc].tabIndex = 0;
          cells[tr * n + tc].focus();
        });
        check.addEventListener('click', () => {
          const mask: MaskMat = { rows: n, cols: n, data: Uint8Array.from(cells.map((c) => (c.getAttribute('aria-pressed') === 'true' ? 1 : 0))) };
          if (!mask.data.some((v) => v)) return refuse('Switch on at least one cell.');
          const fraction = this.core.allowedFraction(mask);
          const causal = this.core.combineMasks(mask, this.core.causalMask(n));
          const peeks = mask.data.reduce((count, v, i) => count + (v && !causal.data[i] ? 1 : 0), 0);
          const ok = Math.abs(fraction - num(p, 'fraction')) < 1e-12 && peeks === 0;
          report(ok, `Your mask allows ${fraction.toFixed(4)} of the pairs` + (peeks ? ` and lets ${peeks} pair(s) see a later key.` : ' and no query sees a later key.'));
        });
        return grid;
      }
      case 'aim-query': {
        const qx = numberInput('x'), qy = numberInput('y');
        check.addEventListener('click', () => {
          const x0 = parse(qx.input, 'x', -3, 3), y0 = parse(qy.input, 'y', -3, 3);
          if (x0 === undefined || y0 === undefined) return;
          const k = num(p, 'key') - 1;
          const result = this.core.attention(
            { rows: 1, cols: 2, data: Float32Array.of(x0, y0) },
            { rows: 5, cols: 2, data: Float32Array.from(SOFT_LOOKUP_KEYS.flat()) },
            { rows: 5, cols: 2, data: Float32Array.from(SOFT_LOOKUP_KEYS.flat()) });
          const w = result.weights.data[k];
          report(w >= num(p, 'target'), `Key ${k + 1} gets ${w.toFixed(4)} of the weight.`);
        });
        return el('div', { class: 'attn-controls' }, qx.label, qy.label);
      }
      case 'count-parameters': {
        const answer = numberInput('parameters');
        check.addEventListener('click', () => {
          const g = parse(answer.input, 'The count', 0, 1e9, true);
          if (g === undefined) return;
          const count = parameterCount(this.core, num(p, 'dModel'), num(p, 'numHeads'));
          report(g === count, g === count ? `${count.toLocaleString('en-US')}: four weight matrices and four bias vectors.` : 'Count the four weight matrices and the four bias vectors.');
        });
        return el('div', { class: 'attn-controls' }, answer.label);
      }
      case 'entropy-threshold': {
        const dks = [2, 4, 8, 16, 32, 64, 128, 256, 512];
        const select = el('select', {}, ...dks.map((d) => el('option', { value: String(d) }, String(d))));
        check.addEventListener('click', () => {
          const sweep = sweepOf(this.core, { dks, draws: num(p, 'draws'), tokens: num(p, 'tokens'), seed: 0 });
          const first = sweep.rows.find((r) => r.unscaled.entropy.mean < num(p, 'threshold'));
          const chosen = Number(select.value);
          const row = sweep.rows.find((r) => r.dk === chosen)!;
          report(first?.dk === chosen, `At d_k = ${chosen} the core measures ${row.unscaled.entropy.mean.toFixed(3)} nats.`);
        });
        return el('div', { class: 'attn-controls' }, el('label', {}, 'd_k', select));
      }
      case 'one-block-heads': {
        // Checked against the 1-block runs the native core recorded at build time.
        const guess = numberInput('your guess');
        check.addEventListener('click', () => {
          const g = parse(guess.input, 'Your guess', 0, 1);
          if (g === undefined) return;
          const runs = oneBlockRuns();
          const run = runs.find((r) => r.config.heads === num(p, 'heads') && r.config.epochs === num(p, 'epochs') && r.config.seed === num(p, 'seed'));
          if (!run) return refuse(`This build has no recorded 1-block run with ${num(p, 'heads')} heads and ${num(p, 'epochs')} epochs; train it in the trainer to see.`);
          const others = runs.filter((r) => r !== run && r.config.seed === run.config.seed && r.config.heads !== run.config.heads)
            .sort((a, b) => a.config.heads - b.config.heads)
            .map((r) => `${r.config.heads} head${r.config.heads > 1 ? 's' : ''}, ${r.config.epochs} epochs: ${r.best.toFixed(3)}`);
          report(Math.abs(g - run.best) <= num(p, 'tolerance'),
            `The recorded run reached ${run.best.toFixed(3)} (best at epoch ${run.bestEpoch}; most frequent symbol ${run.baseline.toFixed(3)}).` +
            (others.length ? ` Other recorded 1-block runs on seed ${run.config.seed}: ${others.join('; ')}.` : ''));
        });
        return el('div', { class: 'attn-controls' }, guess.label);
      }
    }
    throw new Error(`unknown exercise kind ${x.kind}`);
  }
}

define('attn-exercises', Exercises);
