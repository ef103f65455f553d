// Each lesson widget holds its drawn height from the start: widgets draw when they near the
// viewport, and a page that grows as the reader scrolls moves what they read and misses its
// links. The heights are measured per language and widget at a few content widths
// (widget-heights.json, written by tests/engines/steady-page.test.mjs with
// ATTN_WRITE_WIDGET_HEIGHTS=1); between two measured widths a widget gets the taller of the two
// (text wraps as the column narrows, a drawing scales as it widens), so it never outgrows its
// place, and keeps that place as its min-height while it draws and after. A language not
// measured (a pseudo-locale) gets the tallest of the measured ones.
import widgetHeights from './widget-heights.json';

/** Content widths (CSS px, ascending) and, per language and widget tag, its height (CSS px) at each. */
export interface WidgetHeights {
  widths: number[];
  heights: Record<string, Record<string, number[]>>;
}

/** The heights of `tag` at the table's widths in `language`, or the tallest over the languages measured. */
function heightsIn(table: WidgetHeights, tag: string, language: string): number[] | undefined {
  const own = table.heights[language]?.[tag];
  if (own) return own;
  const all = Object.values(table.heights)
    .map((tags) => tags[tag])
    .filter((heights) => heights !== undefined);
  return all.length ? table.widths.map((_, i) => Math.max(...all.map((heights) => heights[i]))) : undefined;
}

/** The height to reserve for `tag` in a column `width` px wide in `language`, or undefined when it was not measured. */
export function reservedHeight(
  tag: string,
  width: number,
  language: string,
  table: WidgetHeights = widgetHeights,
): number | undefined {
  const heights = heightsIn(table, tag, language);
  if (!heights || !(width > 0)) return undefined;
  const { widths } = table;
  const above = widths.findIndex((w) => w >= width);
  if (above === 0 || widths[above] === width) return heights[above];
  if (above < 0) return heights.at(-1);
  return Math.max(heights[above - 1], heights[above]);
}

/**
 * The width (CSS px) of `main`'s content box, the column the lesson's figures fill. Read before
 * the lesson is rendered into it, it costs a layout of the page's frame, not of the whole lesson
 * (which the first paint lays out anyway).
 */
export function columnWidth(main: HTMLElement): number {
  const style = getComputedStyle(main);
  return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

/**
 * Gives every widget in `main` its reserved min-height in `language` for the column's width
 * `column` (from columnWidth, read before the lesson was rendered), and again whenever the
 * column's width changes (a rotated phone, a resized window). Returns the function that reserves
 * the place of widgets added since (the lesson is rendered in parts).
 */
export function reserveWidgetSizes(main: HTMLElement, column: number, language: string): () => void {
  let width = column;
  const apply = () => {
    for (const widget of main.querySelectorAll<HTMLElement>('figure.widget > *:first-child')) {
      const height = reservedHeight(widget.localName, width, language);
      widget.style.minHeight = height === undefined ? '' : `${height}px`;
    }
  };
  apply();
  // The width is read in the next frame, not in the observer's callback: WebKit raises
  // "ResizeObserver loop completed with undelivered notifications" when a callback surfaces a size
  // change not yet delivered, and heights changed there would resize the observed column again
  // before the loop ends (a window made as tall as the page drops its scroll bar).
  let frame = 0;
  new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const now = columnWidth(main);
      if (now === width) return;
      width = now;
      apply();
    });
  }).observe(main);
  return apply;
}
