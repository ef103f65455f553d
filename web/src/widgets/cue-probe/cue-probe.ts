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
import type { ProbeIntervention, ProbeInterventionResult, XapiAgent } from '../element/public-types';
import { activityId, interactedStatement } from '../element/xapi';
import { downloadCsv } from '../shared/download';
import trainingWorkerUrl from '../../worker/training-worker.ts?worker&url';
import { startWorker } from '../../host/worker';
import { getCore } from '../../core/instance';
import { AuthorError } from '../element/contract';
import { CUE_PROBE } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import {
  failureText,
  ProbeFailure,
  ProbeRequests,
  type InterventionAnswer,
  type ProbeAnswer,
  type ProbeAnswerer,
} from '../shared/probe-requests';
import type { MessageParams } from '../../common/messages';
import probeMessages from 'attn-messages:cue-probe';
import probeRequestsMessages from 'attn-messages:probe-requests';
import { failureMessages } from '../../host/failure';

const BLOCKS = [1, 2] as const;
type Action = ProbeIntervention['action'];
/** The choices the fieldset offers, as message keys (the core's choices; "given" needs a pattern the probe does not take). */
const ACTIONS: Record<Action, string> = {
  none: 'actionNone',
  'knock-out': 'actionKnockOut',
  pattern: 'actionPattern',
  patch: 'actionPatch',
};
const ABLATIONS: Record<string, string> = { zero: 'ablationZero', mean: 'ablationMean' };
const PATTERNS: Record<string, string> = {
  previous: 'patternPrevious',
  next: 'patternNext',
  self: 'patternSelf',
  uniform: 'patternUniform',
  'first-cue': 'patternFirstCue',
};

export class CueProbe extends AttnElement<typeof CUE_PROBE> {
  static readonly contract = CUE_PROBE;
  static readonly messages = [probeMessages, probeRequestsMessages, failureMessages];

  /**
   * The learner, for the learning records: set by the host page (see CUE_PROBE.properties).
   * Declared, not a field: a value set before the element was defined stays.
   */
  declare actor?: XapiAgent;

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
      'aria-label': this.text('cuePosition'),
      dir: 'ltr', // it moves along the token sequence, which reads left to right
    });
    this.slider.addEventListener('input', () => this.moveCue(Number(this.slider.value)));
    const source = el(
      'select',
      { 'aria-label': this.text('whichModels') },
      ...(['recorded', 'live'] as const).map((s) =>
        el(
          'option',
          { value: s, ...(s === this.settings.source ? { selected: '' } : {}) },
          this.text(s === 'recorded' ? 'sourceRecorded' : 'sourceLive'),
        ),
      ),
    );
    source.addEventListener('change', () => {
      this.remember({ source: source.value as 'recorded' | 'live' });
      void this.ask(true);
    });
    // A token sequence reads left to right in every language.
    this.editor = el('div', {
      class: 'probe-sequence',
      role: 'group',
      'aria-label': this.text('theSequence'),
      dir: 'ltr',
    });
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
          el('label', {}, this.text('models'), source),
          el('label', {}, this.text('moveCue'), this.slider),
        ),
        this.editor,
        this.status,
        this.fieldset,
        this.said,
        this.results,
        el(
          'p',
          { class: 'probe-legend' },
          ...this.textAround('legend', {
            scale: el(
              'span',
              { class: 'probe-key', dir: 'ltr' },
              `${this.formatNumber(0)} `,
              el('span', { class: 'probe-scale', 'aria-hidden': 'true' }),
              ` ${this.formatNumber(1)}`,
            ),
          }),
        ),
        this.answers,
      ),
    );
    this.renderEditor();
    await this.ask(); // ready once the models have answered (or said why not)
  }

  /**
   * When the probe comes within two screens of view (before it starts, at 600 px), the core and
   * the recorded models with their weights start loading where its first answer will come from,
   * so that a reader who scrolls to it finds it answered at once.
   */
  private warmer?: IntersectionObserver;
  private warmed = false;

  connectedCallback(): void {
    super.connectedCallback();
    if (this.warmed) return;
    this.warmer ??= new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        this.warmer?.disconnect();
        this.warmed = true;
        this.prepare();
      },
      { rootMargin: '200% 0px' },
    );
    this.warmer.observe(this);
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.warmer?.unobserve(this);
  }

  /** Starts loading what the first answer needs; a failure is said by the first probe, which tries again. */
  private prepare(): void {
    getCore().catch(() => undefined); // the load start() awaits
    const answerer = this.answerer();
    for (const blocks of BLOCKS) answerer.prepare?.({ source: 'recorded', blocks }).catch(() => undefined);
  }

  protected teardown(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.own.failAll(this.messages?.text('removed') ?? 'the probe was removed from the page');
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
    const fail = (key: string, params: MessageParams = {}): never => {
      const said = { key, params: { ...params, got: text.slice(0, 60) } };
      throw new AuthorError(probeMessages.en[key](said.params), said); // English on the console, the widget's language on screen
    };
    if (tokens.length !== this.length - 1) fail('sequenceLength', { tokens: this.length - 1 });
    if (tokens.some((t) => t > this.symbols)) fail('sequenceSymbols', { last: this.symbols - 1 });
    const cues = tokens.filter((t) => t === this.symbols).length;
    if (cues !== 1) fail('sequenceOneCue');
    if (tokens.indexOf(this.symbols) > this.length - 3) fail('sequenceAnswer');
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
          el('span', { class: 'probe-fixed', translate: 'no' }, 'CUE'),
        );
      const select = el(
        'select',
        { 'aria-label': this.text('symbolAt', { position: p }) },
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
      el('span', { class: 'probe-fixed', translate: 'no' }, 'CUE'),
    );
    this.editor.replaceChildren(...cells, query);
    const cue = this.body.indexOf(this.symbols);
    this.slider.value = String(cue);
    this.slider.setAttribute(
      'aria-valuetext',
      this.text('cueAt', { position: cue, answer: this.label(this.body[cue + 1]) }),
    );
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
      this.answers.replaceChildren();
      this.status.textContent =
        source === 'live' && error instanceof ProbeFailure && error.code === 'no-live-run'
          ? this.text('statusNoLiveRun')
          : this.text('cannotAnswer', { reason: failureText(error, this.messages) });
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
    this.status.textContent = this.text(source === 'recorded' ? 'answerRecorded' : 'answerLive', {
      expected: this.label(expected),
      position: answers[0].probe.cuePosition,
      predictions: answers
        .map((a, i) => this.text('modelAnswer', { blocks: BLOCKS[i], answer: this.label(a.probe.prediction) }))
        .join(this.text('listSeparator')),
    });
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
        statement: interactedStatement({
          element: this,
          actor: this.actor,
          activity: activityId(this, this.settings['activity-id']),
          name: this.text('activityName'),
          tokens,
          intervention,
          results,
        }),
      });
  }

  /** The fieldset: what to change, which block and head, the variant; a patch's positions and second sequence. */
  private interventionFieldset(): HTMLFieldSetElement {
    const s = this.settings;
    const select = (label: string, options: Record<string, string>, value: string, apply: (v: string) => void) => {
      const control = el(
        'select',
        { 'aria-label': label },
        ...Object.entries(options).map(([v, key]) =>
          el('option', { value: v, ...(v === value ? { selected: '' } : {}) }, key === v ? v : this.text(key)),
        ),
      );
      if (!(value in options)) control.append(el('option', { value, selected: '' }, value)); // an attribute's "given"
      control.addEventListener('change', () => apply(control.value));
      return control;
    };
    const action = select(this.text('what'), ACTIONS, s.intervention, (v) =>
      this.setIntervention({ intervention: v as Action }),
    );
    const block = select(this.text('block'), { 1: '1', 2: '2' }, String(s.block), (v) =>
      this.setIntervention({ block: Number(v) }),
    );
    const head = el('input', {
      type: 'number',
      min: '0',
      max: '16',
      step: '1',
      value: String(s.head),
      'aria-label': this.text('head'),
    });
    head.addEventListener('change', () => {
      if (/^\d+$/.test(head.value)) this.setIntervention({ head: Number(head.value) });
    });
    const ablation = select(this.text('knockOutTo'), ABLATIONS, s.ablation, (v) =>
      this.setIntervention({ ablation: v as InterventionConfig['ablation'] }),
    );
    const pattern = select(this.text('pattern'), PATTERNS, s.pattern, (v) =>
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
      return el('label', {}, box, p === this.length - 1 ? this.text('query', { position: p }) : String(p));
    });
    const into = el('input', {
      type: 'text',
      value: s['patch-into'],
      placeholder: this.text('patchIntoPlaceholder'),
      'aria-label': this.text('patchInto'),
      dir: 'ltr',
      spellcheck: 'false',
    });
    into.addEventListener('change', () => this.setIntervention({ 'patch-into': into.value.trim() }));
    const only = (what: Action, ...children: (Node | string)[]) =>
      el('div', { class: 'probe-variant', 'data-for': what }, ...children);
    const fieldset = el(
      'fieldset',
      { class: 'probe-intervention' },
      el('legend', {}, this.text('intervention')),
      el(
        'div',
        { class: 'attn-controls' },
        el('label', {}, `${this.text('whatLabel')} `, action),
        el('label', {}, `${this.text('block')} `, block),
        el('label', {}, `${this.text('head')} `, head),
      ),
      only('knock-out', el('label', {}, `${this.text('outputBecomes')} `, ablation)),
      only('pattern', el('label', {}, `${this.text('attendsTo')} `, pattern)),
      only(
        'patch',
        el('p', { class: 'probe-help' }, this.text('patchHelp')),
        el(
          'fieldset',
          { class: 'probe-positions', dir: 'ltr' },
          el('legend', {}, this.text('positionsCopied')),
          ...boxes,
        ),
        el('label', { class: 'probe-into' }, `${this.text('secondSequence')} `, into),
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
            message: this.text('noBlock', { blocks, block: iv.block }),
            ...empty,
          };
        try {
          // The trainer on the page answers when it forwards interventions; else the probe's own Worker (recorded runs).
          const by = typeof answerer.intervene === 'function' ? answerer : source === 'recorded' ? this.own : undefined;
          if (!by?.intervene) throw new Error(this.text('noInterventions'));
          const answer: InterventionAnswer = await by.intervene({ source, blocks }, config, inputs);
          return { blocks, status: 'changed', message: '', ...this.numbers(answer.intervention), ms: answer.ms };
        } catch (error) {
          return { blocks, status: 'error', message: failureText(error, this.messages), ...empty };
        }
      }),
    );
  }

  /** What is wrong with a patch's lists before the core sees them (their lengths), or ''. */
  private interventionProblem(iv: ProbeIntervention): string {
    if (iv.action !== 'patch') return '';
    if (this.settings['patch-positions'].trim() !== '' && iv.positions.length === 0)
      return this.text('checkOnePosition');
    if (iv.positions.some((p) => p >= this.length))
      return this.text('positionsBelow', { length: this.length, got: iv.positions.join(',') });
    if (iv.patchInto.length && iv.patchInto.length !== this.length)
      return this.text('secondLength', { tokens: this.length - 1, got: iv.patchInto.length - 1 });
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
      iv.action === 'patch' && iv.head === 0
        ? this.text('whereBlock', { block: iv.block })
        : this.text('whereHead', { block: iv.block, head: iv.head });
    switch (iv.action) {
      case 'knock-out':
        return this.text(iv.ablation === 'mean' ? 'knockedOutMean' : 'knockedOutZero', { where });
      case 'pattern':
        return this.text('replaced', {
          where,
          pattern: PATTERNS[iv.pattern] ? this.text(PATTERNS[iv.pattern]) : iv.pattern,
        });
      case 'patch': {
        const into = this.text(iv.patchInto.length ? 'intoSecond' : 'intoMoved');
        return iv.positions.length
          ? this.text('patchedAt', {
              where,
              positions: iv.positions.length,
              list: iv.positions.map((p) => this.formatNumber(p)).join(this.text('listSeparator')),
              into,
            })
          : this.text('patchedEvery', { where, into });
      }
      default:
        return this.text('noIntervention');
    }
  }

  /** The results table (a real table with a caption), its CSV button, and the announcement. */
  private showResults(iv: ProbeIntervention, results: ProbeInterventionResult[]): void {
    this.shownResults = results;
    this.dataset.intervention = iv.action;
    if (iv.action === 'none') {
      this.results.replaceChildren();
      this.said.textContent = this.said.textContent ? this.text('noInterventionSaid') : '';
      return;
    }
    const patch = iv.action === 'patch';
    const f3 = (x: number) => this.formatNumber(x, 3);
    const cell = (value: number, text: string) => el('td', { 'data-value': String(value) }, text);
    const rows = results.map((r) => {
      const name = el('th', { scope: 'row' }, this.text('rowModel', { blocks: r.blocks }));
      if (r.status !== 'changed')
        return el(
          'tr',
          { 'data-blocks': String(r.blocks), 'data-status': r.status },
          name,
          el(
            'td',
            { colspan: patch ? '6' : '4', class: r.status === 'error' ? 'probe-error' : 'probe-na' },
            this.text(r.status === 'error' ? 'rowError' : 'rowNotApplicable', { message: r.message }),
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
    const csv = el('button', { type: 'button' }, this.text('downloadTable'));
    csv.addEventListener('click', () => this.downloadResults(iv));
    this.results.replaceChildren(
      el(
        'div',
        { class: 'table-scroll' },
        el(
          'table',
          { class: 'ranked probe-effects' },
          el('caption', {}, patch ? this.text('captionPatch', { description: this.describe(iv) }) : this.describe(iv)),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              col(this.text('colModel')),
              col(this.text(patch ? 'colAnswerUnpatched' : 'colAnswerTrained')),
              col(this.text(patch ? 'colAnswerPatched' : 'colAnswerChanged')),
              col(this.text(patch ? 'colAccuracyClean' : 'colAccuracyTrained')),
              col(this.text(patch ? 'colAccuracyPatched' : 'colAccuracyChanged')),
              ...(patch ? [col(this.text('colRestoredValidation')), col(this.text('colRestoredSequence'))] : []),
            ),
          ),
          el('tbody', {}, ...rows),
        ),
      ),
      el('div', { class: 'attn-controls' }, csv),
    );
    const says = results.map((r) =>
      r.status === 'changed'
        ? this.text(patch ? 'saidChangedPatch' : 'saidChanged', {
            blocks: r.blocks,
            answer: this.label(r.prediction),
            accuracy: f3(r.accuracy),
            restored: f3(r.restoredFraction),
          })
        : r.status === 'error'
          ? this.text('saidError', { blocks: r.blocks, message: r.message })
          : this.text('saidNotApplicable', { blocks: r.blocks }),
    );
    this.said.textContent = this.text('said', {
      description: this.describe(iv),
      results: says.join(this.text('clauseSeparator')),
    });
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
        el('td', {}, this.formatNumber(v, 4)),
        el('td', { 'aria-hidden': 'true' }, this.bar(v)),
      ),
    );
    const maps = probe.attention.flatMap((heads, b) =>
      heads.map((weights, h) =>
        this.heatmap(
          probe,
          weights,
          this.text(heads.length > 1 ? 'mapTitleHead' : 'mapTitleBlock', { block: b + 1, head: h + 1 }),
          `Block ${b + 1}${heads.length > 1 ? `, head ${h + 1}` : ''}`,
        ),
      ),
    );
    return el(
      'section',
      { class: 'probe-model', 'data-blocks': String(blocks), 'aria-label': this.text('rowModel', { blocks }) },
      el('h3', {}, this.text('rowModel', { blocks })),
      el(
        'p',
        { class: 'probe-prediction', 'data-result': right ? 'right' : 'wrong' },
        ...this.textAround(right ? 'predictsRight' : 'predictsWrong', {
          prediction: el('strong', { 'data-prediction': String(probe.prediction) }, this.label(probe.prediction)),
          probability: this.formatNumber(p[probe.prediction], 4),
          expected: this.label(probe.expected),
        }),
      ),
      el(
        'details',
        { class: 'probe-classes' },
        el(
          'summary',
          {},
          this.text('everyClass'),
          el('span', { class: 'visually-hidden' }, this.text('everyClassFor', { blocks })),
        ),
        el(
          'table',
          { class: 'ranked' },
          el('caption', { class: 'visually-hidden' }, this.text('classesCaption', { blocks })),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col' }, this.text('colClass')),
              el('th', { scope: 'col' }, this.text('colProbability')),
              el('td', {}),
            ),
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
  private heatmap(probe: Probe, weights: ArrayLike<number>, title: string, id: string): HTMLElement {
    const t = probe.tokens.length;
    const labels = Array.from(probe.tokens, this.label);
    const head = el(
      'tr',
      {},
      el('td', {}),
      ...labels.map((l, j) => el('th', { scope: 'col', title: this.text('positionN', { position: j }) }, l)),
    );
    const rows = labels.map((l, i) =>
      el(
        'tr',
        i === t - 1 ? { 'data-query': '' } : {},
        el('th', { scope: 'row' }, i === t - 1 ? this.text('queryRow', { token: l }) : `${i}: ${l}`),
        ...labels.map((_, j) => {
          const w = weights[i * t + j];
          const cell = el(
            'td',
            {
              title: this.text('cellTitle', { from: i, to: j, weight: this.formatNumber(w, 3) }),
              'data-weight': String(w),
            },
            el('span', { class: 'visually-hidden' }, this.formatNumber(w, 3)),
          );
          cell.style.setProperty('--w', String(w));
          return cell;
        }),
      ),
    );
    // A heat map over the tokens does not mirror in a right-to-left page; data-map names it in English for scripts.
    return el(
      'figure',
      { class: 'probe-map', dir: 'ltr' },
      el(
        'table',
        { class: 'probe-heat', 'data-map': id },
        el('caption', { dir: 'auto' }, this.text('mapCaption', { title })),

        el('thead', {}, head),
        el('tbody', {}, ...rows),
      ),
    );
  }
}

define(CueProbe);
