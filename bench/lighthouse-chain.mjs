// The request chain of one page load, from the initiators Chromium reports (CDP's
// Network.requestWillBeSent): each request's parent is the resource whose parsing or script
// started it, and its depth is its parent's plus one, the page itself being 0. The chain's depth
// is the deepest request's: page -> loader -> attention-lab.js -> widget chunk is 3 deep. A deep
// chain is a row of round trips that could have been made side by side (preload).
//
// A module's dynamic import() is reported with the initiator "about:client", which names no
// script: its parent is then the shallowest script fetched before it whose text names its file
// (the import, or a bundler's list of a chunk's dependencies).

/**
 * The URL of the resource that started a request, from its CDP `initiator`: the parser's
 * document, or the script on top of the (possibly async) stack; undefined when none is named.
 */
export function initiatorUrl(initiator) {
  if (initiator.url && initiator.url !== 'about:client') return initiator.url;
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find((f) => f.url);
    if (frame) return frame.url;
  }
  return undefined;
}

/**
 * Depths of the requests `sent` (requestWillBeSent events' { request: { url }, initiator }, in
 * the order sent) below `pageUrl`; `texts` maps a script's URL to its text. Returns
 * [{ url, depth, chain }] (chain: the URLs from the page down to this one), the deepest first.
 * A request whose initiator is unnamed and named by no script (the browser's own: the favicon)
 * hangs from the page.
 */
export function chainDepths(pageUrl, sent, texts = new Map()) {
  const byUrl = new Map([[pageUrl, { url: pageUrl, depth: 0, chain: [pageUrl] }]]);
  const namedBy = (url) => {
    const file = url.slice(url.lastIndexOf('/') + 1);
    return [...byUrl.values()].filter((r) => texts.get(r.url)?.includes(file)).sort((a, b) => a.depth - b.depth)[0];
  };
  for (const { request, initiator } of sent) {
    const url = request.url.split('#')[0];
    if (byUrl.has(url) || url.startsWith('data:') || url.startsWith('blob:')) continue;
    const named = initiatorUrl(initiator)?.split('#')[0];
    const parent = byUrl.get(named) ?? (named ? undefined : namedBy(url)) ?? byUrl.get(pageUrl);
    byUrl.set(url, { url, depth: parent.depth + 1, chain: [...parent.chain, url] });
  }
  return [...byUrl.values()].sort((a, b) => b.depth - a.depth);
}

/**
 * Loads `url` in a fresh context of `browser` (tests/support/engines.mjs, Chromium) at `viewport`
 * with the cache off, waits until no request is open and none has started or ended for
 * `quietMs` (a loaded machine may take a second between two imports), and resolves to
 * chainDepths() of what it fetched.
 */
export async function measureChain(browser, url, viewport, { quietMs = 3000, timeoutMs = 60000 } = {}) {
  const sent = [];
  const texts = new Map();
  const reading = [];
  const open = new Set();
  let last = Date.now();
  const page = await browser.open(url, viewport, {
    isolated: true,
    beforeLoad: async (p) => {
      const cdp = await p.puppeteer.createCDPSession();
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      const scripts = new Map();
      cdp.on('Network.requestWillBeSent', (event) => {
        sent.push(event);
        open.add(event.requestId);
        last = Date.now();
      });
      const ended = ({ requestId }) => {
        open.delete(requestId);
        last = Date.now();
      };
      cdp.on('Network.loadingFailed', ended);
      cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
        if (type === 'Script') scripts.set(requestId, response.url);
      });
      cdp.on('Network.loadingFinished', ({ requestId }) => {
        ended({ requestId });
        if (!scripts.has(requestId)) return;
        reading.push(
          cdp
            .send('Network.getResponseBody', { requestId })
            .then(({ body, base64Encoded }) =>
              texts.set(scripts.get(requestId), base64Encoded ? Buffer.from(body, 'base64').toString() : body),
            )
            .catch(() => {}), // a body the browser no longer holds: that script names nothing
        );
      });
    },
  });
  const began = Date.now();
  while ((open.size || Date.now() - last < quietMs) && Date.now() - began < timeoutMs)
    await new Promise((ok) => setTimeout(ok, 250));
  await Promise.all(reading);
  await page.close();
  return chainDepths(url, sent, texts);
}
