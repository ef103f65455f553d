// <attn-cue-probe>: the reader asks the trained cue-task models about a sequence of their own.
// They pick a symbol at each position and move the cue (a slider: the symbol it lands on swaps
// places with it), and the 1-block and the 2-block model answer side by side: the prediction,
// every class's probability, and the attention of every block and head as a heat map over the
// tokens, whose cells are a table with the weights for screen readers. The forward passes run in
// the core in the training Worker: the trainer's when the page has one (it holds the latest live
// run), else one of the probe's own; the recorded weights load there on the first probe. The
// main thread keeps no model.
//
// The intervention fieldset changes both models the same way (where the block exists: the
// 1-block model has block 1 only) with the core's interventions (intervene.hpp), computed in the
// Worker too: knock out a head, replace its attention pattern by an ideal one, or patch a head's
// or the block's output at chosen positions from the run of the reader's sequence into the run of
// a second sequence (by default the core's corruption: the answer symbol moved). A table gives
// each model's answer and validation accuracy with and without it (a patch: the restored
// fraction), downloadable as CSV; an aria-live line says what changed. Errors the core names (a
// head the models do not have) are shown in the table's place; the widget keeps working.
// Attributes and events: CUE_PROBE in contracts.ts.
import type { CueIntervention, CueProbe as Probe, InterventionConfig } from '../../core';
import type { InterventionLists, ProbeTarget, TrainerReply } from '../../worker/training-protocol';
import type { ProbeIntervention, ProbeInterventionResult } from '../element/public-types';
import { downloadCsv } from '../shared/download';
import trainingWorkerUrl from '../../worker/training-worker.ts?worker&url';
import { startWorker } from '../../host/worker';
import { AuthorError } from '../element/contract';
import { CUE_PROBE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { ProbeRequests, type InterventionAnswer, type ProbeAnswer, type ProbeAnswerer } from '../shared/probe-requests';

const BLOCKS = [1, 2] as const;
type Action = ProbeIntervention['action'];
/** The choices the fieldset offers, in words (the core's choices; "given" needs a pattern the probe does not take). */
const ACTIONS: Record<Action, string> = {
  none: 'none',
  'knock-out': 'knock out a head',
  pattern: "replace a head's pattern",
  patch: 'patch an output',
};
const ABLATIONS: Record<string, string> = { zero: 'zero', mean: 'its mean over the validation set' };
const PATTERNS: Record<string, string> = {
  previous: 'previous token',
  next: 'next token',
  self: 'itself',
  uniform: 'uniform',
  'first-cue': 'the first CUE',
};

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
  private fieldset!: HTMLFieldSetElement;
  private results!: HTMLElement;
  private said!: HTMLElement;
  /** the latest results, for the CSV */
  private shownResults: ProbeInterventionResult[] = [];

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
    this.fieldset = this.interventionFieldset();
    this.results = el('div', { class: 'probe-results' });
    this.said = el('p', { class: 'probe-said visually-hidden', 'aria-live': 'polite' }); // the table's caption shows the same
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
        this.fieldset,
        this.said,
        this.results,
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
    this.dataset.busy = ''; // until the latest question is answered (for tests)
    const tokens = [...this.body, this.symbols];
    const source = this.settings.source;
    const answerer = this.answerer();
    const intervention = this.chosenIntervention();
    const changes = this.intervene(source, intervention);
    let answers: ProbeAnswer[];
    try {
      answers = await Promise.all(
        BLOCKS.map((blocks) => answerer.probe({ source, blocks } satisfies ProbeTarget, tokens)),
      );
    } catch (error) {
      if (asked !== this.asked) return;
      delete this.dataset.busy;
      const message = error instanceof Error ? error.message : String(error);
      this.answers.replaceChildren();
      this.status.textContent =
        source === 'live' && /no finished live run/.test(message)
          ? 'No run of yours yet: press Train both in the trainer on this page and let it finish, then ask again.'
          : `The models could not answer: ${message}`;
      return;
    }
    const results = await changes;
    if (asked !== this.asked || !this.isConnected) return;
    delete this.dataset.busy;
    this.showResults(intervention, results);
    this.dataset.answerMs = (performance.now() - started).toFixed(1); // both replies in, before drawing
    this.answers.replaceChildren(...answers.map((answer, i) => this.modelView(BLOCKS[i], answer.probe)));
    const latencyMs = performance.now() - started;
    const expected = answers[0].probe.expected;
    this.status.textContent = `${source === 'recorded' ? 'The recorded run' : 'Your run'}: the right answer is ${this.label(expected)}, the symbol after the CUE at position ${answers[0].probe.cuePosition}. ${answers.map((a, i) => `${BLOCKS[i]} block${BLOCKS[i] > 1 ? 's' : ''}: ${this.label(a.probe.prediction)}`).join(', ')}.`;
    // The times are for tests and benchmarks, not shown: they differ at every answer.
    this.dataset.forwardMs = answers.map((a) => a.forwardMs.toFixed(2)).join(' ');
    this.dataset.latencyMs = latencyMs.toFixed(1);
    this.dataset.answeredBy = answerer === this.own ? 'own-worker' : 'trainer';
    if (byReader)
      this.emit('attn-change', {
        tokens,
        predictions: answers.map((a) => a.probe.prediction),
        latencyMs,
        intervention,
        results,
      });
  }

  /** The fieldset: what to change, which block and head, the variant; a patch's positions and second sequence. */
  private interventionFieldset(): HTMLFieldSetElement {
    const s = this.settings;
    const select = (label: string, options: Record<string, string>, value: string, apply: (v: string) => void) => {
      const control = el(
        'select',
        { 'aria-label': label },
        ...Object.entries(options).map(([v, text]) =>
          el('option', { value: v, ...(v === value ? { selected: '' } : {}) }, text),
        ),
      );
      if (!(value in options)) control.append(el('option', { value, selected: '' }, value)); // an attribute's "given"
      control.addEventListener('change', () => apply(control.value));
      return control;
    };
    const action = select('what to change', ACTIONS, s.intervention, (v) =>
      this.setIntervention({ intervention: v as Action }),
    );
    const block = select('block', { 1: '1', 2: '2' }, String(s.block), (v) =>
      this.setIntervention({ block: Number(v) }),
    );
    const head = el('input', {
      type: 'number',
      min: '0',
      max: '16',
      step: '1',
      value: String(s.head),
      'aria-label': 'head',
    });
    head.addEventListener('change', () => {
      if (/^\d+$/.test(head.value)) this.setIntervention({ head: Number(head.value) });
    });
    const ablation = select('knock out to', ABLATIONS, s.ablation, (v) =>
      this.setIntervention({ ablation: v as InterventionConfig['ablation'] }),
    );
    const pattern = select('pattern', PATTERNS, s.pattern, (v) =>
      this.setIntervention({ pattern: v as InterventionConfig['pattern'] }),
    );
    const chosen = this.positions();
    const boxes = Array.from({ length: this.length }, (_, p) => {
      const box = el('input', {
        type: 'checkbox',
        value: String(p),
        ...(chosen.length === 0 || chosen.includes(p) ? { checked: '' } : {}),
      });
      box.addEventListener('change', () => {
        const on = [...this.fieldset.querySelectorAll<HTMLInputElement>('.probe-positions input:checked')].map((b) =>
          Number(b.value),
        );
        if (on.length === 0) {
          box.checked = true; // at least one position: none would read as "every position"
          return;
        }
        this.setIntervention({ 'patch-positions': on.length === this.length ? '' : on.join(',') });
      });
      return el('label', {}, box, p === this.length - 1 ? `${p} (query)` : String(p));
    });
    const into = el('input', {
      type: 'text',
      value: s['patch-into'],
      placeholder: 'blank: your sequence, answer moved',
      'aria-label': 'sequence patched into',
      spellcheck: 'false',
    });
    into.addEventListener('change', () => this.setIntervention({ 'patch-into': into.value.trim() }));
    const only = (what: Action, ...children: (Node | string)[]) =>
      el('div', { class: 'probe-variant', 'data-for': what }, ...children);
    const fieldset = el(
      'fieldset',
      { class: 'probe-intervention' },
      el('legend', {}, 'Intervention'),
      el(
        'div',
        { class: 'attn-controls' },
        el('label', {}, 'what ', action),
        el('label', {}, 'block ', block),
        el('label', {}, 'head ', head),
      ),
      only('knock-out', el('label', {}, "the head's output becomes ", ablation)),
      only('pattern', el('label', {}, 'every position attends to ', pattern)),
      only(
        'patch',
        el(
          'p',
          { class: 'probe-help' },
          "Copies the output of the head (head 0: the whole block) at the checked positions from your sequence's run into the run of a second sequence.",
        ),
        el('fieldset', { class: 'probe-positions' }, el('legend', {}, 'positions copied'), ...boxes),
        el('label', { class: 'probe-into' }, 'second sequence ', into),
      ),
    ) as HTMLFieldSetElement;
    this.showVariant(fieldset, s.intervention);
    return fieldset;
  }

  private showVariant(fieldset: HTMLElement, action: Action): void {
    for (const part of fieldset.querySelectorAll<HTMLElement>('.probe-variant'))
      part.hidden = part.dataset.for !== action;
  }

  private setIntervention(values: Parameters<CueProbe['remember']>[0]): void {
    this.remember(values);
    this.showVariant(this.fieldset, this.settings.intervention);
    void this.ask(true);
  }

  /** The patch's positions as numbers (empty: every position). */
  private positions(): number[] {
    const text = this.settings['patch-positions'].trim();
    return text === '' ? [] : text.split(',').map((p) => Number(p.trim()));
  }

  /** The intervention the settings describe, for the sequence `tokens`. */
  private chosenIntervention(): ProbeIntervention {
    const s = this.settings;
    const into = s['patch-into'].trim();
    return {
      action: s.intervention,
      ablation: s.ablation,
      pattern: s.pattern,
      block: s.block,
      head: s.head,
      positions: this.positions(),
      patchInto:
        into === ''
          ? []
          : [...into.split(',').map((t) => (t.trim() === 'CUE' ? this.symbols : Number(t.trim()))), this.symbols],
    };
  }

  /** Applies the intervention to both models (where the block exists); each model's result, error or "not applicable". */
  private async intervene(source: 'recorded' | 'live', iv: ProbeIntervention): Promise<ProbeInterventionResult[]> {
    if (iv.action === 'none') return [];
    const tokens = [...this.body, this.symbols];
    const empty = {
      accuracy: NaN,
      loss: NaN,
      cleanAccuracy: NaN,
      cleanLoss: NaN,
      restoredFraction: NaN,
      sequenceRestoredFraction: NaN,
      prediction: -1,
      unchangedPrediction: -1,
      probabilities: [],
      unchangedProbabilities: [],
      ms: 0,
    };
    const config: Partial<InterventionConfig> = { action: iv.action, block: iv.block, head: iv.head };
    if (iv.action === 'knock-out') config.ablation = iv.ablation as InterventionConfig['ablation'];
    if (iv.action === 'pattern') config.pattern = iv.pattern as InterventionConfig['pattern'];
    const inputs: InterventionLists = { tokens };
    if (iv.action === 'patch') {
      if (iv.positions.length) inputs.positions = iv.positions;
      if (iv.patchInto.length) inputs.corrupted = iv.patchInto;
    }
    const problem = this.interventionProblem(iv);
    const answerer = this.answerer();
    return Promise.all(
      BLOCKS.map(async (blocks): Promise<ProbeInterventionResult> => {
        if (problem) return { blocks, status: 'error', message: problem, ...empty };
        if (iv.block > blocks)
          return {
            blocks,
            status: 'not-applicable',
            message: `the ${blocks}-block model has no block ${iv.block}`,
            ...empty,
          };
        try {
          // The trainer on the page answers when it forwards interventions; else the probe's own Worker (recorded runs).
          const by = typeof answerer.intervene === 'function' ? answerer : source === 'recorded' ? this.own : undefined;
          if (!by?.intervene) throw new Error('the trainer on this page does not take interventions on your run');
          const answer: InterventionAnswer = await by.intervene({ source, blocks }, config, inputs);
          return { blocks, status: 'changed', message: '', ...this.numbers(answer.intervention), ms: answer.ms };
        } catch (error) {
          return { blocks, status: 'error', message: error instanceof Error ? error.message : String(error), ...empty };
        }
      }),
    );
  }

  /** What is wrong with a patch's lists before the core sees them (their lengths), or ''. */
  private interventionProblem(iv: ProbeIntervention): string {
    if (iv.action !== 'patch') return '';
    if (this.settings['patch-positions'].trim() !== '' && iv.positions.length === 0)
      return 'positions: check at least one';
    if (iv.positions.some((p) => p >= this.length))
      return `positions must be below ${this.length} (the sequence's length), got ${iv.positions.join(',')}`;
    if (iv.patchInto.length && iv.patchInto.length !== this.length)
      return `second sequence must have ${this.length - 1} tokens (the query's CUE is added), got ${iv.patchInto.length - 1}`;
    return '';
  }

  private numbers(c: CueIntervention) {
    return {
      accuracy: c.accuracy,
      loss: c.loss,
      cleanAccuracy: c.cleanAccuracy,
      cleanLoss: c.cleanLoss,
      restoredFraction: c.restoredFraction,
      sequenceRestoredFraction: c.sequenceRestoredFraction,
      prediction: c.prediction,
      unchangedPrediction: c.unchangedPrediction,
      probabilities: Array.from(c.probabilities),
      unchangedProbabilities: Array.from(c.unchangedProbabilities),
    };
  }

  /** The intervention in words: "knock out block 1, head 1 (output set to zero)". */
  private describe(iv: ProbeIntervention): string {
    const where =
      iv.action === 'patch' && iv.head === 0 ? `block ${iv.block}'s output` : `block ${iv.block}, head ${iv.head}`;
    switch (iv.action) {
      case 'knock-out':
        return `Knocked out ${where} (its output set to ${iv.ablation === 'mean' ? 'its mean' : 'zero'})`;
      case 'pattern':
        return `Replaced the pattern of ${where} by ${PATTERNS[iv.pattern] ?? iv.pattern}`;
      case 'patch':
        return `Patched ${where} at ${iv.positions.length ? `position${iv.positions.length > 1 ? 's' : ''} ${iv.positions.join(', ')}` : 'every position'} into ${iv.patchInto.length ? 'the second sequence' : 'your sequence with its answer moved'}`;
      default:
        return 'No intervention';
    }
  }

  /** The results table (a real table with a caption), its CSV button, and the announcement. */
  private showResults(iv: ProbeIntervention, results: ProbeInterventionResult[]): void {
    this.shownResults = results;
    this.dataset.intervention = iv.action;
    if (iv.action === 'none') {
      this.results.replaceChildren();
      this.said.textContent = this.said.textContent ? 'No intervention: both models as trained.' : '';
      return;
    }
    const patch = iv.action === 'patch';
    const f3 = (x: number) => x.toFixed(3);
    const cell = (value: number, text: string) => el('td', { 'data-value': String(value) }, text);
    const rows = results.map((r) => {
      const name = el('th', { scope: 'row' }, `${r.blocks} block${r.blocks > 1 ? 's' : ''}`);
      if (r.status !== 'changed')
        return el(
          'tr',
          { 'data-blocks': String(r.blocks), 'data-status': r.status },
          name,
          el(
            'td',
            { colspan: patch ? '6' : '4', class: r.status === 'error' ? 'probe-error' : 'probe-na' },
            r.status === 'error' ? `Error: ${r.message}` : `Does not apply: ${r.message}.`,
          ),
        );
      return el(
        'tr',
        { 'data-blocks': String(r.blocks), 'data-status': r.status },
        name,
        cell(r.unchangedPrediction, this.label(r.unchangedPrediction)),
        cell(r.prediction, this.label(r.prediction)),
        cell(r.cleanAccuracy, f3(r.cleanAccuracy)),
        cell(r.accuracy, f3(r.accuracy)),
        ...(patch
          ? [
              cell(r.restoredFraction, f3(r.restoredFraction)),
              cell(r.sequenceRestoredFraction, f3(r.sequenceRestoredFraction)),
            ]
          : []),
      );
    });
    const col = (text: string) => el('th', { scope: 'col' }, text);
    const csv = el('button', { type: 'button' }, 'Download the table (CSV)');
    csv.addEventListener('click', () => this.downloadResults(iv));
    this.results.replaceChildren(
      el(
        'div',
        { class: 'table-scroll' },
        el(
          'table',
          { class: 'ranked probe-effects' },
          el('caption', {}, `${this.describe(iv)}${patch ? ' (answers: to the sequence patched into)' : ''}`),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              col('model'),
              col(patch ? 'answer, unpatched' : 'answer, as trained'),
              col(patch ? 'answer, patched' : 'answer, changed'),
              col(patch ? 'validation accuracy, clean' : 'validation accuracy, as trained'),
              col(patch ? 'validation accuracy, patched' : 'validation accuracy, changed'),
              ...(patch ? [col('restored fraction, validation'), col('restored fraction, this sequence')] : []),
            ),
          ),
          el('tbody', {}, ...rows),
        ),
      ),
      el('div', { class: 'attn-controls' }, csv),
    );
    const says = results.map((r) =>
      r.status === 'changed'
        ? `the ${r.blocks}-block model now answers ${this.label(r.prediction)} (validation accuracy ${f3(r.accuracy)}${patch ? `, restored fraction ${f3(r.restoredFraction)}` : ''})`
        : r.status === 'error'
          ? `the ${r.blocks}-block model: error, ${r.message}`
          : `the ${r.blocks}-block model: does not apply`,
    );
    this.said.textContent = `${this.describe(iv)}: ${says.join('; ')}.`;
  }

  private downloadResults(iv: ProbeIntervention): void {
    const header = [
      'model blocks',
      'action',
      'variant',
      'block',
      'head',
      'status',
      'answer as trained',
      'answer changed',
      'validation accuracy as trained',
      'validation accuracy changed',
      'validation loss as trained',
      'validation loss changed',
      'restored fraction validation',
      'restored fraction sequence',
      'message',
    ];
    const variant =
      iv.action === 'knock-out'
        ? iv.ablation
        : iv.action === 'pattern'
          ? iv.pattern
          : iv.action === 'patch'
            ? `positions ${iv.positions.join(' ') || 'all'}`
            : '';
    downloadCsv(
      'probe-intervention.csv',
      header,
      this.shownResults.map((r) => [
        r.blocks,
        iv.action,
        variant,
        iv.block,
        iv.head,
        r.status,
        r.unchangedPrediction,
        r.prediction,
        r.cleanAccuracy,
        r.accuracy,
        r.cleanLoss,
        r.loss,
        iv.action === 'patch' ? r.restoredFraction : '',
        iv.action === 'patch' ? r.sequenceRestoredFraction : '',
        r.message,
      ]),
    );
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

define(CueProbe);
