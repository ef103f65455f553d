// <attn-cue-trainer>: the cue task's 1-block and 2-block models, trained live in module
// Workers by the core (one per model where the machine has two cores: training-workers.ts), or
// shown as the recorded run the native CLI made at build time (same core, default seed). The
// reader picks the seed, the heads per block and the epochs. Shows
// per-model progress, both validation curves with the chance line and the most-frequent-symbol
// baseline, parameter counts, best accuracies, and after training the last block's attention by
// offset from the answer, with the circuit the core's analysis names. Which run it shows, it says
// in attn-run-shown: a page whose words describe that run (the lesson) listens.
// Attributes and events: CUE_TRAINER in contracts.ts. The recorded runs load only when the
// trainer shows one.
import type { Core, CueAnalysis, CueConfig, CueRoute, InterventionConfig } from '../../core';
import { routeTable } from '../shared/route-table';
import { BOTH_MODELS, type TrainerReply } from '../../worker/training-protocol';
import { CUE_TRAINER } from '../element/contracts';
import { TrainingWorkers } from './training-workers';
import { ProbeRequests, type InterventionAnswer, type ProbeAnswer, type ProbeAnswerer } from '../shared/probe-requests';
import type { InterventionLists, ProbeTarget } from '../../worker/training-protocol';
import { AttnElement, define, el } from '../element/base';
import { downloadCsv, downloadSvg } from '../shared/download';
import { attachPlot, loadPlot, onWidthChange, SERIES_COLOURS, widthFor } from '../shared/plot-util';

interface ModelView {
  blocks: number;
  parameterCount: number;
  curve: { epoch: number; accuracy: number }[];
  best: number;
  epoch: number;
  batch: number;
  batchesPerEpoch: number;
  epochs: number;
  analysis?: CueAnalysis;
  route?: CueRoute;
}
interface RunView {
  source: 'recorded' | 'live';
  seed: number;
  heads: number;
  baseline: number;
  chance: number;
  models: ModelView[];
}
type Settings = Pick<CueConfig, 'seed' | 'epochs' | 'heads'>;

const OFFSET_LABELS: Record<number, string> = {
  [-2]: '−2',
  [-1]: '−1 (the earlier cue)',
  0: '0 (the answer)',
  1: '+1',
};

/** How the run solves the task, in words, from the core's interventions (its route label and what its tests measured). */
export function describeRoute(route: CueRoute, analysis: CueAnalysis): string {
  const f = (x: number) => x.toFixed(3);
  const clean = f(route.cleanAccuracy);
  const several = analysis.firstBlockCueToAnswer.length > 1;
  const head = several ? `block 1's head ${route.knockedHead}` : "block 1's attention";
  const tested = several ? `block 1's head ${route.testedHead}` : 'block 1';
  switch (route.label) {
    case 'cue-position':
      return `The tests name the cue-position route. Give ${tested} an ideal next-token pattern (every position looks one step ahead) and validation accuracy stays at ${f(route.nextAccuracy)} (clean ${clean}); knock out ${head} and it falls to ${f(route.knockedAccuracy)}, near the ${f(route.baselineAccuracy)} of guessing the most frequent symbol. So block 1 copies the answer into the CUE position, and the last block reads it there.`;
    case 'answer-position':
      return `The tests name the answer-position route. Give ${tested} an ideal previous-token pattern (every position looks one step back) and validation accuracy stays at ${f(route.previousAccuracy)} (clean ${clean}); knock out ${head} and it falls to ${f(route.knockedAccuracy)} (frequency baseline ${f(route.baselineAccuracy)}). So block 1 is a previous-token head: the answer position takes in the CUE before it, and the last block finds that mark, an induction head.`;
    case 'cue-broadcast':
      return `The tests name the cue-broadcast route. Give ${tested} an ideal pattern in which every position looks at the CUE and validation accuracy stays at ${f(route.firstCueAccuracy)} (clean ${clean}), while an ideal previous-token pattern gives ${f(route.previousAccuracy)} and a next-token one ${f(route.nextAccuracy)}. So block 1 spreads the CUE to every position by content, and the last block reads the position after it.`;
    case 'other':
      return `Solved (clean validation accuracy ${clean}), but none of the tests names a route: in ${tested}, an ideal next-token pattern gives ${f(route.nextAccuracy)}, a previous-token one ${f(route.previousAccuracy)} and a look-at-the-CUE one ${f(route.firstCueAccuracy)}. A route needs one of them to keep ${route.keepsShare} of the clean accuracy (and, for the first two, a block-1 knock-out to break it).`;
    case 'none':
      return `Not solved: clean validation accuracy ${clean} is below ${route.solvedAt}, so there is no route to name.`;
  }
}

let trainers = 0; // ids must stay unique when a page holds more than one trainer

export class CueTrainer extends AttnElement<typeof CUE_TRAINER> implements ProbeAnswerer {
  static readonly contract = CUE_TRAINER;
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  /** The heads a block can have: the divisors of the model width within the core's range. */
  private headChoices(): number[] {
    const { defaults, fields } = this.core.configs.cueTrain;
    const { min, max } = fields.find((f) => f.key === 'heads')!;
    return Array.from({ length: defaults.dModel }, (_, i) => i + 1).filter(
      (h) => defaults.dModel % h === 0 && h >= min && h <= max,
    );
  }

  private view?: RunView;
  private workers = new TrainingWorkers({
    message: (data) => this.onReply(data as TrainerReply),
    failed: (reason) => {
      this.probes.failAll(reason);
      this.status.textContent = reason;
      this.running = false;
      this.updatePauseButton();
    },
  });
  private runId = 0;
  private running = false;
  private paused = false;
  private seedInput!: HTMLInputElement;
  private epochsInput!: HTMLInputElement;
  private headsSelect!: HTMLSelectElement;
  private seedError!: HTMLElement;
  private epochsError!: HTMLElement;
  private status!: HTMLElement;
  private progressHost!: HTMLElement;
  private plotHost!: HTMLElement;
  private analysisHost!: HTMLElement;
  private pauseButton!: HTMLButtonElement;
  private svg: SVGSVGElement | null = null;
  private resize?: ResizeObserver;
  private suffix?: string;
  /** Probes and interventions (from a probe widget on the page) go to this trainer's Workers, which hold the latest live run. */
  private probes = new ProbeRequests(
    (request) => (request.type === 'probe' || request.type === 'intervene') && this.workers.probe(request),
  );

  /** Asks a trained model of the recorded run or of this trainer's latest finished run (ProbeAnswerer). */
  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer> {
    return this.probes.probe(target, tokens);
  }

  /** Changes one head or block of such a model and measures it (ProbeAnswerer). */
  intervene(
    target: ProbeTarget,
    config: Partial<InterventionConfig>,
    inputs: InterventionLists,
  ): Promise<InterventionAnswer> {
    return this.probes.intervene(target, config, inputs);
  }

  protected preload(): Promise<unknown> {
    return loadPlot();
  }

  protected async draw(): Promise<void> {
    const { seed, epochs } = this.settings;
    const suffix = (this.suffix ??= ++trainers === 1 ? '' : `-${trainers}`);
    this.seedInput = el('input', {
      type: 'text',
      inputmode: 'numeric',
      size: '8',
      value: String(seed),
      'aria-describedby': `cue-seed-error${suffix}`,
    });
    this.epochsInput = el('input', {
      type: 'text',
      inputmode: 'numeric',
      size: '5',
      value: String(epochs),
      'aria-describedby': `cue-epochs-error${suffix}`,
    });
    const heads = String(this.settings.heads);
    const headChoices = [...new Set([...this.headChoices(), this.settings.heads])].sort((x, y) => x - y);
    this.headsSelect = el(
      'select',
      {},
      ...headChoices.map((h) =>
        el('option', { value: String(h), ...(String(h) === heads ? { selected: '' } : {}) }, String(h)),
      ),
    );
    this.seedError = el('span', { class: 'attn-error', id: `cue-seed-error${suffix}`, role: 'alert' });
    this.epochsError = el('span', { class: 'attn-error', id: `cue-epochs-error${suffix}`, role: 'alert' });
    const train = el('button', { type: 'button' }, 'Train both');
    train.addEventListener('click', () => this.train());
    this.pauseButton = el('button', { type: 'button', disabled: '' }, 'Pause');
    this.pauseButton.addEventListener('click', () => this.togglePause());
    const restart = el('button', { type: 'button' }, 'Restart');
    restart.addEventListener('click', () => this.train());
    const recorded = el('button', { type: 'button' }, 'Show recorded run');
    recorded.addEventListener('click', () => this.showRecorded(true));
    const csv = el('button', { type: 'button' }, 'Download CSV');
    csv.addEventListener('click', () => this.downloadCsv());
    const svg = el('button', { type: 'button' }, 'Download SVG');
    svg.addEventListener('click', () => this.svg && downloadSvg('cue-task-curves.svg', this.svg));
    this.status = el('p', { 'aria-live': 'polite', class: 'trainer-status' });
    this.progressHost = el('div', {});
    this.plotHost = el('div', {});
    this.analysisHost = el('div', { 'aria-live': 'polite' });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el(
          'div',
          { class: 'attn-controls' },
          el('label', {}, 'seed', this.seedInput),
          this.seedError,
          el('label', {}, 'heads per block', this.headsSelect),
          el('label', {}, 'epochs', this.epochsInput),
          this.epochsError,
        ),
        el('div', { class: 'attn-controls' }, train, this.pauseButton, restart, recorded),
        this.status,
        this.progressHost,
        this.plotHost,
        this.analysisHost,
        el('div', { class: 'attn-download' }, csv, svg),
      ),
    );
    this.resize?.disconnect(); // the previous drawing's
    this.resize = onWidthChange(this.plotHost, () => void this.render());
    await this.showRecorded();
  }

  protected teardown(): void {
    this.resize?.disconnect();
    this.running = false;
    this.workers.terminate();
    this.probes.failAll('the trainer was removed from the page');
  }

  /** Shows the recorded run; `adopt`: its settings replace the reader's in the controls (and the URL). */
  private async showRecorded(adopt = false): Promise<void> {
    this.cancel();
    // The recorded runs load only when a trainer shows them.
    const runs = (await import('../../common/recorded-runs')).recordedCueRuns();
    if (!runs) {
      this.view = undefined;
      this.status.textContent = 'This build has no recorded run. Press Train both to train the models here.';
      return this.render();
    }
    const [, two] = runs;
    this.view = {
      source: 'recorded',
      seed: two.config.seed,
      heads: two.config.heads,
      baseline: two.baselineAccuracy,
      chance: two.chanceAccuracy,
      models: runs.map((r) => ({
        blocks: r.config.blocks,
        parameterCount: r.parameterCount,
        best: r.bestValidationAccuracy,
        curve: r.history.map((e) => ({ epoch: e.epoch, accuracy: e.validationAccuracy })),
        epoch: r.history.length,
        batch: 0,
        batchesPerEpoch: 1,
        epochs: r.config.epochs,
        analysis: r.analysis,
        route: r.route,
      })),
    };
    const recordedSettings: Settings = { seed: two.config.seed, heads: two.config.heads, epochs: two.config.epochs };
    if (adopt) {
      this.seedInput.value = String(recordedSettings.seed);
      this.epochsInput.value = String(recordedSettings.epochs);
      this.headsSelect.value = String(recordedSettings.heads);
      this.controlValues(); // clears the messages of earlier bad values
      this.remember(recordedSettings);
    }
    const chosen = {
      seed: this.seedInput.value.trim(),
      heads: this.headsSelect.value,
      epochs: this.epochsInput.value.trim(),
    };
    const same =
      chosen.seed === String(recordedSettings.seed) &&
      chosen.heads === String(recordedSettings.heads) &&
      chosen.epochs === String(recordedSettings.epochs);
    // The controls may hold other settings (a link's hash, the reader's edits): say whose run this is.
    this.status.replaceChildren(
      el('span', { class: 'badge' }, 'recorded run'),
      ` Trained by the native core at build time: ${describeSettings(recordedSettings)}. ` +
        (same
          ? 'Press Train both to run it in your browser.'
          : `Your settings (${describeSettings(chosen)}) are not trained yet: press Train both to train them in your browser.`),
    );
    await this.render();
    this.emit('attn-run-shown', {
      source: 'recorded',
      seed: two.config.seed,
      route: two.route.label,
      analysis: two.analysis,
      interventions: two.route,
    });
  }

  /** Reads the controls; the core checks each, and its message shows next to a bad one. */
  private controlValues(): Settings | undefined {
    const fields = [
      { key: 'seed', input: this.seedInput, error: this.seedError },
      { key: 'epochs', input: this.epochsInput, error: this.epochsError },
    ] as const;
    const settings: Partial<CueConfig> = {};
    let ok = true;
    for (const { key, input, error } of fields) {
      const text = input.value.trim();
      const value = text === '' ? NaN : Number(text);
      let message: string;
      try {
        message = this.core.cueConfigError({ [key]: value })?.message ?? '';
      } catch (failure) {
        // not a whole number: the facade's own check
        message = failure instanceof Error ? failure.message : String(failure);
      }
      error.textContent = message ? `${message.charAt(0).toUpperCase()}${message.slice(1)}.` : '';
      input.setAttribute('aria-invalid', String(message !== ''));
      ok &&= message === '';
      settings[key] = value;
    }
    settings.heads = Number(this.headsSelect.value);
    return ok ? (settings as Settings) : undefined;
  }

  private train(): void {
    const settings = this.controlValues();
    if (!settings) return;
    this.cancel();
    this.remember(settings);
    this.runId += 1;
    this.running = true;
    this.paused = false;
    this.view = { source: 'live', seed: settings.seed, heads: settings.heads, baseline: NaN, chance: NaN, models: [] };
    this.status.textContent = `Training both models in your browser, ${describeSettings(settings)}…`;
    this.updatePauseButton();
    this.workers.train(this.runId, settings);
    void this.render();
  }

  private cancel(): void {
    if (this.running) this.workers.broadcast({ type: 'cancel' });
    this.running = false;
    this.paused = false;
    this.updatePauseButton();
  }

  private togglePause(): void {
    if (!this.running) return;
    this.paused = !this.paused;
    this.workers.broadcast({ type: this.paused ? 'pause' : 'resume' });
    this.status.textContent = this.paused ? 'Paused.' : 'Training…';
    this.updatePauseButton();
  }

  private updatePauseButton(): void {
    this.pauseButton.textContent = this.paused ? 'Resume' : 'Pause';
    this.pauseButton.toggleAttribute('disabled', !this.running);
    this.pauseButton.setAttribute('aria-pressed', String(this.paused));
  }

  private onReply(reply: TrainerReply): void {
    if (this.probes.handle(reply)) return;
    if (reply.type === 'error') {
      this.status.textContent = `Training stopped: ${reply.message}`;
      this.running = false;
      return this.updatePauseButton();
    }
    if (!('runId' in reply) || reply.runId !== this.runId || !this.view || this.view.source !== 'live') return;
    const model = 'model' in reply ? reply.model - 1 : -1;
    switch (reply.type) {
      case 'started':
        this.view.baseline = reply.baseline;
        this.view.chance = reply.chance;
        this.view.models[model] = {
          blocks: reply.model,
          parameterCount: reply.parameterCount,
          curve: [],
          best: 0,
          epoch: 0,
          batch: 0,
          batchesPerEpoch: reply.batchesPerEpoch,
          epochs: reply.epochs,
        };
        break;
      case 'progress':
        Object.assign(this.view.models[model], { epoch: reply.epoch, batch: reply.batch });
        this.dataset.heapBytes = String(Math.max(reply.heapBytes, Number(this.dataset.heapBytes ?? 0)));
        this.emit('attn-train-progress', {
          model: reply.model,
          epoch: reply.epoch,
          batch: reply.batch,
          heapBytes: reply.heapBytes,
        });
        this.renderProgress();
        return;
      case 'epoch':
        this.view.models[model].curve.push({ epoch: reply.record.epoch, accuracy: reply.record.validationAccuracy });
        this.view.models[model].best = reply.best;
        this.emit('attn-train-epoch', { model: reply.model, ...reply.record, best: reply.best });
        break;
      case 'finished':
        this.view.models[model].analysis = reply.analysis;
        this.view.models[model].route = reply.route;
        this.view.models[model].best = reply.best;
        {
          const run = {
            seed: this.view.seed,
            route: reply.route.label,
            analysis: reply.analysis,
            interventions: reply.route,
          };
          // First the run shown, so that a page's words have changed when listeners of
          // attn-train-finished read them.
          if (reply.model === 2) this.emit('attn-run-shown', { source: 'live', ...run });
          this.emit('attn-train-finished', {
            model: reply.model,
            best: reply.best,
            bestEpoch: reply.bestEpoch,
            ...run,
          });
        }
        if (BOTH_MODELS.every((blocks) => this.view!.models[blocks - 1]?.analysis)) {
          this.running = false;
          this.updatePauseButton();
          this.status.textContent = `Trained in your browser, ${describeSettings({ seed: this.view.seed, heads: this.view.heads, epochs: this.view.models[0].epochs })}: 1 block best ${this.view.models[0].best.toFixed(4)}, 2 blocks best ${this.view.models[1].best.toFixed(4)}.`;
        }
        break;
      case 'cancelled':
        return;
    }
    void this.render();
  }

  private renderProgress(): void {
    const view = this.view;
    // Until a model of a live run has started, its row holds its place ("starting"), so the
    // widget's height changes once when a run begins, not once more per model.
    const starting = (blocks: number) => {
      const label = `${blocks} block${blocks > 1 ? 's' : ''}`;
      return el(
        'div',
        { class: 'progress-row', 'data-model': String(blocks) },
        el('span', {}, `${label} (… parameters)`),
        el('progress', { 'aria-label': `${label} progress` }),
        el('span', { class: 'progress-text' }, 'starting…'),
      );
    };
    this.progressHost.replaceChildren(
      ...[1, 2].flatMap((blocks) => {
        const m = view?.models[blocks - 1];
        if (!m) return view?.source === 'live' && this.running ? [starting(blocks)] : [];
        const done = m.epoch * m.batchesPerEpoch + (m.epoch < m.epochs ? m.batch : 0);
        const label = `${m.blocks} block${m.blocks > 1 ? 's' : ''} (${m.parameterCount.toLocaleString('en-US')} parameters)`;
        const bar = el('progress', {
          max: String(m.epochs * m.batchesPerEpoch),
          value: String(done),
          'aria-label': `${label} progress`,
        });
        const text =
          view!.source === 'recorded' || m.epoch === m.epochs
            ? `${m.epochs} epochs done, best ${m.best.toFixed(4)}`
            : `epoch ${m.epoch + 1}/${m.epochs} · batch ${m.batch}/${m.batchesPerEpoch} · best ${m.best.toFixed(4)}`;
        return [
          el(
            'div',
            { class: 'progress-row', 'data-model': String(m.blocks) },
            el('span', {}, label),
            bar,
            el('span', { class: 'progress-text' }, text),
          ),
        ];
      }),
    );
  }

  private async render(): Promise<void> {
    this.renderProgress();
    const view = this.view;
    if (!view) {
      this.plotHost.replaceChildren();
      this.analysisHost.replaceChildren();
      return;
    }
    const Plot = await loadPlot();
    const models = view.models.filter(Boolean);
    const points = models.flatMap((m) =>
      m.curve.map((c) => ({ model: `${m.blocks} block${m.blocks > 1 ? 's' : ''}`, ...c })),
    );
    const epochs = Math.max(1, ...models.map((m) => m.epochs));
    const width = widthFor(this.plotHost, 640);
    // The reference lines are named in the legend below, not on the chart, where the 1-block
    // curve runs along the baseline.
    const figure = Plot.plot({
      className: 'attn-plot',
      width,
      height: 284,
      marginLeft: 44,
      marginTop: 30,
      marginBottom: 44,
      x: { label: 'epoch', labelOffset: 36, domain: [1, epochs], ticks: epochTicks(epochs, width), tickFormat: 'd' },
      y: { label: 'validation accuracy', domain: [0, 1], grid: true },
      color: { domain: ['1 block', '2 blocks'], range: SERIES_COLOURS },
      marks: [
        Plot.ruleY([view.chance].filter(Number.isFinite), {
          stroke: 'currentColor',
          strokeDasharray: '2 3',
          strokeOpacity: 0.7,
        }),
        Plot.ruleY([view.baseline].filter(Number.isFinite), {
          stroke: 'currentColor',
          strokeDasharray: '6 3',
          strokeOpacity: 0.7,
        }),
        Plot.line(points, { x: 'epoch', y: 'accuracy', stroke: 'model', strokeWidth: 2 }),
        Plot.dot(points, {
          x: 'epoch',
          y: 'accuracy',
          fill: 'model',
          r: 2.5,
          title: (d) => `${d.model}, epoch ${d.epoch}: ${d.accuracy.toFixed(3)}`,
        }),
      ],
    });
    this.svg = attachPlot(this.plotHost, figure);
    this.svg?.setAttribute('role', 'img');
    this.svg?.setAttribute(
      'aria-label',
      'Validation accuracy per epoch. ' +
        models
          .map(
            (m) => `${m.blocks} block${m.blocks > 1 ? 's' : ''}: ${m.curve.length} epochs, best ${m.best.toFixed(3)}`,
          )
          .join('; '),
    );
    this.plotHost.dataset.points = String(points.length);
    const reference = (value: number, name: string) =>
      Number.isFinite(value) ? [el('span', {}, `${name} ${value.toFixed(3)}`)] : [];
    this.plotHost.append(
      el(
        'p',
        { class: 'attn-controls' },
        el('span', { class: 'swatch-unscaled' }, '1 block'),
        el('span', { class: 'swatch-scaled' }, '2 blocks'),
        ...reference(view.chance, '┈ chance'),
        ...reference(view.baseline, '╌ most frequent symbol'),
      ),
    );
    // Once the whole run has finished, with its status line: the page below moves once, not per model.
    const two = models.find((m) => m.blocks === 2);
    this.renderAnalysis(this.running ? undefined : two?.analysis, two?.route);
  }

  private renderAnalysis(analysis?: CueAnalysis, route?: CueRoute): void {
    if (!analysis || !route) return void this.analysisHost.replaceChildren();
    const heads = analysis.lastBlockByOffset;
    const mean = analysis.lastBlockMeanByOffset;
    const table = el(
      'table',
      { class: 'ranked', 'data-table': 'offsets' },
      el(
        'caption',
        {},
        "The 2-block model's last block: its attention pattern from the query position, by offset from the answer (validation mean). Where a head looks, not yet what the model uses: the tests below show that.",
      ),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'offset'),
          ...heads.map((_, h) => el('th', { scope: 'col' }, `head ${h + 1}`)),
          ...(heads.length > 1 ? [el('th', { scope: 'col' }, 'mean')] : []),
        ),
      ),
      el(
        'tbody',
        {},
        ...Array.from(analysis.offsets, (offset, j) =>
          el(
            'tr',
            {},
            el('td', {}, OFFSET_LABELS[offset] ?? String(offset)),
            ...heads.map((h) => el('td', {}, h[j].toFixed(3))),
            ...(heads.length > 1 ? [el('td', {}, mean[j].toFixed(3))] : []),
          ),
        ),
      ),
    );
    const perHead = (weights: ArrayLike<number>) => Array.from(weights, (w) => w.toFixed(2)).join(', ');
    this.analysisHost.replaceChildren(
      el('div', { class: 'table-scroll' }, table),
      el(
        'div',
        { class: 'table-scroll' },
        routeTable(
          [{ title: 'validation accuracy', route, heads: analysis.firstBlockCueToAnswer.length }],
          "The 2-block model with one part changed: knocked out (its heads' output set to zero) or given an ideal attention pattern",
        ),
      ),
      el('p', { 'data-route': route.label }, describeRoute(route, analysis)),
      el(
        'p',
        {},
        `First block${heads.length > 1 ? ', per head' : ''}: from the CUE position onto the answer after it, ${perHead(analysis.firstBlockCueToAnswer)}; from the answer position onto the CUE before it, ${perHead(analysis.firstBlockAnswerToCue)} of the weight.`,
      ),
    );
  }

  private downloadCsv(): void {
    const rows = (this.view?.models ?? [])
      .filter(Boolean)
      .flatMap((m) => m.curve.map((c) => [m.blocks, c.epoch, c.accuracy]));
    downloadCsv('cue-task-curves.csv', ['blocks', 'epoch', 'validation_accuracy'], rows);
  }
}

/** "seed 7, 2 heads per block, 30 epochs" */
function describeSettings({
  seed,
  heads,
  epochs,
}: {
  seed: number | string;
  heads: number | string;
  epochs: number | string;
}): string {
  return `seed ${seed}, ${heads} head${Number(heads) === 1 ? '' : 's'} per block, ${epochs} epoch${Number(epochs) === 1 ? '' : 's'}`;
}

/** Whole epochs for the x axis, about one per 60 pixels, in steps of 1, 2, 5, 10, 20, 50, ... */
function epochTicks(epochs: number, width: number): number[] {
  const room = Math.max(2, Math.floor(width / 60));
  const step =
    [1, 2, 5]
      .flatMap((m) => [1, 10, 100, 1000].map((p) => m * p))
      .sort((a, b) => a - b)
      .find((s) => Math.ceil(epochs / s) <= room) ?? epochs;
  const ticks = [1];
  for (let e = step; e <= epochs; e += step) if (e > 1) ticks.push(e);
  return ticks;
}

define(CueTrainer);
