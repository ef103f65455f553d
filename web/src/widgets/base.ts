// What every attention-lab widget shares: the core, a lazy start when the widget nears the
// viewport, URL-hash state, DOM events, error display and the colour theme. Widgets are
// framework-free custom elements configured by attributes.
import { getCore } from '../core-instance';
import type { Configs, Core } from '../core';
import { readState, writeState } from '../hash-state';
import { showFailure } from '../host/failure';

/** An attribute that sets an option of a core call: its default and range are the core's. */
export interface CoreAttribute {
  attribute: string;
  config: keyof Configs;
  key: string;
}

/** The colour themes a page (?theme=) or a widget (theme="") can force; auto follows the reader's preference. */
const THEMES = ['light', 'dark', 'auto'];

/** Is `value` a theme? Otherwise warns, naming `where`, and the caller ignores it. */
function checkTheme(value: string, where: string): boolean {
  if (THEMES.includes(value)) return true;
  console.warn(`${where}: theme must be light, dark or auto, got "${value.slice(0, 40)}"; ignored`);
  return false;
}

/**
 * Forces the page's colour scheme from its URL's ?theme=light|dark|auto (index.html, embed.html),
 * as <html data-attn-theme>, which page.css and widgets.css follow.
 */
export function applyPageTheme(): void {
  const theme = new URLSearchParams(location.search).get('theme');
  if (theme === null || !checkTheme(theme, '?theme')) return;
  if (theme === 'auto') delete document.documentElement.dataset.attnTheme;
  else document.documentElement.dataset.attnTheme = theme;
}

export abstract class AttnElement extends HTMLElement {
  /** The attributes each widget passes to the core (the embedding guide lists them from here). */
  static readonly coreAttributes: readonly CoreAttribute[] = [];

  /** theme="light|dark|auto": CSS (widgets.css) restyles the widget; themeChanged() redraws what CSS cannot. */
  static observedAttributes = ['theme'];

  static {
    // The reader switched the system's colour scheme: started widgets redraw their canvases.
    if (typeof matchMedia === 'function') {
      matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
        for (const node of document.querySelectorAll('[data-ready]')) if (node instanceof AttnElement) node.themeChanged();
      });
    }
  }

  protected core!: Core;
  private started = false;
  private observer?: IntersectionObserver;

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name !== 'theme') return;
    if (value !== null) checkTheme(value, `<${this.localName} theme>`);
    if (this.dataset.ready !== undefined) this.themeChanged();
  }

  /** Redraws what the theme's colours cannot restyle through CSS (a canvas); called once started. */
  protected themeChanged(): void {}

  /**
   * The named --attn-* colours as this widget shows them now (its theme applied), as rgb()
   * strings: a canvas cannot read light-dark() pairs.
   */
  protected themeColours<K extends string>(names: readonly K[]): Record<K, string> {
    const probe = this.appendChild(el('span', { hidden: '' }));
    const colours = {} as Record<K, string>;
    for (const name of names) {
      probe.style.color = `var(${name})`;
      colours[name] = getComputedStyle(probe).color;
    }
    probe.remove();
    return colours;
  }

  connectedCallback(): void {
    if (this.started) return;
    // Heavy work (and heavy libraries) wait until the widget is within 600 px of view.
    this.observer ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void this.start();
      },
      { rootMargin: '600px 0px' },
    );
    this.observer.observe(this);
  }

  disconnectedCallback(): void {
    this.observer?.unobserve(this);
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.observer?.disconnect();
    try {
      // The widget's own library downloads while the core loads, not after it.
      [this.core] = await Promise.all([getCore(), this.preload()]);
      await this.setup();
      this.dataset.ready = '';
      this.dispatchEvent(new CustomEvent('attn-ready', { bubbles: true }));
    } catch (error) {
      this.showFatal(error);
    }
  }

  /** Starts loading what setup() will need besides the core (a library); runs alongside it. */
  protected preload(): Promise<unknown> {
    return Promise.resolve();
  }

  /** Builds the widget once the core is loaded. */
  protected abstract setup(): Promise<void> | void;

  /** Settings from the URL hash, when the widget has a state-key. */
  protected savedState(): Record<string, string> {
    const key = this.getAttribute('state-key');
    return key ? readState(key) : {};
  }

  protected saveState(values: Record<string, string | number | boolean>): void {
    const key = this.getAttribute('state-key');
    if (key) writeState(key, values);
  }

  protected emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /**
   * The attribute as an option of a core call: undefined when absent, so the core's default
   * applies; anything else as a number, for the core to check (its message names the option).
   */
  protected optionAttribute(name: string): number | undefined {
    const raw = this.getAttribute(name);
    return raw === null || raw.trim() === '' ? undefined : Number(raw);
  }

  protected numberAttribute(name: string, fallback: number): number {
    const raw = this.getAttribute(name);
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) ? value : fallback;
  }

  private showFatal(error: unknown): void {
    void showFailure(this, error);
  }
}

/**
 * Fetches an author's JSON data file named by a `src` attribute, relative to the page. Only
 * http(s) addresses are fetched: a javascript:, data: or file: address is refused with an
 * error naming it, before any request.
 */
export async function fetchJson(src: string, what: string): Promise<unknown> {
  const url = new URL(src, document.baseURI);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${what}: src must be an http(s) address, got "${src.slice(0, 80)}"`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${what}: ${src.slice(0, 80)} answered ${response.status}`);
  return response.json();
}

/** Registers a custom element once (a page may load the bundle twice). */
export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

/** el('button', {type: 'button'}, 'Restart') — attributes set as attributes, text as text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}
