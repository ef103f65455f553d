// Readers' settings live in the URL hash, one flat list ("#lookup.q=0.40,1.20&table.draws=500"),
// so a copied link reopens the same view. Each entry is STATE-KEY.HASH-KEY=value: a widget's
// state-key attribute, then the hash key its contract gives an attribute, then the value written
// as that attribute would be (base.ts reads it back through the attribute's parser). Only widgets
// given a state-key take part; an embedded widget without one leaves its host page's hash alone.
//
// Writes are throttled: a settings change arriving on every step of a drag or a held key would
// rewrite the URL (and make the browser fetch the page's icon again) dozens of times a second.
// The hash is written at once when the last write is WRITE_GAP_MS old, else once at the end of
// that gap with the latest values; readState() sees values still waiting.

/** The least time between two writes of the hash, in ms: at most four a second. */
export const WRITE_GAP_MS = 250;

/** Entries (full name -> value) set since the last write, in the order they were set. */
const pending = new Map<string, string>();
let lastWrite = -Infinity;
let timer: ReturnType<typeof setTimeout> | undefined;

function parse(): URLSearchParams {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const [name, value] of pending) params.set(name, value);
  return params;
}

/** hash key -> value, for the entries under `stateKey` (values not yet written included). */
export function readState(stateKey: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of parse()) {
    if (name.startsWith(stateKey + '.')) values[name.slice(stateKey.length + 1)] = value;
  }
  return values;
}

/**
 * Sets the entries under `stateKey` (hash key -> value), keeping every other entry: now, or
 * within WRITE_GAP_MS when the hash was written less than that ago.
 */
export function writeState(stateKey: string, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) pending.set(`${stateKey}.${name}`, value);
  if (timer !== undefined) return; // the write already due takes these too
  const wait = lastWrite + WRITE_GAP_MS - Date.now();
  if (wait <= 0) flushState();
  else timer = setTimeout(flushState, wait);
}

/** Writes the values waiting, if any, now. */
export function flushState(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return;
  const params = parse();
  pending.clear();
  // Commas are allowed in a URL's fragment: "q=0.40,1.20" reads better than "q=0.40%2C1.20".
  const hash = params.toString().replace(/%2C/g, ',');
  lastWrite = Date.now();
  // replaceState: settings are not navigation, so Back still leaves the page.
  history.replaceState(null, '', '#' + hash);
}

// A page left before its write was due still gets it (in its history entry, for Back and Forward).
if (typeof addEventListener === 'function') addEventListener('pagehide', flushState);
