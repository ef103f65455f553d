// <attn-soft-lookup>: attention as a soft dictionary lookup, drawn on a plain 2-D canvas.
//
// Keys (arrows) and their values (squares) in 2-D; the reader drags the query arrow (mouse,
// touch, or arrow keys when the sketch has focus). The core computes the weights of
// softmax(q K^T / sqrt(2) / temperature) and the output, the weighted mean of the values,
// drawn as a dot. Attributes and events: SOFT_LOOKUP in contracts.ts.
//
// Until the reader takes the query, it circles the origin. That animation runs only while the
// sketch is on screen, the tab is shown, motion is not reduced, and the reader has done something
// (scrolled, pointed, pressed a key) in the last few seconds: an idle page costs nothing, and a
// page just loaded, before any input, shows the query still (its load is not slowed by frames).
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
const ORBIT_RADIUS = 1.9;
const ORBIT_SPEED = 0.6; // radians per second
/** The least time between two frames of the orbit, in ms: about 30 a second, smooth enough at its speed and half the work. */
const ORBIT_FRAME_MS = 28;
/** How often (in radians of the orbit) the circling query announces itself with attn-change. */
const ORBIT_EVENT_STEP = 0.3;
/** How long the query keeps circling after the reader's last input, in ms. */
const SETTLE_MS = 2000;
/** How near the query point (CSS px) a touch or pen must land to take it; farther, the page scrolls. */
const GRAB_RADIUS = 24;
/** A touch that moved less than this (CSS px) before it ended is a tap. */
const TAP_SLOP = 10;
/** What counts as the reader's input, anywhere on the page: the orbit keeps going a while after each. */
const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
const TEMPERATURES = attributeSpec(SOFT_LOOKUP, 'temperature').values;
type Temperature = (typeof TEMPERATURES)[number];

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
  private canvasHost!: HTMLElement;
  private canvas?: HTMLCanvasElement;
  private layout = planeLayout(300, 1);
  /** The device pixels per CSS pixel the canvas's backing store was sized for. */
  private density = 1;
  private readout!: HTMLElement;
  private pauseButton!: HTMLButtonElement;
  private announceTimer = 0;
  /** The pending requestAnimationFrame, 0 when none. */
  private frame = 0;
  /** The time of the last animation frame (ms, the frame's clock), undefined when not animating. */
  private lastFrame?: number;
  /** When the reader last did something (performance.now()); the orbit settles SETTLE_MS after it. */
  private lastInput = -Infinity;
  private onScreen = false;
  /** A change waits for the sketch to come on screen to be drawn. */
  private stale = false;
  private reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
  /** What draw() set up outside the DOM it replaces: observers, listeners. Undone by teardown(). */
  private undo: (() => void)[] = [];
  /** The pointer dragging the query, if any. */
  private dragging?: number;
  /** A touch or pen that landed away from the query: a tap there moves it, a swipe scrolls the page. */
  private tapStart?: { id: number; x: number; y: number };
  /** The colours, resolved for the widget's theme (read in draw and on themeChanged). */
  private colours!: ReturnType<SoftLookup['readColours']>;

  protected draw(): void {
    const { keys, values, query, scale, temperature } = this.settings;
    if (values.length !== keys.length)
      throw new AuthorError(this.text('valuesCount', { keys: keys.length, values: values.length }));
    this.shownKeys = keys;
    this.shownValues = values;
    this.shownQuery = query ? query.map((v) => Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, v))) : START;
    this.playing = !query && !this.reducedMotion.matches;
    this.phase = 0;
    this.shownScale = scale === 'on';
    this.shownTemperature = temperature;

    this.buildControls();
    this.compute();
    this.updateReadout(false);
    this.colours = this.readColours();
    this.canvas = this.makeCanvas();
    this.canvasHost.append(this.canvas);
    this.sizeCanvas();
    this.paint(); // the first drawing at once, seen or not: later ones only on screen

    // The panel's width decides the layout (the bars beside the plane, or below it on a narrow screen).
    const resize = onWidthChange(this.canvasHost, () => {
      if (this.sizeCanvas()) this.repaint();
    });
    // Drawn only on screen (with a margin, so it is ready as it scrolls in).
    const visibility = new IntersectionObserver(
      (entries) => {
        this.onScreen = entries[entries.length - 1].isIntersecting; // the latest
        if (entries.some((entry) => entry.isIntersecting)) this.seen(); // if only in passing
      },
      { rootMargin: '64px' },
    );
    visibility.observe(this.canvasHost);
    const wake = () => this.wake();
    for (const type of INPUT_EVENTS) window.addEventListener(type, wake, { passive: true, capture: true });
    document.addEventListener('visibilitychange', wake);
    this.reducedMotion.addEventListener('change', wake);
    this.undo.push(() => {
      resize.disconnect();
      visibility.disconnect();
      for (const type of INPUT_EVENTS) window.removeEventListener(type, wake, { capture: true });
      document.removeEventListener('visibilitychange', wake);
      this.reducedMotion.removeEventListener('change', wake);
    });
  }

  private readColours() {
    return this.themeColours(['--attn-fg', '--attn-muted', '--attn-rule', '--attn-accent', '--attn-accent-2']);
  }

  protected themeChanged(): void {
    this.colours = this.readColours();
    // At once, on screen or not (one drawing, not an animation): the canvas changes with the page's restyle.
    this.paint();
  }

  protected teardown(): void {
    clearTimeout(this.announceTimer);
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.lastFrame = undefined;
    this.onScreen = false;
    this.dragging = this.tapStart = undefined;
    for (const undo of this.undo.splice(0)) undo();
    this.canvas = undefined;
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
      this.setPlaying(!this.reducedMotion.matches);
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
    this.setPlaying(this.playing, false);
  }

  /** Plays or pauses the orbit; `byReader` (a button pressed) counts as input, so it runs at once. */
  private setPlaying(playing: boolean, byReader = true): void {
    const stopping = this.playing && !playing;
    this.playing = playing;
    this.pauseButton.textContent = this.text(playing ? 'pause' : 'play');
    this.pauseButton.setAttribute('aria-pressed', String(!playing));
    if (playing && byReader) this.wake();
    else if (playing) this.seen();
    else this.repaint();
    // Stopped: the weights now stay put, so say them.
    if (stopping && this.weights.length) this.updateReadout(true);
  }

  /** Whether the query circles now: playing, seen, and the reader active lately. */
  private animating(): boolean {
    return (
      this.playing &&
      this.onScreen &&
      !document.hidden &&
      !this.reducedMotion.matches &&
      this.dragging === undefined &&
      performance.now() - this.lastInput < SETTLE_MS
    );
  }

  /** The reader did something: the orbit runs again for a while. */
  private wake(): void {
    this.lastInput = performance.now();
    this.seen();
  }

  /** The sketch came into view (or may run again): draws what changed, and the orbit if the reader is active. */
  private seen(): void {
    if (this.stale || this.animating()) this.repaint();
  }

  /** Draws in the next frame, once; off screen, when it comes back on. */
  private repaint(): void {
    if (!this.canvas) return;
    if (!this.onScreen || document.hidden) {
      this.stale = true;
      return;
    }
    if (!this.frame) this.frame = requestAnimationFrame((time) => this.tick(time));
  }

  private tick(time: number): void {
    this.frame = 0;
    const animating = this.animating();
    if (animating && this.lastFrame !== undefined && time - this.lastFrame < ORBIT_FRAME_MS) {
      this.frame = requestAnimationFrame((next) => this.tick(next)); // not yet: the orbit's own frame rate
      return;
    }
    if (animating) {
      // By the clock, not by the frame, so the orbit keeps its speed at any frame rate.
      const step = this.lastFrame === undefined ? 0 : Math.min(time - this.lastFrame, 100) / 1000;
      this.lastFrame = time;
      const before = Math.floor(this.phase / ORBIT_EVENT_STEP);
      this.phase += ORBIT_SPEED * step;
      this.shownQuery = [ORBIT_RADIUS * Math.cos(this.phase + 0.7), ORBIT_RADIUS * Math.sin(this.phase + 0.7)];
      this.compute();
      if (Math.floor(this.phase / ORBIT_EVENT_STEP) !== before) {
        this.emit('attn-change', { query: [...this.shownQuery], weights: [...this.weights], output: [...this.output] });
        this.updateReadout(false);
      }
    } else {
      this.lastFrame = undefined;
    }
    this.stale = false;
    this.paint();
    if (animating) this.frame = requestAnimationFrame((next) => this.tick(next));
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

  /**
   * The reader changed the query or a setting: recompute, redraw, tell the page. `keep` false
   * (a drag still under way) leaves remembering the settings (hash, saved progress) to its end.
   */
  private changed(keep = true): void {
    this.compute();
    this.repaint();
    if (keep) this.keep();
    this.emit('attn-change', { query: [...this.shownQuery], weights: [...this.weights], output: [...this.output] });
    // Screen readers hear the weights once the query settles, not on every pixel.
    clearTimeout(this.announceTimer);
    this.announceTimer = window.setTimeout(() => this.updateReadout(true), 400);
  }

  /** Remembers the reader's settings: in the URL hash (with a state-key) and saved progress (persist). */
  private keep(): void {
    this.remember({
      query: [this.shownQuery[0], this.shownQuery[1]],
      scale: this.shownScale ? 'on' : 'off',
      temperature: this.shownTemperature,
    });
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

  private moveQuery(x: number, y: number, keep = true): void {
    this.shownQuery = [
      Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, x)),
      Math.max(-QUERY_LIMIT, Math.min(QUERY_LIMIT, y)),
    ];
    this.changed(keep);
  }

  /** Plane coordinates -> CSS pixels of the canvas. */
  private toScreen(x: number, y: number): [number, number] {
    const span = this.layout.plane - 2 * PLANE_PAD;
    return [PLANE_PAD + ((x + WORLD) / (2 * WORLD)) * span, PLANE_PAD + ((WORLD - y) / (2 * WORLD)) * span];
  }

  /** CSS pixels of the canvas -> plane coordinates. */
  private toWorld(sx: number, sy: number): [number, number] {
    const span = this.layout.plane - 2 * PLANE_PAD;
    return [((sx - PLANE_PAD) / span) * 2 * WORLD - WORLD, WORLD - ((sy - PLANE_PAD) / span) * 2 * WORLD];
  }

  /**
   * The canvas and its pointer handling. A mouse pressed anywhere on the plane takes the query
   * there and drags it. A touch or pen takes the query only when it lands on or near it (then
   * the page does not scroll for that gesture); elsewhere a swipe scrolls the page and a tap
   * moves the query to the tapped point.
   */
  private makeCanvas(): HTMLCanvasElement {
    const canvas = el('canvas', {});
    const local = (event: PointerEvent) => {
      const box = canvas.getBoundingClientRect();
      return { x: event.clientX - box.left, y: event.clientY - box.top };
    };
    const onPlane = ({ x, y }: { x: number; y: number }) => x <= this.layout.plane && y <= this.layout.plane;
    canvas.addEventListener('pointerdown', (event) => {
      const at = local(event);
      if (!onPlane(at) || this.dragging !== undefined) return; // the bars are not the plane
      const [qx, qy] = this.toScreen(this.shownQuery[0], this.shownQuery[1]);
      const onQuery = Math.hypot(at.x - qx, at.y - qy) <= GRAB_RADIUS;
      if (event.pointerType !== 'mouse' && !onQuery) {
        this.tapStart = { id: event.pointerId, ...at };
        return;
      }
      this.dragging = event.pointerId;
      this.setPlaying(false);
      canvas.setPointerCapture(event.pointerId);
      if (!onQuery) this.moveQuery(...this.toWorld(at.x, at.y), false);
    });
    // A touch that lands on the query is a drag, not a scroll: cancel the page's panning for it.
    // (Pointer events come first, so pointerdown has already decided.)
    const holdPage = (event: TouchEvent) => {
      if (this.dragging !== undefined && event.cancelable) event.preventDefault();
    };
    canvas.addEventListener('touchstart', holdPage, { passive: false });
    canvas.addEventListener('touchmove', holdPage, { passive: false });
    canvas.addEventListener('pointermove', (event) => {
      if (event.pointerId !== this.dragging) return;
      const at = local(event);
      this.moveQuery(...this.toWorld(at.x, at.y), false);
    });
    const end = (event: PointerEvent) => {
      if (event.pointerId === this.dragging) {
        this.dragging = undefined;
        this.keep(); // the drag's settings, once, where it ended
      } else if (event.pointerId === this.tapStart?.id) {
        const at = local(event);
        if (event.type === 'pointerup' && Math.hypot(at.x - this.tapStart.x, at.y - this.tapStart.y) < TAP_SLOP) {
          this.setPlaying(false);
          this.moveQuery(...this.toWorld(at.x, at.y));
        }
        this.tapStart = undefined;
      }
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    return canvas;
  }

  /**
   * Sizes the canvas for the panel's width (CSS pixels) and the screen's density (its backing
   * store, so lines stay crisp). Returns whether anything changed.
   */
  private sizeCanvas(): boolean {
    const canvas = this.canvas;
    if (!canvas) return false;
    const layout = planeLayout(this.canvasHost.clientWidth || 300, this.shownKeys.length);
    const density = window.devicePixelRatio || 1;
    if (
      canvas.width > 0 &&
      layout.width === this.layout.width &&
      layout.height === this.layout.height &&
      density === this.density
    )
      return false;
    this.layout = layout;
    this.density = density;
    canvas.width = Math.round(layout.width * density);
    canvas.height = Math.round(layout.height * density);
    canvas.style.width = `${layout.width}px`;
    canvas.style.height = `${layout.height}px`;
    return true;
  }

  /** Draws the plane and the bars for the current query and weights. */
  private paint(): void {
    const canvas = this.canvas;
    if (!canvas) return;
    if ((window.devicePixelRatio || 1) !== this.density) this.sizeCanvas(); // moved to another screen, or zoomed
    const context = canvas.getContext('2d');
    if (!context) return;
    const { layout } = this;
    const {
      '--attn-fg': fg,
      '--attn-muted': muted,
      '--attn-accent': accent,
      '--attn-accent-2': accent2,
      '--attn-rule': rule,
    } = this.colours;
    context.setTransform(this.density, 0, 0, this.density, 0, 0);
    context.clearRect(0, 0, layout.width, layout.height);
    context.lineCap = 'round';
    const line = (x0: number, y0: number, x1: number, y1: number, colour: string, width: number) => {
      context.strokeStyle = colour;
      context.lineWidth = width;
      context.beginPath();
      context.moveTo(x0, y0);
      context.lineTo(x1, y1);
      context.stroke();
    };
    const dot = (x: number, y: number, diameter: number, colour: string) => {
      context.fillStyle = colour;
      context.beginPath();
      context.arc(x, y, diameter / 2, 0, 2 * Math.PI);
      context.fill();
    };
    const box = (x: number, y: number, width: number, height: number, colour: string, radius = 0) => {
      context.fillStyle = colour;
      context.beginPath();
      if (radius && context.roundRect) context.roundRect(x, y, width, height, radius);
      else context.rect(x, y, width, height);
      context.fill();
    };

    const labels = new LabelPlacer(context, { x: 0, y: 0, width: layout.plane, height: layout.plane });
    const [ox, oy] = this.toScreen(0, 0);
    line(PLANE_PAD, oy, layout.plane - PLANE_PAD, oy, rule, 1);
    line(ox, PLANE_PAD, ox, layout.plane - PLANE_PAD, rule, 1);
    // keys as arrows, values as squares, line width by weight
    const points = this.shownKeys.map((k, i) => ({
      key: this.toScreen(k[0], k[1]),
      value: this.toScreen(this.shownValues[i][0], this.shownValues[i][1]),
    }));
    const [qx, qy] = this.toScreen(this.shownQuery[0], this.shownQuery[1]);
    const [outx, outy] = this.toScreen(this.output[0], this.output[1]);
    // What the labels must not cover: every mark.
    labels.avoid(qx, qy, 8);
    labels.avoid(outx, outy, 7);
    for (const { key, value } of points) {
      labels.avoid(key[0], key[1], 4);
      labels.avoid(value[0], value[1], 7);
    }
    points.forEach(({ key: [kx, ky], value: [vx, vy] }, i) => {
      line(ox, oy, kx, ky, muted, 1 + 5 * (this.weights[i] ?? 0));
      dot(kx, ky, 7, muted);
      box(vx - 6, vy - 6, 12, 12, accent2);
    });
    // the query
    line(ox, oy, qx, qy, accent, 3);
    dot(qx, qy, 14, accent);
    // the output: the weighted mean of the values
    dot(outx, outy, 12, fg);
    labels.place(this.text('output'), outx, outy, 9, fg, LABEL_PX);
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
      box(bars.x + nameWidth, y + row / 2 - 5, barLength, 10, rule, 3);
      box(bars.x + nameWidth, y + row / 2 - 5, Math.max(0, w) * barLength, 10, accent, 3);
      barLabels.write(`k${i + 1}`, bars.x, y + row / 2, fg, LABEL_PX);
      barLabels.write(this.formatNumber(w, 2), bars.x + nameWidth + barLength + 6, y + row / 2, fg, LABEL_PX);
    });
    // The boxes and sizes of the text drawn, in CSS pixels of the canvas, for layout checks
    // (text on a canvas is invisible to the DOM).
    const drawn = JSON.stringify([...labels.boxes, ...barLabels.boxes]);
    if (drawn !== this.canvasHost.dataset.labels) this.canvasHost.dataset.labels = drawn;
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
 * mark, and records their boxes. It sets the context's font, fill and text baseline.
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
    const font = labelFont(px);
    let width = measured.get(font + text);
    if (width === undefined) {
      this.context.font = font;
      width = this.context.measureText(text).width;
      measured.set(font + text, width);
    }
    return { width, height: px };
  }

  private draw(text: string, box: Box, fill: string, px: number): void {
    const context = this.context;
    context.fillStyle = fill;
    context.font = labelFont(px);
    context.textBaseline = 'middle';
    context.fillText(text, box.x, box.y + box.height / 2);
    this.boxes.push({ text, px, ...box });
  }
}

const labelFont = (px: number) => `${px}px system-ui, sans-serif`;
/** Label widths by font and text: the same few labels are measured on every frame of the orbit. */
const measured = new Map<string, number>();

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

define(SoftLookup);
