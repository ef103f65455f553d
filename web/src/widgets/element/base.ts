// What every attention-lab widget shares: its contract (contracts.ts) read into settings, the
// core, a lazy start when the widget nears the viewport, URL-hash state, typed DOM events, error
// display and the colour theme. Widgets are framework-free custom elements configured by
// attributes.
//
// Lifecycle: a widget starts (loads the core and its library) when it first nears the viewport
// (a graded one under a host's progress store: at once), then draw() draws it from `settings`. Changing an attribute draws it again (several changes
// in one task, once). Removing it from the page calls teardown() (a sketch, a Worker), and a
// drawing it was in the middle of announces nothing (no data-ready, no attn-ready); adding it
// again draws it anew. Moving it (removed and added in the same task) keeps it as it is.
//
// Properties: each declared attribute has a property of its name in camelCase (d-model: dModel),
// made from the contract when the class is defined (define()). It reads the value the widget
// uses (the reader's, where they changed it in the widget, else the attribute parsed, else the
// default) and writes the attribute, so the widget redraws as for any attribute change.
import { getAttentionCore, getCore, loadedConfigs } from '../../core/instance';
import type { AttentionCore, Configs } from '../../core';
import {
  AuthorError,
  attributeText,
  attributesOf,
  defaultValue,
  formatValue,
  isCore,
  parseAttribute,
  propertyName,
  type AttributeSpec,
  type EventDetail,
  type EventName,
  type Said,
  type Settings,
  type WidgetContract,
} from './contract';
import { attributeError } from './attribute-errors';
import { readState, writeState } from './hash-state';
import {
  installedStore,
  localProgressStore,
  ProgressStoreError,
  widgetKey,
  type ProgressStore,
} from './progress-store';
import { HOST_CLASS } from './tags';
import { checkStylesheet } from './style-check';
import { watchPageScheme } from './page-scheme';
import { checkTheme } from './page-theme';
import { showFailure } from '../../host/failure';
import { languageOf, numberLocale } from '../../common/language';
import { formatLocaleNumber } from '../../common/locale-numbers';
import { messagesIn, textAround, type Catalog, type MessageParams, type Messages } from '../../common/messages';

/** The widgets that start as soon as they are on the page, wherever it shows them (startAtOnce). */
const atOnce = new WeakSet<Element>();

/**
 * Makes `widget` start as soon as it is on the page rather than when it nears the viewport: a
 * framed widget, whose frame must report its height wherever the framing page shows it.
 */
export function startAtOnce(widget: Element): void {
  atOnce.add(widget);
}

type Phase = 'idle' | 'waiting' | 'starting' | 'started';

export abstract class AttnElement<C extends WidgetContract = WidgetContract> extends HTMLElement {
  /** The widget's attributes and events (contracts.ts). */
  static readonly contract: WidgetContract;
  /**
   * The core the widget draws with: the whole core, the attention core (a smaller module, for a
   * widget that needs only attention; a widget that needs more declares `core: Core`), or none.
   */
  static readonly needsCore: 'whole' | 'attention' | false = 'whole';
  /**
   * The widget's own messages (web/src/messages/<language>/<namespace>.json), and those of the
   * shared parts it shows (a heat map's), looked up in this order. The common ones (the errors
   * any widget may show) load only when it shows one.
   */
  static readonly messages: readonly Catalog[] = [];
  /**
   * A graded widget (quiz, exercises): where a host installed a progress store (a course
   * package), it starts at once rather than when near the viewport, so the page's score counts
   * every item from the start.
   */
  static readonly graded: boolean = false;

  static get observedAttributes(): string[] {
    return attributesOf(this.contract).map((a) => a.name);
  }

  static {
    // The reader switched the system's colour scheme: started widgets redraw their canvases.
    if (typeof matchMedia === 'function') {
      matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
        for (const node of document.querySelectorAll('[data-ready]'))
          if (node instanceof AttnElement) node.themeChanged();
      });
    }
  }

  protected core!: AttentionCore;
  /** What the widget says, in the language it speaks now (its lang, else the page's, else the reader's). */
  protected messages!: Messages;
  /** The attributes as read for the current drawing (their defaults where absent). */
  protected settings!: Settings<C>;
  private lifecycle: Phase = 'idle';
  private observer?: IntersectionObserver;
  private stopPending = false;
  private renders: Promise<void> = Promise.resolve();
  private renderQueued = false;
  /**
   * Values newer than the attributes, as attribute text: the reader's (remember()) or, at the
   * start, those the URL hash kept. An attribute the host page changes drops its entry.
   */
  private overrides = new Map<string, string>();
  private inlineText?: string | null;
  /** the settings kept with the reader's progress are read at the next drawing (at start, and when persist changes) */
  private savedSettingsDue = true;
  /** counts starts, so that a start overtaken by a removal and a new start gives up */
  private starts = 0;

  private get contract(): WidgetContract {
    return (this.constructor as typeof AttnElement).contract;
  }

  /**
   * Gives the class a property per declared attribute (define() calls it once, before the
   * element is defined). A name the class uses already is a mistake in the widget: it throws.
   */
  static reflectAttributes(): void {
    for (const spec of attributesOf(this.contract)) {
      if ('global' in spec && spec.global) continue;
      const name = propertyName(spec.name);
      if (name in this.prototype)
        throw new Error(`<${this.contract.tag}>: ${name} is taken, attribute ${spec.name} needs it`);
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        enumerable: true,
        get(this: AttnElement) {
          return this.propertyValue(spec);
        },
        set(this: AttnElement, value: unknown) {
          const configs = this.core?.configs ?? loadedConfigs();
          const fallback = isCore(spec) ? configs && defaultValue(spec, configs) : spec.default;
          const text = attributeText(value, fallback);
          if (text === null) this.removeAttribute(spec.name);
          else this.setAttribute(spec.name, text);
        },
      });
    }
  }

  constructor() {
    super();
    // A property set before the element was defined (the autoloader defines each widget when
    // its first element appears) is an own property that hides the accessor: set it again
    // through the accessor, so that it reaches the attribute.
    for (const spec of attributesOf(this.contract)) {
      const name = propertyName(spec.name);
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const self = this as unknown as Record<string, unknown>;
      const value = self[name];
      delete self[name];
      self[name] = value;
    }
  }

  /**
   * What a property reads: the reader's value (the widget's control, or the URL hash), else the
   * attribute, else its default; undefined when the attribute does not parse (the widget says
   * why), or for an attribute the core defines until a core has loaded (its type, range and
   * default are the core's).
   */
  private propertyValue(spec: AttributeSpec): unknown {
    const configs = (this.core?.configs ?? loadedConfigs()) as Configs;
    if (isCore(spec) && !configs) return undefined;
    const override = this.overrides.get(spec.name);
    const raw = this.getAttribute(spec.name);
    for (const text of [override, raw]) {
      if (text === undefined || text === null) continue;
      try {
        return parseAttribute(spec, text, configs, document.baseURI);
      } catch {
        if (text === raw) return undefined;
      }
    }
    return defaultValue(spec, configs);
  }

  connectedCallback(): void {
    this.classList.add(HOST_CLASS);
    watchPageScheme();
    this.stopPending = false;
    if (this.lifecycle === 'starting' || this.lifecycle === 'started') return; // moved, or back before it stopped
    this.lifecycle = 'waiting';
    if ((this.constructor as typeof AttnElement).graded && installedStore()) return void this.start();
    // Heavy work (and heavy libraries) wait until the widget is within 600 px of view.
    this.observer ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void this.start();
      },
      { rootMargin: '600px 0px' },
    );
    this.observer.observe(this);
    if (atOnce.has(this)) void this.start();
  }

  disconnectedCallback(): void {
    this.observer?.unobserve(this);
    // A move disconnects and connects again in the same task: stop only if it stays out.
    this.stopPending = true;
    queueMicrotask(() => {
      if (!this.stopPending || this.isConnected) return;
      this.stopPending = false;
      if (this.lifecycle === 'started') this.teardown();
      this.lifecycle = 'idle';
      this.overrides.clear();
      this.savedSettingsDue = true;
    });
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value) return;
    if (name === 'theme') {
      if (value !== null) checkTheme(value, `<${this.localName} theme>`);
      if (this.dataset.ready !== undefined) this.themeChanged();
      return;
    }
    if (name === 'state-key') this.overrides.clear();
    else this.overrides.delete(name);
    if (name === 'persist') this.savedSettingsDue = true;
    if (this.lifecycle === 'started') this.scheduleRender();
  }

  private async start(): Promise<void> {
    if (this.lifecycle !== 'waiting') return;
    this.lifecycle = 'starting';
    const start = ++this.starts;
    this.observer?.disconnect();
    try {
      // The widget's own library downloads while the core loads, not after it.
      const needsCore = (this.constructor as typeof AttnElement).needsCore;
      const loading = needsCore === 'whole' ? getCore() : needsCore === 'attention' ? getAttentionCore() : undefined;
      const [core] = await Promise.all([loading, this.preload()]);
      if (core) this.core = core;
    } catch (error) {
      this.lifecycle = 'idle';
      return this.showFatal(error);
    }
    if (this.lifecycle !== 'starting' || start !== this.starts) return; // removed meanwhile
    this.lifecycle = 'started';
    this.scheduleRender();
  }

  /** Draws the widget again once the current drawing (if any) is done; calls in one task coalesce. */
  private scheduleRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    this.renders = this.renders.then(async () => {
      this.renderQueued = false;
      if (this.lifecycle !== 'started') return;
      const fresh = this.overrides.size === 0;
      if (this.savedSettingsDue) this.loadSavedSettings();
      if (fresh) this.loadHashState(); // a link's settings over the saved ones
      this.teardown();
      const start = this.starts;
      try {
        await this.loadMessages();
        this.settings = this.readSettings();
        await this.draw();
        // Removed while it drew: the removal's teardown() ran before the drawing ended, so what
        // the rest of the drawing made (a Worker, an observer) is released now, and nothing is
        // announced. If it was started again meanwhile, the render that start queued draws anew.
        if (this.lifecycle !== 'started' || start !== this.starts) return this.teardown();
        this.dataset.ready = '';
        void checkStylesheet(this);
        this.dispatchEvent(new CustomEvent('attn-ready', { bubbles: true }));
      } catch (error) {
        delete this.dataset.ready;
        // The core refusing what an attribute set is the author's mistake too, in their words.
        const authors = error instanceof AuthorError ? error : attributeError(error, this.contract);
        if (authors) await this.showAuthorError(authors);
        else this.showFatal(error);
      }
    });
  }

  /** The messages in the language the widget speaks now (loaded once per page and language). */
  private async loadMessages(): Promise<void> {
    const own = (this.constructor as typeof AttnElement).messages;
    this.messages = await messagesIn(languageOf(this), ...own);
  }

  /** The message `key` of the widget's catalogs in its language. */
  protected text(key: string, params?: MessageParams): string {
    return this.messages.text(key, params);
  }

  /** The message `key` with elements in the places of its Node arguments (textAround in messages.ts). */
  protected textAround(key: string, params: Record<string, string | number | Node>): (Node | string)[] {
    return textAround(this.messages, key, params);
  }

  /** A number as the widget's language writes it: `digits` decimals when given (fixed). */
  protected formatNumber(value: number, digits?: number): string {
    return formatLocaleNumber(value, numberLocale(this.messages.language), digits);
  }

  /** The hash's values under this widget's state-key, as overrides (a bad state-key reads none). */
  private loadHashState(): void {
    const stateKey = this.getAttribute('state-key');
    const spec = this.spec('state-key');
    if (!stateKey || !spec || !this.parses(spec, stateKey)) return;
    const saved = readState(stateKey);
    for (const a of attributesOf(this.contract))
      if (a.hashKey !== undefined && saved[a.hashKey] !== undefined) this.overrides.set(a.name, saved[a.hashKey]);
  }

  /** The settings the reader changed, as saved (persist), as overrides; those that no longer parse are dropped. */
  private loadSavedSettings(): void {
    this.savedSettingsDue = false;
    const saved = this.loadProgress('settings');
    if (!saved || typeof saved !== 'object') return;
    for (const [name, text] of Object.entries(saved as Record<string, unknown>)) {
      const spec = this.spec(name);
      if (spec && typeof text === 'string' && this.getAttribute(name) !== text) this.overrides.set(name, text);
    }
  }

  /** Where the widget keeps the reader's work: the host's store, else localStorage with persist="on", else nowhere. */
  protected get progressStore(): ProgressStore | undefined {
    return installedStore() ?? (this.getAttribute('persist') === 'on' ? localProgressStore : undefined);
  }

  /** The part `part` of what the widget saved ({settings, answers, …}), or undefined. */
  protected loadProgress(part: string): unknown {
    const saved = this.progressStore?.load(widgetKey(this));
    return saved && typeof saved === 'object' ? (saved as Record<string, unknown>)[part] : undefined;
  }

  /**
   * Saves `value` as the part `part` of what the widget keeps (undefined: drops the part), when
   * it keeps anything. A store that refuses is said in the widget; the widget goes on.
   */
  protected saveProgress(part: string, value: unknown): void {
    const store = this.progressStore;
    if (!store) return;
    const key = widgetKey(this);
    const saved = store.load(key);
    const whole: Record<string, unknown> = saved && typeof saved === 'object' ? { ...saved } : {};
    if (value === undefined) delete whole[part];
    else whole[part] = value;
    try {
      if (Object.keys(whole).length) store.save(key, whole);
      else store.remove(key);
      this.querySelector(':scope > .attn-storage-note')?.remove();
    } catch (error) {
      void this.showStorageNote(error);
    }
  }

  /** Forgets what the widget saved of the reader's work and draws it afresh. */
  forgetProgress(): void {
    this.progressStore?.remove(widgetKey(this));
    this.overrides.clear();
    if (this.lifecycle === 'started') this.scheduleRender();
  }

  /** A save that failed, said at the widget's foot (once), in its language; the console has the browser's words. */
  private async showStorageNote(error: unknown): Promise<void> {
    console.warn(`<${this.localName}>: progress not saved: ${(error as Error).message}`);
    const reason = error instanceof ProgressStoreError ? error.reason : 'refused';
    let text = 'Your progress here is not being saved.';
    try {
      const { default: common } = await import('attn-messages:common');
      const messages = await messagesIn(this.messages?.language ?? languageOf(this), common);
      text = messages.text(reason === 'full' ? 'storageFull' : 'storageRefused');
    } catch {
      // the English above
    }
    const note =
      this.querySelector<HTMLElement>(':scope > .attn-storage-note') ??
      this.appendChild(el('p', { class: 'attn-storage-note', role: 'status' }));
    note.textContent = text;
  }

  /** The attribute `name` as written, else its default as attribute text. */
  private attributeOrDefault(name: string): string | undefined {
    const raw = this.getAttribute(name);
    const spec = this.spec(name);
    if (raw !== null || !spec) return raw ?? undefined;
    const configs = (this.core?.configs ?? loadedConfigs()) as Configs | undefined;
    const value = isCore(spec) ? configs && defaultValue(spec, configs) : spec.default;
    return value === undefined ? undefined : formatValue(value);
  }

  private spec(name: string): AttributeSpec | undefined {
    return attributesOf(this.contract).find((a) => a.name === name);
  }

  private parses(spec: AttributeSpec, text: string): boolean {
    try {
      parseAttribute(spec, text, this.core?.configs as Configs, document.baseURI);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Every attribute of the contract as its value: an override (ignored with a warning when it
   * does not parse), else the attribute (an AuthorError naming it when it does not parse), else
   * its default (the core's, for a core attribute).
   */
  private readSettings(): Settings<C> {
    const settings: Record<string, unknown> = {};
    const configs = this.core?.configs as Configs; // undefined for a widget without the core, which has no core attributes
    for (const spec of this.contract.attributes) {
      const override = this.overrides.get(spec.name);
      if (override !== undefined) {
        try {
          settings[spec.name] = parseAttribute(spec, override, configs, document.baseURI);
          continue;
        } catch (error) {
          console.warn(`<${this.localName}>: the saved ${spec.name} is ignored: ${(error as Error).message}`);
          this.overrides.delete(spec.name);
        }
      }
      const raw = this.getAttribute(spec.name);
      if (raw !== null) {
        settings[spec.name] = readAttribute(spec, raw, configs);
      } else if (isCore(spec)) {
        settings[spec.name] = (configs[spec.core.config].defaults as unknown as Record<string, unknown>)[spec.core.key];
      } else {
        settings[spec.name] = spec.default;
      }
    }
    return settings as Settings<C>;
  }

  /**
   * The reader changed settings in the widget: they stay through later drawings (until the host
   * page changes that attribute), and in the URL hash when the widget has a state-key.
   */
  protected remember(values: Partial<Settings<C>>): void {
    const hash: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const text = formatValue(value);
      this.overrides.set(name, text);
      (this.settings as Record<string, unknown>)[name] = value;
      const key = this.spec(name)?.hashKey;
      if (key !== undefined) hash[key] = text;
    }
    const stateKey = (this.settings as Record<string, unknown>)['state-key'];
    if (typeof stateKey === 'string' && Object.keys(hash).length) writeState(stateKey, hash);
    if (this.progressStore) {
      // Kept: what differs from the attribute (else its default), so a widget that remembers as
      // it draws keeps nothing of its own.
      const saved = this.loadProgress('settings');
      const settings = saved && typeof saved === 'object' ? { ...(saved as Record<string, string>) } : {};
      for (const name of Object.keys(values)) {
        const text = this.overrides.get(name)!;
        if (text === this.attributeOrDefault(name)) delete settings[name];
        else settings[name] = text;
      }
      this.saveProgress('settings', Object.keys(settings).length ? settings : undefined);
    }
  }

  /** Starts loading what draw() will need besides the core (a library); runs alongside it. */
  protected preload(): Promise<unknown> {
    return Promise.resolve();
  }

  /** Draws the widget from `settings` (replacing what it drew before). */
  protected abstract draw(): Promise<void> | void;

  /** Releases what draw() started that the DOM does not hold (a sketch, a Worker, a timer). */
  protected teardown(): void {}

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

  /** The text of the author's child <script type="application/json">, read before the first drawing replaces it. */
  protected inlineJson(): string | null {
    this.inlineText ??= this.querySelector(':scope > script[type="application/json"]')?.textContent ?? null;
    return this.inlineText;
  }

  protected emit<N extends EventName<C>>(type: N, detail: EventDetail<C, N>): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /**
   * An author's mistake (an attribute, their data): said in the widget and on the console. On
   * screen in the widget's language, from the common catalog, loaded now (errors are rare): in
   * English the error's own words, the most precise; in another, the catalog's, built from the
   * error's code and values. On the console, and where the catalog cannot load, in English.
   */
  private async showAuthorError(error: AuthorError): Promise<void> {
    console.warn(`<${this.localName}>: ${error.message}`);
    let shown = `<${this.localName}>: ${error.message}`;
    try {
      const { default: common } = await import('attn-messages:common');
      const own = (this.constructor as typeof AttnElement).messages;
      const messages = await messagesIn(this.messages?.language ?? languageOf(this), ...own, common);
      shown = messages.text('authorError', { tag: this.localName, message: authorErrorText(messages, error) });
    } catch {
      // the English above
    }
    this.replaceChildren(el('p', { class: 'attn-error', role: 'alert' }, shown));
  }

  private showFatal(error: unknown): void {
    void showFailure(this, error);
  }
}

/** An attribute's text as its value, or the AuthorError a widget shows for it ("attribute heads must be …"). */
export function readAttribute(spec: AttributeSpec, raw: string, configs: Configs): unknown {
  try {
    return parseAttribute(spec, raw, configs, document.baseURI);
  } catch (error) {
    throw new AuthorError(`attribute ${(error as Error).message}`, (error as AuthorError).said);
  }
}

/**
 * An author's mistake as a widget words it after its tag: in English the error's own words, in
 * another language the catalog's (`messages` holds the common catalog), built from its `said`.
 */
export function authorErrorText(messages: Messages, error: AuthorError): string {
  const translated = error.said && messages.language !== 'en' && !messages.isEnglish(error.said.key);
  return translated ? say(messages, error.said!) : error.message;
}

/** A message of `messages` with its arguments, those that are messages said first. */
function say(messages: Messages, said: Said): string {
  const parts = Object.entries(said.parts ?? {}).map(([name, part]) => [name, say(messages, part)]);
  return messages.text(said.key, { ...said.params, ...Object.fromEntries(parts) });
}

/** Registers a widget under its contract's tag, once (a page may load the bundle twice), with its properties. */
export function define(
  element: CustomElementConstructor & Pick<typeof AttnElement, 'contract' | 'reflectAttributes'>,
): void {
  const { tag } = element.contract;
  if (customElements.get(tag)) return;
  element.reflectAttributes();
  customElements.define(tag, element);
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
