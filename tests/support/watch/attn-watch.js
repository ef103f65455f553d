// The in-page watcher of the browser tests (tests/support/engines.mjs). The test servers insert
// it as the first script of every HTML page they send, so it runs before the page's own code in
// every engine and every frame, under the page's CSP (it is a same-origin file). It records
// console.error calls, Observable Plot's warnings, uncaught errors and rejections, resources
// that failed to load, and CSP violations. A frame forwards what it records to its parent, so
// the top page holds it all in window.__attnProblems. WebKit over classic WebDriver has no
// console or network events: this is what sees them there. No eval, no new Function (a strict CSP refuses both).
(() => {
  const problems = [];
  const framed = window.parent !== window;
  const where = framed ? ` [frame ${location.href}]` : '';
  const describe = (value) =>
    value instanceof Error
      ? `${value.name}: ${value.message}`
      : typeof value === 'object'
        ? safeJson(value)
        : String(value);
  function safeJson(value) {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  function record(entry) {
    if (framed) window.parent.postMessage({ source: 'attn-watch', entry }, '*');
    else problems.push(entry);
  }
  const note = (kind, text) => record(`${kind}: ${String(text).slice(0, 400)}${where}`);
  Object.defineProperty(window, '__attnProblems', { value: problems });

  // What frames forward.
  window.addEventListener('message', (event) => {
    if (event.source !== window && event.data?.source === 'attn-watch' && typeof event.data.entry === 'string')
      record(event.data.entry);
  });
  const consoleError = console.error;
  console.error = function (...args) {
    note('console.error', args.map(describe).join(' '));
    return consoleError.apply(this, args);
  };
  // Observable Plot's warnings (a figure drawn from data it finds suspect): Plot logs each with
  // console.warn, "Warning: ..." first, and marks only the figure that logged it, which the next
  // drawing replaces; recorded here, whenever a figure logs one.
  const consoleWarn = console.warn;
  console.warn = function (...args) {
    if (typeof args[0] === 'string' && args[0].startsWith('Warning: ')) note('Observable Plot warning', args[0]);
    return consoleWarn.apply(this, args);
  };
  // Capturing: load errors of <script>, <link>, <img> do not bubble.
  window.addEventListener(
    'error',
    (event) => {
      if (!(event.target instanceof Element))
        return note('uncaught', `${event.message} (${event.filename}:${event.lineno})`);
      const url = event.target.src || event.target.href || '';
      // Firefox also fires error at a <link rel=modulepreload> for a module it already loaded (Vite's
      // preload helper adds such links on a page that loads attention-lab.js): not a failure when
      // that URL was answered 200. A request that did fail is also in the servers' failures.
      if (
        event.target.relList?.contains('modulepreload') &&
        performance.getEntriesByName(url).some((entry) => entry.responseStatus === 200)
      )
        return;
      note('failed to load', `<${event.target.localName}> ${url}`);
    },
    true,
  );
  window.addEventListener('unhandledrejection', (event) => note('unhandled rejection', describe(event.reason)));
  window.addEventListener(
    'securitypolicyviolation',
    (event) => {
      note(
        'CSP violation',
        `${event.violatedDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile || location.href}:${event.lineNumber})`,
      );
    },
    true,
  );
  // fetch() and import() answered with an HTTP error, where the engine reports the status.
  if (typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('resource')) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.responseStatus >= 400) note('failed request', `${entry.responseStatus} ${entry.name}`);
    }).observe({ type: 'resource', buffered: true });
  }
})();
