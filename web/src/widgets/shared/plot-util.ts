// Observable Plot, loaded only when a figure needs it, and attached without its inline
// <style> element (a strict Content-Security-Policy refuses inline styles; styles.css carries
// the same rules for the .attn-plot class).
export type PlotModule = typeof import('@observablehq/plot');

let plot: Promise<PlotModule> | undefined;

export function loadPlot(): Promise<PlotModule> {
  plot ??= import('@observablehq/plot');
  return plot;
}

/** Colours readable on both the light and the dark background. */
export const SERIES_COLOURS = ['#4f7fe0', '#e0792f'];

/**
 * Tick labels written as `locale` (numberLocale of the language) writes numbers (Plot's tickFormat), `digits` decimals at most:
 * 0,5 in Spanish.
 */
export function localeTickFormat(locale: string, digits = 2): (value: number) => string {
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
  return (value) => format.format(value);
}

export function attachPlot(host: Element, figure: Element): SVGSVGElement | null {
  figure.querySelectorAll('style').forEach((s) => s.remove());
  // A chart's axes run left to right in every language: it does not mirror in a right-to-left page.
  figure.setAttribute('dir', 'ltr');

  const svg = figure instanceof SVGSVGElement ? figure : figure.querySelector('svg');
  // Plot names each mark's group ("line", "rule", "cell") with aria-label, which ARIA does not
  // allow on an element without a role. The figures label the whole chart (role="img"), whose
  // parts a screen reader does not visit, so the names go.
  svg?.querySelectorAll('[aria-label]:not([role])').forEach((node) => node.removeAttribute('aria-label'));
  host.replaceChildren(figure);
  return svg;
}

/**
 * The width to draw a figure at: `host`'s own width, at most `max` (and at least `min`). Plot
 * draws text at a fixed size in SVG units, so a figure drawn wider than its place and shrunk to
 * fit would shrink its text below a readable size on a narrow screen.
 */
export function widthFor(host: Element, max: number, min = 240): number {
  return Math.round(Math.max(min, Math.min(max, host.clientWidth || max)));
}

/**
 * Calls redraw() when `host`'s width changes (a rotated phone, a resized window), at most once a
 * frame. Returns the observer, to disconnect in the widget's teardown().
 */
export function onWidthChange(host: Element, redraw: () => void): ResizeObserver {
  let width = host.clientWidth;
  let frame = 0;
  // The width is read in the next frame, not in the observer's callback: reading layout there can
  // surface a size change the observer has not delivered yet (widgets defined a moment apart on
  // one page), which WebKit raises as "ResizeObserver loop completed with undelivered notifications".
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      if (host.clientWidth === width) return;
      width = host.clientWidth;
      redraw();
    });
  });
  observer.observe(host);
  return observer;
}
