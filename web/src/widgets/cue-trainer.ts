// <attn-cue-trainer>: the cue task's 1-block and 2-block runs. For now it shows the recorded
// run (written at build time by the native CLI, `attention-lab cue --json`, same core and
// default seed); training live in a Worker comes with the trainer issue.
import { AttnElement, define, el } from './base';
import { attachPlot, loadPlot, SERIES_COLOURS } from './plot-util';
import { recordedCueRuns } from '../live-numbers';

export class CueTrainer extends AttnElement {
  protected async setup(): Promise<void> {
    const runs = recordedCueRuns();
    if (!runs) {
      this.replaceChildren(el('p', { class: 'note' }, 'The recorded training run is not part of this build.'));
      return;
    }
    const [one, two] = runs;
    const Plot = await loadPlot();
    const points = [one, two].flatMap((run) => run.epochs.map((e) => ({ model: `${run.config.blocks} block${run.config.blocks > 1 ? 's' : ''}`, epoch: e.epoch, accuracy: e.validation_accuracy })));
    const figure = Plot.plot({
      className: 'attn-plot', width: 640, height: 260, marginLeft: 44,
      x: { label: 'epoch' }, y: { label: 'validation accuracy', domain: [0, 1], grid: true },
      color: { domain: ['1 block', '2 blocks'], range: SERIES_COLOURS },
      marks: [
        Plot.ruleY([two.chance], { stroke: 'currentColor', strokeDasharray: '2 3' }),
        Plot.ruleY([two.baseline_most_frequent], { stroke: 'currentColor', strokeDasharray: '6 3', strokeOpacity: 0.6 }),
        Plot.line(points, { x: 'epoch', y: 'accuracy', stroke: 'model', strokeWidth: 2 }),
        Plot.dot(points, { x: 'epoch', y: 'accuracy', fill: 'model', r: 2.5, title: (d) => `${d.model}, epoch ${d.epoch}: ${d.accuracy.toFixed(3)}` }),
      ],
    });
    const host = el('div', {});
    attachPlot(host, figure)?.setAttribute('aria-label', `Validation accuracy per epoch: 1 block best ${one.best_validation_accuracy.toFixed(3)}, 2 blocks best ${two.best_validation_accuracy.toFixed(3)}`);
    this.replaceChildren(el('div', { class: 'attn-panel' },
      el('p', {}, el('span', { class: 'badge' }, 'recorded run'), ` seed ${two.seed}: 1 block (${one.parameters.toLocaleString('en-US')} parameters) best ${one.best_validation_accuracy.toFixed(4)}; 2 blocks (${two.parameters.toLocaleString('en-US')} parameters) best ${two.best_validation_accuracy.toFixed(4)}. Dotted: chance ${two.chance.toFixed(4)}; dashed: most-frequent-symbol baseline ${two.baseline_most_frequent.toFixed(4)}.`),
      host));
  }
}

define('attn-cue-trainer', CueTrainer);
