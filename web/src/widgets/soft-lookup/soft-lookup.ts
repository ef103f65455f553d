// <attn-soft-lookup>: attention as a soft dictionary lookup, drawn with p5.js.
//
// Keys (arrows) and their values (squares) in 2-D; the reader drags the query arrow (mouse,
// touch, or arrow keys when the sketch has focus). The core computes the weights of
// softmax(q K^T / sqrt(2) / temperature) and the output, the weighted mean of the values,
// drawn as a dot. Attributes and events: SOFT_LOOKUP in contracts.ts.
import type p5 from 'p5';
import type { Mat } from '../../core';
import { attributeSpec, AuthorError } from '../element/contract';
import { SOFT_LOOKUP } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import { onWidthChange } from '../shared/plot-util';
import lookupMessages from 'attn-messages:soft-lookup';

/** The farthest the query goes from the origin on each axis (exercises ask within it too). */
export const QUERY_LIMIT = 3;
const WORLD = 3.2; // the plane shows [-WORLD, WORLD] on both axes
const START = [1.4, 1.2]; // where the circling query starts
const TEMPERATURES = attributeSpec(SOFT_LOOKUP, 'temperature').values;
type Temperature = (typeof TEMPERATURES)[number];

let p5Module: Promise<typeof p5> | undefined;

/**
 * p5.js core with only the math, 2-D shape and colour modules: a fraction of the full bundle, and
 * without the friendly-error checks, whose schema library probes eval() (refused under a
 * strict CSP). Labels are drawn with the canvas context directly, so no font module either.
 */
function loadP5(): Promise<typeof p5> {
  p5Module ??= (async () => {
    const [{ default: P5 }, ...addons] = await Promise.all([
      import('p5/core'),
      import('p5/math'),
      import('p5/shape'),
      import('p5/color'),
    ]);
    for (const { default: addon } of addons) addon(P5);
    // p5 adds a <style> for its loading spinner unless an element with this id exists; a
    // strict CSP refuses inline <style>, so give it one that is not a style.
    if (!document.getElementById('p5-loading-style')) document.head.append(el('template', { id: 'p5-loading-style' }));
    return P5 as unknown as typeof p5;
  })();
  return p5Module;
}

export class SoftLookup extends AttnElement<typeof SOFT_LOOKUP> {
  static readonly contract = SOFT_LOOKUP;
  static readonly messages = [lookupMessages];
  /** Attention only: a page whose widgets need no more loads the smaller core module. */
  static readonly needsCore = 'attention';

  private shownKeys: number[][] = [];
  private shownValues: number[][] = [];
  private shownQuery = START;
  private shownScale = true;
  private shownTemperature: Temperature = 1;
  private weights: number[] = [];
  private output = [0, 0];
  private playing = true;
  private phase = 0;
  private sketch?: p5;
  private resize?: ResizeObserver;
  private canvasHost!: HTMLElement;
  private readout!: HTMLElement;
  private pauseButton!: HTMLButtonElement;
  private announceTimer = 0;
  /** The canvas's colours, resolved for the widget's theme (read in setup and on themeChanged). */
  private colours!: ReturnType<SoftLookup['readColours']>;

  protected preload(): Promise<unknown> {
    return loadP5();
  }

  protected async draw(): Promise<void> {
    const { keys, values, query, scale, temperature } = this.settings;
    if (values.length !== keys.length)
      throw new AuthorError(this.text('valuesCount', { keys: keys.length, values: values.length }));
    this.shownKeys = keys;
    this.shownValues = values;
    this.shownQuery = query ? query.map((v) => Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, v))) : START;
    this.playing = !query && !matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.phase = 0;
    this.shownScale = scale === 'on';
    this.shownTemperature = temperature;

    this.buildControls();
    this.compute();
    this.updateReadout(false);
    this.colours = this.readColours();
    const P5 = await loadP5();
    this.sketch = new P5((p: p5) => this.defineSketch(p), this.canvasHost);
    // The panel's width decides the layout (the bars beside the plane, or below it on a narrow
    // screen): a new width that changes it gets a new sketch. (p5's resizeCanvas needs its
    // accessibility module, which this build leaves out.)
    this.resize?.disconnect(); // the previous drawing's
    this.resize = onWidthChange(this.canvasHost, () => {
      const shown = this.canvasHost.querySelector('canvas');
      const next = planeLayout(this.canvasHost.clientWidth || 300, this.shownKeys.length);
      if (!shown || (next.width === parseFloat(shown.style.width) && next.height === parseFloat(shown.style.height)))
        return;
      this.sketch?.remove();
      this.sketch = new P5((p: p5) => this.defineSketch(p), this.canvasHost);
    });
  }

  private readColours() {
    return this.themeColours(['--attn-fg', '--attn-muted', '--attn-rule', '--attn-accent', '--attn-accent-2']);
  }

  protected themeChanged(): void {
    this.colours = this.readColours();
    this.sketch?.redraw();
  }

  protected teardown(): void {
    clearTimeout(this.announceTimer);
    this.resize?.disconnect();
    this.sketch?.remove();
    this.sketch = undefined;
  }

  private buildControls(): void {
    const scaleBox = el('input', { type: 'checkbox' });
    scaleBox.checked = this.shownScale;
    scaleBox.addEventListener('change', () => {
      this.shownScale = scaleBox.checked;
      this.changed();
    });
    const temperature = el(
      'select',
      {},
      ...TEMPERATURES.map((t) => el('option', { value: String(t) }, this.formatNumber(t))),
    );
    temperature.value = String(this.shownTemperature);
    temperature.addEventListener('change', () => {
      this.shownTemperature = Number(temperature.value) as Temperature;
      this.changed();
    });
    this.pauseButton = el('button', { type: 'button' }, '');
    this.pauseButton.addEventListener('click', () => this.setPlaying(!this.playing));
    const restart = el('button', { type: 'button' }, this.text('restart'));
    restart.addEventListener('click', () => {
      this.shownQuery = START;
      this.phase = 0;
      this.setPlaying(!matchMedia('(prefers-reduced-motion: reduce)').matches);
      this.changed();
    });
    // The plane and its bars are a figure: left to right (and its arrow keys as drawn) in every language.
    this.canvasHost = el('div', {
      class: 'lookup-canvas',
      dir: 'ltr',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': this.text('roleDescription'),
      'aria-label': this.text('canvasLabel'),
    });
    this.canvasHost.addEventListener('keydown', (event) => this.onKey(event));
    this.readout = el('p', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.replaceChildren(
      el(
        'div',
        { class: 'attn-panel' },
        this.canvasHost,
        el(
          'div',
          { class: 'attn-controls' },
          el('label', {}, scaleBox, this.text('divideByRoot')),
          el('label', {}, this.text('temperature'), temperature),
          this.pauseButton,
          restart,
        ),
        this.readout,
      ),
    );
    this.setPlaying(this.playing);
  }

  private setPlaying(playing: boolean): void {
    const stopping = this.playing && !playing;
    this.playing = playing;
    this.pauseButton.textContent = this.text(playing ? 'pause' : 'play');
    this.pauseButton.setAttribute('aria-pressed', String(!playing));
    if (playing) this.sketch?.loop();
    else this.sketch?.noLoop();
    this.sketch?.redraw();
    // Stopped: the weights now stay put, so say them.
    if (stopping && this.weights.length) this.updateReadout(true);
  }

  /**
   * The current query, weights and output as text for screen readers. While the query moves by
   * itself the text is kept current but not announced (aria-live off); once the reader moves it
   * or it stops, the region is polite again.
   */
  private updateReadout(announce: boolean): void {
    clearTimeout(this.announceTimer);
    this.readout.setAttribute('aria-live', announce ? 'polite' : 'off');
    this.readout.textContent = this.describe();
  }

  /** The core computes the weights and the output for the current query. */
  private compute(): void {
    const n = this.shownKeys.length;
    const query: Mat = {
      rows: 1,
      cols: 2,
      data: Float32Array.from(this.shownQuery.map((v) => v / this.shownTemperature)),
    };
    const keys: Mat = { rows: n, cols: 2, data: Float32Array.from(this.shownKeys.flat()) };
    const values: Mat = { rows: n, cols: 2, data: Float32Array.from(this.shownValues.flat()) };
    const result = this.core.attention(query, keys, values, { scale: this.shownScale });
    this.weights = Array.from(result.weights.data);
    this.output = Array.from(result.output.data);
  }

  private changed(): void {
    this.compute();
    this.sketch?.redraw();
    this.remember({
      query: [this.shownQuery[0], this.shownQuery[1]],
      scale: this.shownScale ? 'on' : 'off',
      temperature: this.shownTemperature,
    });
    this.emit('attn-change', { query: [...this.shownQuery], weights: [...this.weights], output: [...this.output] });
    // Screen readers hear the weights once the query settles, not on every pixel.
    clearTimeout(this.announceTimer);
    this.announceTimer = window.setTimeout(() => this.updateReadout(true), 400);
  }

  describe(): string {
    const parts = this.weights.map((w, i) => this.text('keyWeight', { key: i + 1, weight: this.formatNumber(w, 2) }));
    const top = this.weights.indexOf(Math.max(...this.weights));
    return this.text('readout', {
      qx: this.formatNumber(this.shownQuery[0], 1),
      qy: this.formatNumber(this.shownQuery[1], 1),
      weights: parts.join(this.text('listSeparator')),
      top: top + 1,
      ox: this.formatNumber(this.output[0], 2),
      oy: this.formatNumber(this.output[1], 2),
    });
  }

  private onKey(event: KeyboardEvent): void {
    const step = event.shiftKey ? 0.5 : 0.1;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    this.setPlaying(false);
    this.moveQuery(this.shownQuery[0] + move[0], this.shownQuery[1] + move[1]);
  }

  private moveQuery(x: number, y: number): void {
    this.shownQuery = [
      Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, x)),
      Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, y)),
    ];
    this.changed();
  }

  private defineSketch(p: p5): void {
    const layout = planeLayout(this.canvasHost.clientWidth || 300, this.shownKeys.length);
    const pad = PLANE_PAD;
    const span = () => layout.plane - 2 * pad;
    const toScreen = (x: number, y: number): [number, number] => [
      pad + ((x + WORLD) / (2 * WORLD)) * span(),
      pad + ((WORLD - y) / (2 * WORLD)) * span(),
    ];
    const toWorld = (sx: number, sy: number): [number, number] => [
      ((sx - pad) / span()) * 2 * WORLD - WORLD,
      WORLD - ((sy - pad) / span()) * 2 * WORLD,
    ];
    let dragging = false;
    let shownLabels = '';
    const outputLabel = this.text('output');

    p.setup = () => {
      const canvas = p.createCanvas(layout.width, layout.height);
      canvas.elt.addEventListener('pointerdown', (event: PointerEvent) => {
        if (event.offsetX > layout.plane || event.offsetY > layout.plane) return; // the bars are not the plane
        dragging = true;
        this.setPlaying(false);
        (event.target as Element).setPointerCapture(event.pointerId);
        const [x, y] = toWorld(event.offsetX, event.offsetY);
        this.moveQuery(x, y);
      });
      canvas.elt.addEventListener('pointermove', (event: PointerEvent) => {
        if (!dragging) return;
        const [x, y] = toWorld(event.offsetX, event.offsetY);
        this.moveQuery(x, y);
      });
      const stop = () => (dragging = false);
      canvas.elt.addEventListener('pointerup', stop);
      canvas.elt.addEventListener('pointercancel', stop);
      if (!this.playing) p.noLoop();
    };

    p.draw = () => {
      if (this.playing) {
        this.phase += 0.01;
        const r = 1.9;
        this.shownQuery = [r * Math.cos(this.phase + 0.7), r * Math.sin(this.phase + 0.7)];
        this.compute();
        if (Math.round(this.phase * 100) % 30 === 0) {
          this.emit('attn-change', {
            query: [...this.shownQuery],
            weights: [...this.weights],
            output: [...this.output],
          });
          this.updateReadout(false);
        }
      }
      const {
        '--attn-fg': fg,
        '--attn-muted': muted,
        '--attn-accent': accent,
        '--attn-accent-2': accent2,
        '--attn-rule': rule,
      } = this.colours;
      const context = p.drawingContext as CanvasRenderingContext2D;
      const labels = new LabelPlacer(context, { x: 0, y: 0, width: layout.plane, height: layout.plane });
      p.clear();
      p.stroke(rule);
      p.strokeWeight(1);
      const [ox, oy] = toScreen(0, 0);
      p.line(pad, oy, layout.plane - pad, oy);
      p.line(ox, pad, ox, layout.plane - pad);
      // keys as arrows, values as squares, line width by weight
      const points = this.shownKeys.map((k, i) => ({
        key: toScreen(k[0], k[1]),
        value: toScreen(this.shownValues[i][0], this.shownValues[i][1]),
      }));
      const [qx, qy] = toScreen(this.shownQuery[0], this.shownQuery[1]);
      const [outx, outy] = toScreen(this.output[0], this.output[1]);
      // What the labels must not cover: every mark.
      labels.avoid(qx, qy, 8);
      labels.avoid(outx, outy, 7);
      for (const { key, value } of points) {
        labels.avoid(key[0], key[1], 4);
        labels.avoid(value[0], value[1], 7);
      }
      points.forEach(({ key: [kx, ky], value: [vx, vy] }, i) => {
        const w = this.weights[i] ?? 0;
        p.stroke(muted);
        p.strokeWeight(1 + 5 * w);
        p.line(ox, oy, kx, ky);
        p.noStroke();
        p.fill(muted);
        p.circle(kx, ky, 7);
        p.fill(accent2);
        p.rect(vx - 6, vy - 6, 12, 12);
      });
      // the query
      p.stroke(accent);
      p.strokeWeight(3);
      p.line(ox, oy, qx, qy);
      p.noStroke();
      p.fill(accent);
      p.circle(qx, qy, 14);
      // the output: the weighted mean of the values
      p.fill(fg);
      p.circle(outx, outy, 12);
      labels.place(outputLabel, outx, outy, 9, fg, LABEL_PX);
      points.forEach(({ key, value }, i) => {
        labels.place(`k${i + 1}`, key[0], key[1], 6, fg, LABEL_PX);
        labels.place(`v${i + 1}`, value[0], value[1], 9, fg, LABEL_PX);
      });
      // bars: one row per key, beside the plane or below it
      const { bars } = layout;
      const row = bars.height / this.shownKeys.length;
      const nameWidth = 28,
        numberWidth = 44;
      const barLength = bars.width - nameWidth - numberWidth;
      const barLabels = new LabelPlacer(context, bars);
      this.weights.forEach((w, i) => {
        const y = bars.y + i * row;
        p.noStroke();
        p.fill(rule);
        p.rect(bars.x + nameWidth, y + row / 2 - 5, barLength, 10, 3);
        p.fill(accent);
        p.rect(bars.x + nameWidth, y + row / 2 - 5, Math.max(0, w) * barLength, 10, 3);
        barLabels.write(`k${i + 1}`, bars.x, y + row / 2, fg, LABEL_PX);
        barLabels.write(this.formatNumber(w, 2), bars.x + nameWidth + barLength + 6, y + row / 2, fg, LABEL_PX);
      });
      // The boxes and sizes of the text drawn, in CSS pixels of the canvas, for layout checks
      // (text on a canvas is invisible to the DOM).
      const drawn = JSON.stringify([...labels.boxes, ...barLabels.boxes]);
      if (drawn !== shownLabels) this.canvasHost.dataset.labels = shownLabels = drawn;
    };
  }
}

/** Space between the plane's edge and the farthest a point is drawn, so the query dot stays whole. */
const PLANE_PAD = 12;
/** Canvas labels' size in CSS pixels. */
const LABEL_PX = 13;
/** A row of the weight bars. */
const BAR_ROW = 22;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface DrawnLabel extends Box {
  text: string;
  px: number;
}

/**
 * Where the sketch draws: a square plane and the weight bars, beside it when the panel is wide
 * enough, else below it. Shapes in CSS pixels.
 */
function planeLayout(available: number, keys: number): { width: number; height: number; plane: number; bars: Box } {
  const barsHeight = keys * BAR_ROW;
  const plane = Math.max(200, Math.min(available, 420));
  if (available >= plane + 220) {
    const width = Math.min(available, plane + 360);
    return {
      width,
      height: plane,
      plane,
      bars: { x: plane + 24, y: Math.max(0, (plane - barsHeight) / 2), width: width - plane - 24, height: barsHeight },
    };
  }
  return {
    width: plane,
    height: plane + barsHeight + 12,
    plane,
    bars: { x: 0, y: plane + 12, width: plane, height: barsHeight },
  };
}

/**
 * Writes labels on the canvas, each next to its mark where it overlaps no earlier label and no
 * mark, and records their boxes. The canvas context is saved and restored around each, so p5's
 * own fill stays as p5 set it.
 */
class LabelPlacer {
  readonly boxes: DrawnLabel[] = [];
  private marks: Box[] = [];

  constructor(
    private context: CanvasRenderingContext2D,
    private area: Box,
  ) {}

  /** A mark (a dot of `radius` at x, y) that labels must not cover. */
  avoid(x: number, y: number, radius: number): void {
    this.marks.push({ x: x - radius, y: y - radius, width: 2 * radius, height: 2 * radius });
  }

  /**
   * The label at the first of eight places around (x, y), `gap` away (then farther), that is
   * free and inside the area.
   */
  place(text: string, x: number, y: number, gap: number, fill: string, px: number): void {
    const { width, height } = this.measure(text, px);
    const boxes = [gap, gap + 8, gap + 16, gap + 28].flatMap((d) =>
      (
        [
          [x + d, y - d - height],
          [x + d, y + d],
          [x - d - width, y - d - height],
          [x - d - width, y + d],
          [x - width / 2, y - d - height],
          [x - width / 2, y + d],
          [x + d, y - height / 2],
          [x - d - width, y - height / 2],
        ] as [number, number][]
      ).map(([left, top]) => ({ x: left, y: top, width, height })),
    );
    const inside = (b: Box) =>
      b.x >= this.area.x &&
      b.y >= this.area.y &&
      b.x + b.width <= this.area.x + this.area.width &&
      b.y + b.height <= this.area.y + this.area.height;
    const free = (b: Box) => ![...this.boxes, ...this.marks].some((o) => overlaps(b, o));
    const box = boxes.find((b) => inside(b) && free(b)) ?? boxes.find(inside) ?? boxes[0];
    this.draw(text, box, fill, px);
  }

  /** The label with its left edge at x, centred on y. */
  write(text: string, x: number, y: number, fill: string, px: number): void {
    const { width, height } = this.measure(text, px);
    this.draw(text, { x, y: y - height / 2, width, height }, fill, px);
  }

  private measure(text: string, px: number): { width: number; height: number } {
    this.context.save();
    this.context.font = `${px}px system-ui, sans-serif`;
    const width = this.context.measureText(text).width;
    this.context.restore();
    return { width, height: px };
  }

  private draw(text: string, box: Box, fill: string, px: number): void {
    const context = this.context;
    context.save();
    context.fillStyle = fill;
    context.font = `${px}px system-ui, sans-serif`;
    context.textBaseline = 'middle';
    context.fillText(text, box.x, box.y + box.height / 2);
    context.restore();
    this.boxes.push({ text, px, ...box });
  }
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

define(SoftLookup);
