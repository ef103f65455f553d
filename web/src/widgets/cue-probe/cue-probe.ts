// <attn-cue-probe>: the reader asks the trained cue-task models about a sequence of their own.
// They pick a symbol at each position and move the cue (a slider: the symbol it lands on swaps
// places with it), and the 1-block and the 2-block model answer side by side: the prediction,
// every class's probability, and the attention of every block and head as a heat map over the
// tokens, whose cells are a table with the weights for screen readers. The forward passes run in
// the core in the training Worker: the trainer's when the page has one (it holds the latest live
// run), else one of the probe's own; the recorded weights load there on the first probe. The
// main thread keeps no model.
// Attributes and events: CUE_PROBE in contracts.ts.
import type { CueProbe as Probe } from '../../core';
import type { ProbeTarget, TrainerReply } from '../../worker/training-protocol';
import trainingWorkerUrl from '../../worker/training-worker.ts?worker&url';
import { startWorker } from '../../host/worker';
import { AuthorError } from '../element/contract';
import { CUE_PROBE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { ProbeRequests, type ProbeAnswer, type ProbeAnswerer } from '../shared/probe-requests';

const BLOCKS = [1, 2] as const;

export class CueProbe extends AttnElement<typeof CUE_PROBE> {
  static readonly contract = CUE_PROBE;

  private worker?: Worker;
  private own = new ProbeRequests((request) => {
    this.worker ??= startWorker(new URL(trainingWorkerUrl, import.meta.url), {
      message: (data) => this.own.handle(data as TrainerReply),
      failed: (reason) => {
        this.worker = undefined;
        this.own.failAll(reason);
      },
    });
    this.worker?.postMessage(request);
    return this.worker !== undefined;
  });
  /** the task's sizes: tokens per sequence (query included) and symbols; CUE = symbols */
  private length = 0;
  private symbols = 0;
  /** the body (length - 1 tokens), with exactly one CUE */
  private body: number[] = [];
  private asked = 0;
  private editor!: HTMLElement;
  private slider!: HTMLInputElement;
  private answers!: HTMLElement;
  private status!: HTMLElement;

  protected async draw(): Promise<void> {
    const { length, symbols } = this.core.configs.cueTrain.defaults;
    this.length = length;
    this.symbols = symbols;
    this.body = this.settings.sequence === undefined ? this.defaultBody() : this.parseSequence(this.settings.sequence);
    const cue = this.body.indexOf(symbols);
    this.slider = el('input', {
      type: 'range',
      min: '0',
      max: String(length - 3),
      step: '1',
      value: String(cue),
      'aria-label': 'cue position',
    });
    this.slider.addEventListener('input', () => this.moveCue(Number(this.slider.value)));
    const source = el(
      'select',
      { 'aria-label': 'which trained models' },
      ...(['recorded', 'live'] as const).map((s) =>
        el(
          'option',
          { value: s, ...(s === this.settings.source ? { selected: '' } : {}) },
          s === 'recorded' ? 'the recorded run' : 'your run in the trainer',
        ),
      ),
    );
    source.addEventListener('change', () => {
      this.remember({ source: source.value as 'recorded' | 'live' });
      void this.ask(true);
    });
    this.editor = el('div', { class: 'probe-sequence', role: 'group', 'aria-label': 'the sequence' });
    this.status = el('p', { class: 'probe-status', 'aria-live': 'polite' });
    this.answers = el('div', { class: 'probe-models' });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel probe' },
        el(
          'div',
          { class: 'attn-controls' },
          el('label', {}, 'models', source),
          el('label', {}, 'move the cue', this.slider),
        ),
        this.editor,
        this.status,
        el(
          'p',
          { class: 'probe-legend' },
          'Heat maps, colour by weight: ',
          el('span', { class: 'probe-key' }, '0 ', el('span', { class: 'probe-scale', 'aria-hidden': 'true' }), ' 1'),
          " (the further a cell's colour from the background, the more weight). Each map is a table of the weights for screen readers.",
        ),
        this.answers,
      ),
    );
    this.renderEditor();
    await this.ask(); // ready once the models have answered (or said why not)
  }

  protected teardown(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.own.failAll('the probe was removed from the page');
  }

  /** Without a sequence attribute: the CUE at position 2 (earlier in a shorter task), symbol (3p + 1) mod symbols at each other position p (from the core's task sizes). */
  private defaultBody(): number[] {
    const cue = Math.min(2, this.length - 3);
    return Array.from({ length: this.length - 1 }, (_, p) => (p === cue ? this.symbols : (3 * p + 1) % this.symbols));
  }

  /** The sequence attribute as token ids, checked against the task (an AuthorError names what is wrong). */
  private parseSequence(text: string): number[] {
    const tokens = text
      .split(',')
      .map((t) => t.trim())
      .map((t) => (t === 'CUE' ? this.symbols : Number(t)));
    const fail = (why: string): never => {
      throw new AuthorError(`attribute sequence ${why}, got "${text.slice(0, 60)}"`);
    };
    if (tokens.length !== this.length - 1) fail(`must have ${this.length - 1} tokens (the query's CUE is added)`);
    if (tokens.some((t) => t > this.symbols)) fail(`must hold symbols 0 to ${this.symbols - 1} and CUE`);
    const cues = tokens.filter((t) => t === this.symbols).length;
    if (cues !== 1) fail('must hold exactly one CUE');
    if (tokens.indexOf(this.symbols) > this.length - 3) fail('must have a symbol after its CUE (the answer)');
    return tokens;
  }

  private sequenceText(): string {
    return this.body.map((t) => (t === this.symbols ? 'CUE' : String(t))).join(',');
  }

  private label = (token: number) =>
    token === this.symbols ? 'CUE' : token === this.symbols + 1 ? 'PAD' : String(token);

  /** One control per position: a symbol to pick, the cue (moved with the slider), the query. */
  private renderEditor(): void {
    const cells = this.body.map((token, p) => {
      if (token === this.symbols)
        return el(
          'div',
          { class: 'probe-token', 'data-cue': '' },
          el('span', { class: 'probe-pos' }, String(p)),
          el('span', { class: 'probe-fixed' }, 'CUE'),
        );
      const select = el(
        'select',
        { 'aria-label': `symbol at position ${p}` },
        ...Array.from({ length: this.symbols }, (_, s) =>
          el('option', { value: String(s), ...(s === token ? { selected: '' } : {}) }, String(s)),
        ),
      );
      select.addEventListener('change', () => {
        this.body[p] = Number(select.value);
        this.changed();
      });
      return el('label', { class: 'probe-token' }, el('span', { class: 'probe-pos' }, String(p)), select);
    });
    const query = el(
      'div',
      { class: 'probe-token', 'data-query': '' },
      el('span', { class: 'probe-pos' }, `${this.length - 1}`),
      el('span', { class: 'probe-fixed' }, 'CUE'),
    );
    this.editor.replaceChildren(...cells, query);
    const cue = this.body.indexOf(this.symbols);
    this.slider.value = String(cue);
    this.slider.setAttribute('aria-valuetext', `CUE at position ${cue}, answer ${this.label(this.body[cue + 1])}`);
  }

  /** The cue moves to `to`; the symbol there takes its old place. */
  private moveCue(to: number): void {
    const from = this.body.indexOf(this.symbols);
    if (from === to) return;
    [this.body[from], this.body[to]] = [this.body[to], this.body[from]];
    const focused = this.editor.contains(document.activeElement);
    this.renderEditor();
    if (focused) this.slider.focus();
    this.changed();
  }

  private changed(): void {
    this.remember({ sequence: this.sequenceText() });
    void this.ask(true);
  }

  /** Where probes go: the trainer on the page (started), which holds the latest live run, else our own Worker. */
  private answerer(): ProbeAnswerer {
    const trainer = document.querySelector('attn-cue-trainer[data-ready]') as (Element & Partial<ProbeAnswerer>) | null;
    return typeof trainer?.probe === 'function' ? (trainer as ProbeAnswerer) : this.own;
  }

  /** Asks both models about the current sequence (attn-change tells when `byReader`); an answer overtaken by a newer edit is dropped. */
  private async ask(byReader = false): Promise<void> {
    const asked = ++this.asked;
    const started = performance.now();
    const tokens = [...this.body, this.symbols];
    const source = this.settings.source;
    const answerer = this.answerer();
    let answers: ProbeAnswer[];
    try {
      answers = await Promise.all(
        BLOCKS.map((blocks) => answerer.probe({ source, blocks } satisfies ProbeTarget, tokens)),
      );
    } catch (error) {
      if (asked !== this.asked) return;
      const message = error instanceof Error ? error.message : String(error);
      this.answers.replaceChildren();
      this.status.textContent =
        source === 'live' && /no finished live run/.test(message)
          ? 'No run of yours yet: press Train both in the trainer on this page and let it finish, then ask again.'
          : `The models could not answer: ${message}`;
      return;
    }
    if (asked !== this.asked || !this.isConnected) return;
    this.dataset.answerMs = (performance.now() - started).toFixed(1); // both replies in, before drawing
    this.answers.replaceChildren(...answers.map((answer, i) => this.modelView(BLOCKS[i], answer.probe)));
    const latencyMs = performance.now() - started;
    const expected = answers[0].probe.expected;
    this.status.textContent = `${source === 'recorded' ? 'The recorded run' : 'Your run'}: the right answer is ${this.label(expected)}, the symbol after the CUE at position ${answers[0].probe.cuePosition}. ${answers.map((a, i) => `${BLOCKS[i]} block${BLOCKS[i] > 1 ? 's' : ''}: ${this.label(a.probe.prediction)}`).join(', ')}.`;
    // The times are for tests and benchmarks, not shown: they differ at every answer.
    this.dataset.forwardMs = answers.map((a) => a.forwardMs.toFixed(2)).join(' ');
    this.dataset.latencyMs = latencyMs.toFixed(1);
    this.dataset.answeredBy = answerer === this.own ? 'own-worker' : 'trainer';
    if (byReader) this.emit('attn-change', { tokens, predictions: answers.map((a) => a.probe.prediction), latencyMs });
  }

  /** One model's answer: its prediction, every class's probability, and a heat map per block and head. */
  private modelView(blocks: number, probe: Probe): HTMLElement {
    const right = probe.prediction === probe.expected;
    const p = probe.probabilities;
    const classes = Array.from(p, (v, c) =>
      el(
        'tr',
        c === probe.prediction ? { 'data-predicted': '' } : {},
        el('th', { scope: 'row' }, this.label(c)),
        el('td', {}, v.toFixed(4)),
        el('td', { 'aria-hidden': 'true' }, this.bar(v)),
      ),
    );
    const maps = probe.attention.flatMap((heads, b) =>
      heads.map((weights, h) =>
        this.heatmap(probe, weights, `Block ${b + 1}${heads.length > 1 ? `, head ${h + 1}` : ''}`),
      ),
    );
    return el(
      'section',
      { class: 'probe-model', 'data-blocks': String(blocks), 'aria-label': `${blocks} block${blocks > 1 ? 's' : ''}` },
      el('h3', {}, `${blocks} block${blocks > 1 ? 's' : ''}`),
      el(
        'p',
        { class: 'probe-prediction', 'data-result': right ? 'right' : 'wrong' },
        'Predicts ',
        el('strong', { 'data-prediction': String(probe.prediction) }, this.label(probe.prediction)),
        ` with probability ${p[probe.prediction].toFixed(4)}: ${right ? 'right' : `wrong (the answer is ${this.label(probe.expected)})`}.`,
      ),
      el(
        'details',
        { class: 'probe-classes' },
        el(
          'summary',
          {},
          "Every class's probability",
          el('span', { class: 'visually-hidden' }, `, ${blocks} block${blocks > 1 ? 's' : ''}`),
        ),
        el(
          'table',
          { class: 'ranked' },
          el('caption', { class: 'visually-hidden' }, `${blocks} blocks: probability of each class`),
          el(
            'thead',
            {},
            el('tr', {}, el('th', { scope: 'col' }, 'class'), el('th', { scope: 'col' }, 'probability'), el('td', {})),
          ),
          el('tbody', {}, ...classes),
        ),
      ),
      ...maps,
    );
  }

  private bar(value: number): HTMLElement {
    const fill = el('span', { class: 'bar-fill' });
    fill.style.width = `${100 * value}%`; // CSSOM, allowed under a strict CSP
    return el('span', { class: 'bar-track' }, fill);
  }

  /**
   * A (T, T) attention matrix as a table: row i is where position i looks, the last row the
   * query's; each cell's colour mixes the heat colour into the background by its weight, and
   * holds the weight as text (hidden) for screen readers and as a tooltip.
   */
  private heatmap(probe: Probe, weights: ArrayLike<number>, title: string): HTMLElement {
    const t = probe.tokens.length;
    const labels = Array.from(probe.tokens, this.label);
    const head = el(
      'tr',
      {},
      el('td', {}),
      ...labels.map((l, j) => el('th', { scope: 'col', title: `position ${j}` }, l)),
    );
    const rows = labels.map((l, i) =>
      el(
        'tr',
        i === t - 1 ? { 'data-query': '' } : {},
        el('th', { scope: 'row' }, i === t - 1 ? `query ${l}` : `${i}: ${l}`),
        ...labels.map((_, j) => {
          const w = weights[i * t + j];
          const cell = el(
            'td',
            { title: `position ${i} onto position ${j}: ${w.toFixed(3)}`, 'data-weight': String(w) },
            el('span', { class: 'visually-hidden' }, w.toFixed(3)),
          );
          cell.style.setProperty('--w', String(w));
          return cell;
        }),
      ),
    );
    return el(
      'figure',
      { class: 'probe-map' },
      el(
        'table',
        { class: 'probe-heat', 'data-map': title },
        el('caption', {}, `${title}: where each position looks (rows: from, columns: onto)`),
        el('thead', {}, head),
        el('tbody', {}, ...rows),
      ),
    );
  }
}

define('attn-cue-probe', CueProbe);
