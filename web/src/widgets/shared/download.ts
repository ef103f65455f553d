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

/** Several panels (each an <svg>) laid out in a grid as one SVG document, for a single download. */
export function combineSvgs(panels: SVGSVGElement[], columns: number): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const width = Math.max(...panels.map((p) => Number(p.getAttribute('width')) || 0));
  const height = Math.max(...panels.map((p) => Number(p.getAttribute('height')) || 0));
  const sheet = document.createElementNS(ns, 'svg');
  sheet.setAttribute('width', String(width * Math.min(columns, panels.length)));
  sheet.setAttribute('height', String(height * Math.ceil(panels.length / columns)));
  panels.forEach((panel, i) => {
    const copy = panel.cloneNode(true) as SVGSVGElement;
    copy.setAttribute('x', String((i % columns) * width));
    copy.setAttribute('y', String(Math.floor(i / columns) * height));
    sheet.append(copy);
  });
  return sheet;
}
