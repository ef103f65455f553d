// Offers a figure's data as CSV and the figure itself as SVG, as file downloads.

function save(filename: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function csvCell(value: unknown): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

export function downloadCsv(filename: string, header: string[], rows: unknown[][]): void {
  save(filename, 'text/csv', toCsv(header, rows));
}

export function downloadSvg(filename: string, svg: SVGSVGElement): void {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  save(filename, 'image/svg+xml', new XMLSerializer().serializeToString(copy));
}
