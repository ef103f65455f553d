// The suites that try widgets one by one on tests/engines/widget-page/widgets.html (the build's
// files next to it, under the strict CSP): the page served once, opened in each engine in turn.
//   widgetPageSuites((context, engine) => { test(..., async () => context.page.run(...)); });
// context.page is the open page (set before the engine's first test), context.site the server.
import { after, before, describe } from 'node:test';
import { DIST, enginesToRun, launch, serveSite } from '../../support/engines.mjs';

export function widgetPageSuites(body) {
  const context = {};
  before(async () => {
    context.site = await serveSite({ roots: [import.meta.dirname, DIST] });
  });
  after(() => context.site?.close());
  for (const engine of enginesToRun()) {
    describe(engine, () => {
      let browser;
      before(async () => {
        browser = await launch(engine);
        context.page = await browser.open(`${context.site.url}widgets.html`, { width: 1000, height: 900 });
      });
      after(() => browser?.close());
      body(context, engine);
    });
  }
}
