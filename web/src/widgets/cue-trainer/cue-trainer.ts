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
import { activityId, trainedStatement } from '../element/xapi';
import type { XapiAgent } from '../element/public-types';
import { attributeSpec, divisorsOf } from '../element/contract';
import { TrainingWorkers } from './training-workers';
import {
  failureText,
  ProbeFailure,
  ProbeRequests,
  type InterventionAnswer,
  type ProbeAnswer,
  type ProbeAnswerer,
} from '../shared/probe-requests';
import type { InterventionLists, ProbeTarget } from '../../worker/training-protocol';
import { AttnElement, define, el } from '../element/base';
import { downloadCsv, downloadSvg } from '../shared/download';
import { attachPlot, loadPlot, localeTickFormat, onWidthChange, SERIES_COLOURS, widthFor } from '../shared/plot-util';
import { numberLocale } from '../../common/language';
import { formatLocaleNumber } from '../../common/locale-numbers';
import type { Messages } from '../../common/messages';
import trainerMessages from 'attn-messages:cue-trainer';
import routeTableMessages from 'attn-messages:route-table';
import probeRequestsMessages from 'attn-messages:probe-requests';
import { failureMessages, reasonText } from '../../host/failure';

interface ModelView {
  blocks: number;
  parameterCount: number;
  curve: { epoch: number; accuracy: number }[];
  /** a live run's epochs, in order from epoch 1: [trainLoss, trainAccuracy, validationLoss, validationAccuracy], 4 decimals */
  records?: number[][];
  best: number;
  bestEpoch?: number;
  epoch: number;
  batch: number;
  batchesPerEpoch: number;
  epochs: number;
  analysis?: CueAnalysis;
  route?: CueRoute;
}
interface RunView {
  /** saved: the last run trained here, restored from the saved progress (records only, no weights) */
  source: 'recorded' | 'live' | 'saved';
  seed: number;
  heads: number;
  baseline: number;
  chance: number;
  models: ModelView[];
  /** a live run's epochs, known before its models start */
  epochs?: number;
}
/** A chart drawn by Plot, its scales, and how many points of each model (by blocks) it shows. */
interface LiveChart {
  svg: SVGSVGElement;
  x: { apply(value: number): number };
  y: { apply(value: number): number };
  drawn: Map<number, { points: number }>;
}
type Settings = Pick<CueConfig, 'seed' | 'epochs' | 'heads'>;

/**
 * The last finished run as saved (persist, a course package): its settings, the reference lines
 * and each model's per-epoch records, numbers to 4 decimals; not its weights.
 */
interface SavedRun {
  seed: number;
  heads: number;
  epochs: number;
  baseline: number;
  chance: number;
  models: { blocks: number; parameterCount: number; best: number; bestEpoch: number; records: number[][] }[];
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
/** An epoch's record: trainLoss, trainAccuracy, validationLoss, validationAccuracy (its place says the epoch). */
const RECORD_LENGTH = 4;

/** A saved run read back, or undefined when what was saved is not one (another version's, edited). */
function savedRun(value: unknown): SavedRun | undefined {
  const run = value as SavedRun | undefined;
  const finite = (...xs: unknown[]) => xs.every((x) => typeof x === 'number' && Number.isFinite(x));
  const ok =
    !!run &&
    typeof run === 'object' &&
    finite(run.seed, run.heads, run.epochs, run.baseline, run.chance) &&
    Array.isArray(run.models) &&
    run.models.length === BOTH_MODELS.length &&
    run.models.every(
      (m, i) =>
        !!m &&
        m.blocks === BOTH_MODELS[i] &&
        finite(m.parameterCount, m.best, m.bestEpoch) &&
        Array.isArray(m.records) &&
        m.records.length === run.epochs &&
        m.records.every((r) => Array.isArray(r) && r.length === RECORD_LENGTH && finite(...r)),
    );
  return ok ? run : undefined;
}

/** The offsets with a name of their own (the others are their number). */
const OFFSET_KEYS: Record<number, string> = { [-1]: 'offsetEarlierCue', 0: 'offsetAnswer' };

/** An offset as the table's first column says it: −2, "−1 (the earlier cue)", "0 (the answer)", +1. */
function offsetLabel(offset: number, messages: Messages): string {
  const key = OFFSET_KEYS[offset];
  if (key) return messages.text(key);
  const digits = formatLocaleNumber(Math.abs(offset), numberLocale(messages.language));
  return offset < 0 ? `−${digits}` : offset > 0 ? `+${digits}` : digits;
}

/** The route's message for each label the core gives. */
const ROUTE_KEYS: Record<CueRoute['label'], string> = {
  'cue-position': 'routeCuePosition',
  'answer-position': 'routeAnswerPosition',
  'cue-broadcast': 'routeCueBroadcast',
  other: 'routeOther',
  none: 'routeNone',
};

/**
 * How the run solves the task, in words, from the core's interventions (its route label and what
 * its tests measured), in the language of `messages` (the trainer's catalog).
 */
export function describeRoute(route: CueRoute, analysis: CueAnalysis, messages: Messages): string {
  const locale = numberLocale(messages.language);
  const f = (x: number) => formatLocaleNumber(x, locale, 3);
  const several = analysis.firstBlockCueToAnswer.length > 1;
  return messages.text(ROUTE_KEYS[route.label], {
    tested: several ? messages.text('blockOneHead', { head: route.testedHead }) : messages.text('blockOne'),
    knocked: several ? messages.text('blockOneHead', { head: route.knockedHead }) : messages.text('blockOneAttention'),
    clean: f(route.cleanAccuracy),
    next: f(route.nextAccuracy),
    previous: f(route.previousAccuracy),
    firstCue: f(route.firstCueAccuracy),
    knockedAccuracy: f(route.knockedAccuracy),
    baseline: f(route.baselineAccuracy),
    keepsShare: formatLocaleNumber(route.keepsShare, locale),
    solvedAt: formatLocaleNumber(route.solvedAt, locale),
  });
}

let trainers = 0; // ids must stay unique when a page holds more than one trainer

export class CueTrainer extends AttnElement<typeof CUE_TRAINER> implements ProbeAnswerer {
  static readonly contract = CUE_TRAINER;
  static readonly messages = [trainerMessages, routeTableMessages, probeRequestsMessages, failureMessages];
  /** The whole core: this widget uses more than the attention core has. */
  declare protected core: Core;

  /**
   * The learner, for the learning records: set by the host page (see CUE_TRAINER.properties).
   * Declared, not a field: a value set before the element was defined stays.
   */
  declare actor?: XapiAgent;

  /** The heads a block can have: the divisors of the model width the core's field names (FieldSpec.divides). */
  private headChoices(): number[] {
    return divisorsOf(attributeSpec(CUE_TRAINER, 'heads'), this.core.configs)!.divisors;
  }

  private view?: RunView;
  private workers = new TrainingWorkers({
    message: (data) => this.onReply(data as TrainerReply),
    failed: (reason) => {
      this.probes.failAll(reason);
      this.status.textContent = reasonText(reason, this.messages);
      this.runEnded();
    },
  });
  private runId = 0;
  /** when the live run started (performance.now()), for its statements' duration */
  private runStarted = 0;
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
  /** What the next animation frame draws: the whole chart again (`full`) or only what is new. */
  private due = { frame: 0, full: false };
  /** The chart as last drawn in full, which a live run's new epochs extend (extendChart). */
  private chart?: LiveChart;
  private resize?: ResizeObserver;
  private suffix?: string;
  /** Probes and interventions (from a probe widget on the page) go to this trainer's Workers, which hold the latest live run. */
  private probes = new ProbeRequests(
    (request) =>
      (request.type === 'probe' || request.type === 'intervene' || request.type === 'prepare') &&
      this.workers.probe(request),
  );

  /** Asks a trained model of the recorded run or of this trainer's latest finished run (ProbeAnswerer). */
  probe(target: ProbeTarget, tokens: number[]): Promise<ProbeAnswer> {
    return this.probes.probe(target, tokens);
  }

  /** Loads such a model in the Worker that will answer its probes, ahead of the first (ProbeAnswerer). */
  prepare(target: ProbeTarget): Promise<unknown> {
    return this.probes.prepare(target);
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
    // The attribute and the URL hash accept only these (parseAttribute), so the setting is one of them.
    this.headsSelect = el(
      'select',
      {},
      ...this.headChoices().map((h) =>
        el('option', { value: String(h), ...(String(h) === heads ? { selected: '' } : {}) }, String(h)),
      ),
    );
    this.seedError = el('span', { class: 'attn-error', id: `cue-seed-error${suffix}`, role: 'alert' });
    this.epochsError = el('span', { class: 'attn-error', id: `cue-epochs-error${suffix}`, role: 'alert' });
    const train = el('button', { type: 'button' }, this.text('trainBoth'));
    train.addEventListener('click', () => this.train());
    this.pauseButton = el('button', { type: 'button', disabled: '' }, this.text('pause'));
    this.pauseButton.addEventListener('click', () => this.togglePause());
    const restart = el('button', { type: 'button' }, this.text('restart'));
    restart.addEventListener('click', () => this.train());
    const recorded = el('button', { type: 'button' }, this.text('showRecorded'));
    recorded.addEventListener('click', () => this.showRecorded(true));
    const csv = el('button', { type: 'button' }, this.text('downloadCsv'));
    csv.addEventListener('click', () => this.downloadCsv());
    const svg = el('button', { type: 'button' }, this.text('downloadSvg'));
    svg.addEventListener('click', () => this.svg && downloadSvg('cue-task-curves.svg', this.svg));
    this.status = el('p', { 'aria-live': 'polite', class: 'trainer-status' });
    this.progressHost = el('div', {});
    this.plotHost = el('div', {}); // the chart inside keeps its axes left to right (plot-util)
    // What a run redraws every frame is laid out and painted on its own (its own layer): a change
    // inside does not lay out or paint the rest of the page again (a long lesson, on a phone's CPU).
    for (const host of [this.progressHost, this.plotHost]) {
      host.style.contain = 'layout paint';
      host.style.willChange = 'transform';
    }
    this.analysisHost = el('div', { 'aria-live': 'polite' });
    // Holds its children's margins (no collapsing through it), so the height it reserves during
    // a run (reserveResults) is all the room its content took.
    this.analysisHost.style.display = 'flow-root';
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        el(
          'div',
          { class: 'attn-controls' },
          el('label', {}, this.text('seed'), this.seedInput),
          this.seedError,
          el('label', {}, this.text('headsPerBlock'), this.headsSelect),
          el('label', {}, this.text('epochs'), this.epochsInput),
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
    const saved = savedRun(this.loadProgress('lastRun'));
    if (saved) await this.showSaved(saved);
    else await this.showRecorded();
  }

  /** Shows the last run trained here as saved: its curves and bests, said as the last run, not trained again. */
  private async showSaved(run: SavedRun): Promise<void> {
    this.view = {
      source: 'saved',
      seed: run.seed,
      heads: run.heads,
      baseline: run.baseline,
      chance: run.chance,
      models: run.models.map((m) => ({
        blocks: m.blocks,
        parameterCount: m.parameterCount,
        curve: m.records.map((r, i) => ({ epoch: i + 1, accuracy: r[3] })),
        records: m.records,
        best: m.best,
        bestEpoch: m.bestEpoch,
        epoch: run.epochs,
        batch: 0,
        batchesPerEpoch: 1,
        epochs: run.epochs,
      })),
    };
    this.status.replaceChildren(
      el('span', { class: 'badge' }, this.text('lastRunBadge')),
      ' ',
      this.text('lastRunRestored', {
        settings: this.describeSettings(run),
        best1: this.formatNumber(run.models[0].best, 4),
        best2: this.formatNumber(run.models[1].best, 4),
      }),
    );
    await this.render();
  }

  /** Keeps the finished live run (when the widget keeps progress): settings and per-epoch records, no weights. */
  private saveRun(view: RunView): void {
    const run: SavedRun = {
      seed: view.seed,
      heads: view.heads,
      epochs: view.models[0].epochs,
      baseline: round4(view.baseline),
      chance: round4(view.chance),
      models: view.models.map((m) => ({
        blocks: m.blocks,
        parameterCount: m.parameterCount,
        best: round4(m.best),
        bestEpoch: m.bestEpoch ?? 0,
        records: m.records ?? [],
      })),
    };
    if (savedRun(run)) this.saveProgress('lastRun', run);
  }

  protected teardown(): void {
    this.resize?.disconnect();
    cancelAnimationFrame(this.due.frame);
    this.due = { frame: 0, full: false };
    this.running = false;
    this.workers.terminate();
    this.probes.failAll(this.messages?.text('removed') ?? 'the trainer was removed from the page');
  }

  /** Shows the recorded run; `adopt`: its settings replace the reader's in the controls (and the URL). */
  private async showRecorded(adopt = false): Promise<void> {
    this.cancel();
    // The recorded runs load only when a trainer shows them.
    const runs = (await import('../../common/recorded-runs')).recordedCueRuns();
    if (!runs) {
      this.view = undefined;
      this.status.textContent = this.text('noRecordedRun');
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
    const settings = this.describeSettings(recordedSettings);
    this.status.replaceChildren(
      el('span', { class: 'badge' }, this.text('recordedBadge')),
      ' ',
      same
        ? this.text('recordedSame', { settings })
        : this.text('recordedOther', { settings, chosen: this.describeSettings(chosen) }),
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
      error.textContent = message ? this.controlError(key, message, text) : '';
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
    this.reserveResults(true);
    this.runId += 1;
    this.runStarted = performance.now();
    this.running = true;
    this.paused = false;
    this.view = {
      source: 'live',
      seed: settings.seed,
      heads: settings.heads,
      baseline: NaN,
      chance: NaN,
      models: [],
      epochs: settings.epochs,
    };
    this.status.textContent = this.text('statusTraining', { settings: this.describeSettings(settings) });
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

  /**
   * While a run trains, the status line, the progress rows and the results area below the chart
   * (the analysis, drawn when the run ends) keep at least the heights they had, so the page below
   * does not jump when the reader presses Train; `on` false gives them back their own heights.
   */
  private reserveResults(on: boolean): void {
    for (const host of [this.status, this.progressHost, this.analysisHost])
      host.style.minHeight = on ? `${host.getBoundingClientRect().height}px` : '';
  }

  /** The run stopped (finished, failed or refused): no Pause to press, whatever was pressed last. */
  private runEnded(): void {
    this.running = false;
    this.paused = false;
    this.updatePauseButton();
  }

  private togglePause(): void {
    if (!this.running) return;
    this.paused = !this.paused;
    this.workers.broadcast({ type: this.paused ? 'pause' : 'resume' });
    this.status.textContent = this.text(this.paused ? 'statusPaused' : 'statusResumed');
    this.updatePauseButton();
  }

  private updatePauseButton(): void {
    this.pauseButton.textContent = this.text(this.paused ? 'resume' : 'pause');
    this.pauseButton.toggleAttribute('disabled', !this.running);
    this.pauseButton.setAttribute('aria-pressed', String(this.paused));
  }

  private onReply(reply: TrainerReply): void {
    if (this.probes.handle(reply)) return;
    if (reply.type === 'error') {
      this.status.textContent = this.text('statusStopped', {
        reason: failureText(new ProbeFailure(reply.message, reply.code, reply.values), this.messages),
      });
      return this.runEnded();
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
          records: [],
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
        return this.drawSoon(false);
      case 'epoch':
        this.view.models[model].curve.push({ epoch: reply.record.epoch, accuracy: reply.record.validationAccuracy });
        {
          const r = reply.record;
          this.view.models[model].records?.push(
            [r.trainLoss, r.trainAccuracy, r.validationLoss, r.validationAccuracy].map(round4),
          );
        }
        this.view.models[model].best = reply.best;
        this.emit('attn-train-epoch', { model: reply.model, ...reply.record, best: reply.best });
        return this.drawSoon(false);
      case 'finished':
        this.view.models[model].analysis = reply.analysis;
        this.view.models[model].route = reply.route;
        this.view.models[model].best = reply.best;
        this.view.models[model].bestEpoch = reply.bestEpoch;
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
          const statement = trainedStatement({
            element: this,
            actor: this.actor,
            activity: activityId(this, this.settings['activity-id']),
            name: this.text('activityName'),
            blocks: reply.model,
            best: reply.best,
            bestEpoch: reply.bestEpoch,
            route: reply.route.label,
            settings: { seed: this.view.seed, heads: this.view.heads, epochs: this.view.models[model].epochs },
            durationMs: performance.now() - this.runStarted,
          });
          this.emit('attn-train-finished', {
            model: reply.model,
            best: reply.best,
            bestEpoch: reply.bestEpoch,
            ...run,
            statement,
          });
        }
        if (BOTH_MODELS.every((blocks) => this.view!.models[blocks - 1]?.analysis)) {
          this.runEnded();
          this.saveRun(this.view);
          this.status.textContent = this.text('statusTrained', {
            settings: this.describeSettings({
              seed: this.view.seed,
              heads: this.view.heads,
              epochs: this.view.models[0].epochs,
            }),
            best1: this.formatNumber(this.view.models[0].best, 4),
            best2: this.formatNumber(this.view.models[1].best, 4),
          });
        }
        break;
      case 'cancelled':
        return;
    }
    // A model started (the reference lines) or finished: drawn again in full, at once when the
    // run has ended (its analysis and final chart), else with the next frame.
    if (this.running) this.drawSoon(true);
    else void this.render();
  }

  /**
   * Draws at the next animation frame what replies changed since the last: the progress rows and
   * the new epochs' points (extendChart), or the whole chart when `full`. A Worker replies every
   * few milliseconds; the page draws at most once a frame, and never the whole chart per epoch.
   */
  private drawSoon(full: boolean): void {
    this.due.full ||= full;
    this.due.frame ||= requestAnimationFrame(() => {
      const { full } = this.due;
      this.due = { frame: 0, full: false };
      if (full || !this.chart) return void this.render();
      this.updateProgress();
      this.extendChart(this.chart);
    });
  }

  private renderProgress(): void {
    const view = this.view;
    // Until a model of a live run has started, its row holds its place ("starting"), so the
    // widget's height changes once when a run begins, not once more per model.
    const starting = (blocks: number) =>
      el(
        'div',
        { class: 'progress-row', 'data-model': String(blocks) },
        el('span', {}, this.text('modelParametersPending', { blocks })),
        el('progress', { 'aria-label': this.text('progressLabel', { model: this.text('model', { blocks }) }) }),
        el('span', { class: 'progress-text' }, this.text('starting')),
      );
    this.progressHost.replaceChildren(
      ...[1, 2].flatMap((blocks) => {
        const m = view?.models[blocks - 1];
        if (!m) return view?.source === 'live' && this.running ? [starting(blocks)] : [];
        const label = this.text('modelParameters', { blocks: m.blocks, parameters: m.parameterCount });
        const bar = el('progress', {
          max: String(m.epochs * m.batchesPerEpoch),
          value: String(batchesDone(m)),
          'aria-label': this.text('progressLabel', { model: label }),
        });
        const text = this.progressText(view!, m);
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

  /** A model's progress in words: its epoch and batch while it trains, its epochs and best once done. */
  private progressText(view: RunView, m: ModelView): string {
    const best = this.formatNumber(m.best, 4);
    return view.source !== 'live' || m.epoch === m.epochs
      ? this.text('epochsDone', { epochs: m.epochs, best })
      : this.text('epochProgress', {
          epoch: m.epoch + 1,
          epochs: m.epochs,
          batch: m.batch,
          batches: m.batchesPerEpoch,
          best,
        });
  }

  /**
   * The progress rows brought up to date in place (each bar's value, the text node of its
   * words): nothing added to or removed from the page while a run trains; renderProgress() when
   * a row is not yet a started model's.
   */
  private updateProgress(): void {
    const view = this.view;
    for (const m of view?.models.filter(Boolean) ?? []) {
      const row = this.progressHost.querySelector(`[data-model="${m.blocks}"]`);
      const bar = row?.querySelector('progress');
      const words = row?.querySelector('.progress-text')?.firstChild;
      if (!bar?.hasAttribute('max') || !(words instanceof Text)) return this.renderProgress();
      bar.value = batchesDone(m);
      const text = this.progressText(view!, m);
      if (words.data !== text) words.data = text;
    }
  }

  private async render(): Promise<void> {
    cancelAnimationFrame(this.due.frame); // what it would draw, this drawing draws
    this.due = { frame: 0, full: false };
    this.renderProgress();
    const view = this.view;
    if (!view) {
      this.plotHost.replaceChildren();
      this.analysisHost.replaceChildren();
      this.chart = undefined;
      return;
    }
    const Plot = await loadPlot();
    const models = view.models.filter(Boolean);
    const points = models.flatMap((m) =>
      m.curve.map((c) => ({ model: this.text('model', { blocks: m.blocks }), ...c })),
    );
    const epochs = Math.max(1, view.epochs ?? 0, ...models.map((m) => m.epochs));
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
      x: {
        label: this.text('axisEpoch'),
        labelOffset: 36,
        domain: [1, epochs],
        ticks: epochTicks(epochs, width),
        tickFormat: localeTickFormat(numberLocale(this.messages.language), 0),
      },
      y: {
        label: this.text('axisAccuracy'),
        domain: [0, 1],
        grid: true,
        tickFormat: localeTickFormat(numberLocale(this.messages.language), 1),
      },
      color: { domain: [1, 2].map((blocks) => this.text('model', { blocks })), range: SERIES_COLOURS },
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
        // z named: Plot would otherwise group by the stroke and warn when each model has one point.
        Plot.line(points, { x: 'epoch', y: 'accuracy', stroke: 'model', z: 'model', strokeWidth: 2 }),
        Plot.dot(points, {
          x: 'epoch',
          y: 'accuracy',
          fill: 'model',
          r: 2.5,
          title: (d) =>
            this.text('pointTitle', { model: d.model, epoch: d.epoch, accuracy: this.formatNumber(d.accuracy, 3) }),
        }),
      ],
    });
    this.svg = attachPlot(this.plotHost, figure);
    this.svg?.setAttribute('role', 'img');
    this.chart = this.svg
      ? {
          svg: this.svg,
          x: figure.scale('x')!,
          y: figure.scale('y')!,
          drawn: new Map(models.map((m) => [m.blocks, { points: m.curve.length }])),
        }
      : undefined;
    this.labelChart(models, points.length);
    const reference = (value: number, key: string) =>
      Number.isFinite(value) ? [el('span', {}, this.text(key, { value: this.formatNumber(value, 3) }))] : [];
    this.plotHost.append(
      el(
        'p',
        { class: 'attn-controls' },
        el('span', { class: 'swatch-unscaled' }, this.text('model', { blocks: 1 })),
        el('span', { class: 'swatch-scaled' }, this.text('model', { blocks: 2 })),
        ...reference(view.chance, 'legendChance'),
        ...reference(view.baseline, 'legendBaseline'),
      ),
    );
    // Once the whole run has finished, with its status line: the page below moves once, not per model.
    const two = models.find((m) => m.blocks === 2);
    this.renderAnalysis(this.running ? undefined : two?.analysis, two?.route);
  }

  /** The chart's name for screen readers (each model's epochs and best) and its number of points (for tests). */
  private labelChart(models: ModelView[], points: number): void {
    this.svg?.setAttribute(
      'aria-label',
      this.text('plotLabel', {
        models: models
          .map((m) =>
            this.text('plotModel', {
              model: this.text('model', { blocks: m.blocks }),
              epochs: m.curve.length,
              best: this.formatNumber(m.best, 3),
            }),
          )
          .join(this.text('listSeparator')),
      }),
    );
    this.plotHost.dataset.points = String(points);
  }

  /**
   * Adds to the chart drawn in full the points of the epochs that arrived since, in the look of
   * Plot's marks (a line on from the model's last point, a dot with its title per epoch), in the
   * chart's own scales: a few elements per frame instead of a whole new chart.
   */
  private extendChart(chart: LiveChart): void {
    const models = (this.view?.models ?? []).filter(Boolean);
    let points = 0,
      added = false;
    for (const m of models) {
      points += m.curve.length;
      const drawn = chart.drawn.get(m.blocks) ?? { points: 0 };
      chart.drawn.set(m.blocks, drawn);
      if (drawn.points >= m.curve.length) continue;
      const colour = SERIES_COLOURS[m.blocks - 1];
      const at = (c: { epoch: number; accuracy: number }) =>
        `${chart.x.apply(c.epoch).toFixed(1)},${chart.y.apply(c.accuracy).toFixed(1)}`;
      const group = svgEl('g', { 'data-live': String(m.blocks) });
      const fresh = m.curve.slice(Math.max(0, drawn.points - 1));
      if (fresh.length > 1)
        group.append(
          svgEl('path', {
            d: `M${fresh.map(at).join('L')}`,
            fill: 'none',
            stroke: colour,
            'stroke-width': '2',
            'stroke-linejoin': 'round',
            'stroke-linecap': 'round',
          }),
        );
      const model = this.text('model', { blocks: m.blocks });
      for (const c of m.curve.slice(drawn.points)) {
        const [cx, cy] = at(c).split(',');
        const dot = svgEl('circle', { cx, cy, r: '2.5', fill: colour });
        dot.append(
          svgEl(
            'title',
            {},
            this.text('pointTitle', { model, epoch: c.epoch, accuracy: this.formatNumber(c.accuracy, 3) }),
          ),
        );
        group.append(dot);
      }
      chart.svg.append(group);
      drawn.points = m.curve.length;
      added = true;
    }
    if (added) this.labelChart(models, points);
  }

  private renderAnalysis(analysis?: CueAnalysis, route?: CueRoute): void {
    if (!this.running) this.reserveResults(false);
    if (!analysis || !route) return void this.analysisHost.replaceChildren();
    const heads = analysis.lastBlockByOffset;
    const mean = analysis.lastBlockMeanByOffset;
    const table = el(
      'table',
      { class: 'ranked', 'data-table': 'offsets' },
      el('caption', {}, this.text('offsetsCaption')),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, this.text('offset')),
          ...heads.map((_, h) => el('th', { scope: 'col' }, this.text('headN', { head: h + 1 }))),
          ...(heads.length > 1 ? [el('th', { scope: 'col' }, this.text('mean'))] : []),
        ),
      ),
      el(
        'tbody',
        {},
        ...Array.from(analysis.offsets, (offset, j) =>
          el(
            'tr',
            {},
            el('td', {}, offsetLabel(offset, this.messages)),
            ...heads.map((h) => el('td', {}, this.formatNumber(h[j], 3))),
            ...(heads.length > 1 ? [el('td', {}, this.formatNumber(mean[j], 3))] : []),
          ),
        ),
      ),
    );
    const perHead = (weights: ArrayLike<number>) =>
      Array.from(weights, (w) => this.formatNumber(w, 2)).join(this.text('numberSeparator'));
    this.analysisHost.replaceChildren(
      el('div', { class: 'table-scroll' }, table),
      el(
        'div',
        { class: 'table-scroll' },
        routeTable(
          [{ title: this.text('routeColumn'), route, heads: analysis.firstBlockCueToAnswer.length }],
          this.text('routeCaption'),
          this.messages,
        ),
      ),
      el('p', { 'data-route': route.label }, describeRoute(route, analysis, this.messages)),
      el(
        'p',
        {},
        this.text(heads.length > 1 ? 'firstBlockPerHead' : 'firstBlock', {
          cueToAnswer: perHead(analysis.firstBlockCueToAnswer),
          answerToCue: perHead(analysis.firstBlockAnswerToCue),
        }),
      ),
    );
  }

  /**
   * A control's refused value, next to it: in English the core's own words; in another language
   * what the control takes (the core's range for that field) and what it got.
   */
  private controlError(key: 'seed' | 'epochs', message: string, got: string): string {
    if (this.messages.language === 'en') return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
    const { min, max } = this.core.configs.cueTrain.fields.find((f) => f.key === key)!;
    return this.text(key === 'seed' ? 'seedInvalid' : 'epochsInvalid', { range: `[${min}, ${max}]`, got });
  }

  /** "seed 7, 2 heads per block, 30 epochs"; a control's text that is not a whole number is quoted as typed. */
  private describeSettings(settings: {
    seed: number | string;
    heads: number | string;
    epochs: number | string;
  }): string {
    const whole = (value: number | string) => (/^\d+$/.test(String(value)) ? Number(value) : String(value));
    return this.text('settings', {
      seed: String(settings.seed),
      heads: whole(settings.heads),
      epochs: whole(settings.epochs),
    });
  }

  private downloadCsv(): void {
    const rows = (this.view?.models ?? [])
      .filter(Boolean)
      .flatMap((m) => m.curve.map((c) => [m.blocks, c.epoch, c.accuracy]));
    downloadCsv('cue-task-curves.csv', ['blocks', 'epoch', 'validation_accuracy'], rows);
  }
}

/** The batches a model has trained, of epochs × batchesPerEpoch. */
function batchesDone(m: ModelView): number {
  return m.epoch * m.batchesPerEpoch + (m.epoch < m.epochs ? m.batch : 0);
}

/** The SVG element `name` with `attributes` and text. */
function svgEl(name: string, attributes: Record<string, string>, text?: string): SVGElement {
  const node = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
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
