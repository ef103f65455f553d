// <attn-soft-lookup>: attention as a soft dictionary lookup, drawn with p5.js.
//
// Keys (arrows) and their values (squares) in 2-D; the reader drags the query arrow (mouse,
// touch, or arrow keys when the sketch has focus). The core computes the weights of
// softmax(q K^T / sqrt(2) / temperature) and the output, the weighted mean of the values,
// drawn as a dot. Attributes and events: SOFT_LOOKUP in contracts.ts.
import type p5 from 'p5';
import type { Mat } from '../core';
import { attributeSpec, AuthorError } from './contract';
import { SOFT_LOOKUP } from './contracts';
import { AttnElement, define, el } from './base';

const WORLD = 3.2; // the canvas shows [-WORLD, WORLD] on both axes
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
    const [{ default: P5 }, ...addons] = await Promise.all([import('p5/core'), import('p5/math'), import('p5/shape'), import('p5/color')]);
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

  private keys: number[][] = [];
  private values: number[][] = [];
  private query = START;
  private scale = true;
  private temperature: Temperature = 1;
  private weights: number[] = [];
  private output = [0, 0];
  private playing = true;
  private phase = 0;
  private sketch?: p5;
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
    if (values.length !== keys.length) throw new AuthorError(`attribute values must hold as many points as keys (${keys.length}), got ${values.length}`);
    this.keys = keys;
    this.values = values;
    this.query = query ? query.map((v) => Math.max(-WORLD, Math.min(WORLD, v))) : START;
    this.playing = !query && !matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.phase = 0;
    this.scale = scale === 'on';
    this.temperature = temperature;

    this.buildControls();
    this.compute();
    this.updateReadout(false);
    this.colours = this.readColours();
    const P5 = await loadP5();
    this.sketch = new P5((p: p5) => this.defineSketch(p), this.canvasHost);
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
    this.sketch?.remove();
    this.sketch = undefined;
  }

  private buildControls(): void {
    const scaleBox = el('input', { type: 'checkbox' });
    scaleBox.checked = this.scale;
    scaleBox.addEventListener('change', () => {
      this.scale = scaleBox.checked;
      this.changed();
    });
    const temperature = el('select', {}, ...TEMPERATURES.map((t) => el('option', { value: String(t) }, String(t))));
    temperature.value = String(this.temperature);
    temperature.addEventListener('change', () => {
      this.temperature = Number(temperature.value) as Temperature;
      this.changed();
    });
    this.pauseButton = el('button', { type: 'button' }, '');
    this.pauseButton.addEventListener('click', () => this.setPlaying(!this.playing));
    const restart = el('button', { type: 'button' }, 'Restart');
    restart.addEventListener('click', () => {
      this.query = START;
      this.phase = 0;
      this.setPlaying(!matchMedia('(prefers-reduced-motion: reduce)').matches);
      this.changed();
    });
    this.canvasHost = el('div', {
      class: 'lookup-canvas',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'draggable query',
      'aria-label': 'Query vector. Drag it, or use the arrow keys to move it (Shift for larger steps).',
    });
    this.canvasHost.addEventListener('keydown', (event) => this.onKey(event));
    this.readout = el('p', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.replaceChildren(
      el('div', { class: 'attn-panel' },
        this.canvasHost,
        el('div', { class: 'attn-controls' },
          el('label', {}, scaleBox, 'divide by √d_k'),
          el('label', {}, 'temperature', temperature),
          this.pauseButton,
          restart),
        this.readout),
    );
    this.setPlaying(this.playing);
  }

  private setPlaying(playing: boolean): void {
    const stopping = this.playing && !playing;
    this.playing = playing;
    this.pauseButton.textContent = playing ? 'Pause' : 'Play';
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
    const n = this.keys.length;
    const query: Mat = { rows: 1, cols: 2, data: Float32Array.from(this.query.map((v) => v / this.temperature)) };
    const keys: Mat = { rows: n, cols: 2, data: Float32Array.from(this.keys.flat()) };
    const values: Mat = { rows: n, cols: 2, data: Float32Array.from(this.values.flat()) };
    const result = this.core.attention(query, keys, values, { scale: this.scale });
    this.weights = Array.from(result.weights.data);
    this.output = Array.from(result.output.data);
  }

  private changed(): void {
    this.compute();
    this.sketch?.redraw();
    this.remember({ query: [this.query[0], this.query[1]], scale: this.scale ? 'on' : 'off', temperature: this.temperature });
    this.emit('attn-change', { query: [...this.query], weights: [...this.weights], output: [...this.output] });
    // Screen readers hear the weights once the query settles, not on every pixel.
    clearTimeout(this.announceTimer);
    this.announceTimer = window.setTimeout(() => this.updateReadout(true), 400);
  }

  describe(): string {
    const parts = this.weights.map((w, i) => `key ${i + 1}: ${w.toFixed(2)}`);
    const top = this.weights.indexOf(Math.max(...this.weights));
    return `Query at (${this.query[0].toFixed(1)}, ${this.query[1].toFixed(1)}). Weights ${parts.join(', ')}; ` +
      `key ${top + 1} weighs most. Output at (${this.output[0].toFixed(2)}, ${this.output[1].toFixed(2)}).`;
  }

  private onKey(event: KeyboardEvent): void {
    const step = event.shiftKey ? 0.5 : 0.1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    this.setPlaying(false);
    this.moveQuery(this.query[0] + move[0], this.query[1] + move[1]);
  }

  private moveQuery(x: number, y: number): void {
    this.query = [Math.max(-WORLD, Math.min(WORLD, x)), Math.max(-WORLD, Math.min(WORLD, y))];
    this.changed();
  }

  private defineSketch(p: p5): void {
    let size = 300;
    const barsHeight = 90;
    const toScreen = (x: number, y: number): [number, number] => [((x + WORLD) / (2 * WORLD)) * size, ((WORLD - y) / (2 * WORLD)) * size];
    const toWorld = (sx: number, sy: number): [number, number] => [(sx / size) * 2 * WORLD - WORLD, WORLD - (sy / size) * 2 * WORLD];
    let dragging = false;
    const label = (text: string, x: number, y: number, fill: string, px: number) => {
      const context = p.drawingContext as CanvasRenderingContext2D;
      context.fillStyle = fill;
      context.font = `${px}px system-ui, sans-serif`;
      context.fillText(text, x, y);
    };

    p.setup = () => {
      size = Math.min(this.canvasHost.clientWidth || 300, 420);
      const canvas = p.createCanvas(size, size + barsHeight);
      canvas.elt.addEventListener('pointerdown', (event: PointerEvent) => {
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
        this.query = [r * Math.cos(this.phase + 0.7), r * Math.sin(this.phase + 0.7)];
        this.compute();
        if (Math.round(this.phase * 100) % 30 === 0) {
          this.emit('attn-change', { query: [...this.query], weights: [...this.weights], output: [...this.output] });
          this.updateReadout(false);
        }
      }
      const { '--attn-fg': fg, '--attn-muted': muted, '--attn-accent': accent, '--attn-accent-2': accent2, '--attn-rule': rule } = this.colours;
      p.clear();
      p.stroke(rule);
      p.strokeWeight(1);
      const [ox, oy] = toScreen(0, 0);
      p.line(0, oy, size, oy);
      p.line(ox, 0, ox, size);
      // keys as arrows, values as squares, line width by weight
      this.keys.forEach((k, i) => {
        const w = this.weights[i] ?? 0;
        const [kx, ky] = toScreen(k[0], k[1]);
        const [vx, vy] = toScreen(this.values[i][0], this.values[i][1]);
        p.stroke(muted);
        p.strokeWeight(1 + 5 * w);
        p.line(ox, oy, kx, ky);
        p.noStroke();
        p.fill(muted);
        p.circle(kx, ky, 7);
        p.fill(accent2);
        p.rect(vx - 6, vy - 6, 12, 12);
        label(`k${i + 1}`, kx + 6, ky - 6, fg, 12);
        label(`v${i + 1}`, vx + 8, vy + 4, fg, 12);
      });
      // the query
      const [qx, qy] = toScreen(this.query[0], this.query[1]);
      p.stroke(accent);
      p.strokeWeight(3);
      p.line(ox, oy, qx, qy);
      p.noStroke();
      p.fill(accent);
      p.circle(qx, qy, 14);
      // the output: the weighted mean of the values
      const [outx, outy] = toScreen(this.output[0], this.output[1]);
      p.fill(fg);
      p.circle(outx, outy, 12);
      label('output', outx + 9, outy + 14, fg, 12);
      // bars: one per key
      const barWidth = size / this.keys.length;
      this.weights.forEach((w, i) => {
        const h = w * (barsHeight - 24);
        p.fill(accent);
        p.rect(i * barWidth + 6, size + barsHeight - 18 - h, barWidth - 12, h);
        label(`k${i + 1} ${w.toFixed(2)}`, i * barWidth + 6, size + barsHeight - 4, fg, 11);
      });
    };
  }
}

define('attn-soft-lookup', SoftLookup);
