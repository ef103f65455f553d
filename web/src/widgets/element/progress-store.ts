// Saved progress: what a widget keeps of the reader's work (answers, settings, a finished run) so
// that it survives a reload. A widget saves only when asked: its `persist` attribute is "on"
// (this browser's localStorage), or a host installed a store of its own with setProgressStore()
// (a course package's bridge keeps it in the LMS's suspend data or the cmi5 state).
//
// Each widget saves one JSON value under its key (widgetKey): an object whose parts the widget
// names ({settings: {...}, answers: [...]}); base.ts reads and writes the parts.

/** Where widgets keep their progress. */
export interface ProgressStore {
  /** The value saved under `key`, or undefined when there is none (or the store cannot be read). */
  load(key: string): unknown;
  /** Saves `value` (JSON-able) under `key`; throws a ProgressStoreError when it cannot. */
  save(key: string, value: unknown): void;
  /** Forgets what is saved under `key`. */
  remove(key: string): void;
}

/** A save that failed: the browser refused storage (a privacy setting), or it is full. */
export class ProgressStoreError extends Error {
  constructor(
    readonly reason: 'refused' | 'full',
    message: string,
  ) {
    super(message);
    this.name = 'ProgressStoreError';
  }
}

let installed: ProgressStore | undefined;

/**
 * Makes every widget on the page save its progress into `store` (undefined: back to the default,
 * localStorage for widgets with persist="on"). Call it before the widgets draw: a widget reads
 * what was saved when it draws.
 */
export function setProgressStore(store: ProgressStore | undefined): void {
  installed = store;
}

/** The store a host installed, if any. */
export const installedStore = (): ProgressStore | undefined => installed;

/**
 * The widget's key: its id, else its tag and place among the elements of that tag on the page
 * ("attn-quiz-1"), as its xAPI activity id's last part.
 */
export function widgetKey(element: Element): string {
  if (element.id) return element.id;
  const place = [...document.getElementsByTagName(element.localName)].indexOf(element) + 1;
  return `${element.localName}-${place}`;
}

/**
 * This browser's localStorage, under "attention-lab:" + the page's path + "#" + the widget's key,
 * so that two pages of one site keep apart. Kept until the reader or the widget clears it.
 */
export const LOCAL_PREFIX = 'attention-lab:';
export const localProgressStore: ProgressStore = {
  load(key) {
    try {
      const text = localStorage.getItem(localKey(key));
      return text === null ? undefined : (JSON.parse(text) as unknown);
    } catch {
      return undefined; // refused (the save says so) or not ours to read
    }
  },
  save(key, value) {
    let storage: Storage;
    try {
      storage = localStorage;
    } catch (error) {
      throw new ProgressStoreError('refused', `localStorage refused: ${(error as Error).message}`);
    }
    try {
      storage.setItem(localKey(key), JSON.stringify(value));
    } catch (error) {
      const full = error instanceof DOMException && error.name === 'QuotaExceededError';
      throw new ProgressStoreError(full ? 'full' : 'refused', `localStorage: ${(error as Error).message}`);
    }
  },
  remove(key) {
    try {
      localStorage.removeItem(localKey(key));
    } catch {
      // nothing could be saved either
    }
  },
};

const localKey = (key: string): string => `${LOCAL_PREFIX}${location.pathname}#${key}`;
