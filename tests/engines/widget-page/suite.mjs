// The suites that try widgets one by one on tests/engines/widget-page/widgets.html (the build's
// files next to it, under the strict CSP): the page served once, opened in each engine in turn.
//   widgetPageSuites((context, engine) => { test(..., async () => context.page.run(...)); });
// context.page is the open page (set before the engine's first test), context.site the server,
// context.browser the engine (to open the page at another size: context.page = await context.browser.open(...)).
import { after, before } from 'node:test';
import { resolve } from 'node:path';
import { describeEngines, DIST, serveSite } from '../../support/engines.mjs';

const SCREENSHOTS = resolve(import.meta.dirname, '../../../build/screenshots');

export function widgetPageSuites(body) {
  const context = {};
  before(async () => {
    context.site = await serveSite({ roots: [import.meta.dirname, DIST] });
  });
  after(() => context.site?.close());
  describeEngines((session) => {
    before(async () => {
      context.browser = session.browser;
      context.page = await session.browser.open(`${context.site.url}widgets.html`, { width: 1000, height: 900 });
    });
    body(context, session.engine);
  });
}

/**
 * Screenshots of one widget at 1280 and 360 px, light and dark, as build/screenshots/NAME-WIDTH-THEME.png:
 * for each, the page is opened at that width (context.page follows), show(page, theme) puts the
 * widget in the state to show, and the page must not scroll sideways.
 */
export async function widgetScreenshots(context, name, show) {
  for (const width of [1280, 360]) {
    const page = (context.page = await context.browser.open(`${context.site.url}widgets.html`, { width, height: 900 }));
    for (const theme of ['light', 'dark']) {
      await show(page, theme);
      const overflow = await page.run(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow !== 0) throw new Error(`${name}: the page scrolls ${overflow} px sideways at ${width} px, ${theme}`);
      await page.screenshot(resolve(SCREENSHOTS, `${name}-${width}-${theme}.png`));
    }
  }
}
