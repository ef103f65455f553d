// Live numbers in text: "{sweep.maxUnscaled.256:4}" names a value computed by the core, with an
// optional format (":4" four decimals, ":e" scientific, none: integers with separators). The
// lesson's prose uses them, and so does any quiz given numbers to fill in.

export type LiveNumbers = Record<string, number>;

// A placeholder needs a dot in its name, so TeX groups such as {d_k} are left alone.
const PLACEHOLDER = /\{([a-zA-Z][\w]*(?:\.[\w-]+)+)(?::(\d|e))?\}/g;

export function formatNumber(value: number, format?: string): string {
  if (!Number.isFinite(value)) return String(value);
  if (format === 'e') return value.toExponential(2);
  if (format !== undefined) return value.toFixed(Number(format));
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
}

export interface Piece {
  text: string;
  key?: string; // set when the piece is a live number
  format?: string; // its format ("4", "e" or none)
  missing?: boolean; // the core has not (yet) produced it
}

// Splits text into literal pieces and live-number pieces.
export function splitLive(text: string, numbers: LiveNumbers): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index! > last) pieces.push({ text: text.slice(last, match.index) });
    const key = match[1];
    const value = numbers[key];
    const format = match[2];
    pieces.push(
      value === undefined
        ? { text: '…', key, format, missing: true }
        : { text: formatNumber(value, format), key, format },
    );
    last = match.index! + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

// The same with every placeholder replaced by its formatted value (for TeX and attributes).
export function fillLive(text: string, numbers: LiveNumbers): string {
  return splitLive(text, numbers)
    .map((p) => p.text)
    .join('');
}
