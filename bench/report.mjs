// Small helpers the benchmarks in bench/ share for printing what they measured.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rows of cells as aligned text: the first column left-aligned, the others right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) => r.map((cell, c) => (c ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c]))).join('  '))
    .join('\n');
}
