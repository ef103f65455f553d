// The project's static server, for `npm start` (scripts/serve.mjs) and the browser tests: sirv
// (files, content types, ETag, ranges) behind compression (brotli, else gzip), on node:http.
// What it adds is the policy a host of the built site should follow (the embedding guide lists
// it for course authors): the strict Content-Security-Policy on every answer, long-lived caching
// for the build's hashed assets and revalidation for everything else, and, when asked, CORS so
// that pages on other origins can load the widgets.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import compression from 'compression';
import { lookup } from 'mrmime';
import sirv from 'sirv';

/** The Content-Security-Policy the built site works under (README, the embedding guide). */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/** A file Vite named by its content (assets/name-HASH.ext): its address changes whenever it does. */
const HASHED = /\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/** Cache-Control for `path`: a year for hashed assets, revalidation (ETag) for pages and stable names. */
export function cacheControl(path) {
  return HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves `root` (a folder, or a list of folders searched in order) on 127.0.0.1; port 0 picks a
 * free port. csp: the Content-Security-Policy sent with every answer (null: none). cors: send
 * `Access-Control-Allow-Origin: *` with every answer (an asset host for pages on other
 * origins). headers(path) may add or override response headers; replace(path) may return the
 * bytes (or text) to send instead of a file (tests swap in another build, or alter a page).
 * Resolves to { server, url, failures, close() }; failures lists "STATUS /path" for every request
 * answered with an error.
 */
export async function serveStatic(
  root,
  { port = 0, csp = null, cors = false, headers = () => ({}), replace = () => undefined } = {},
) {
  const failures = [];
  // brotli, gzip: the build's precompressed copies (name.br, name.gz; vite.config.ts), sent when
  // the browser accepts them; compression() below compresses whatever has none.
  const files = [root].flat().map((folder) => sirv(resolve(folder), { etag: true, brotli: true, gzip: true }));

  function policy(request, response, next) {
    response.on('finish', () => response.statusCode >= 400 && failures.push(`${response.statusCode} ${request.url}`));
    const path = new URL(request.url, 'http://localhost').pathname;
    response.setHeader('Cache-Control', cacheControl(path));
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (csp) response.setHeader('Content-Security-Policy', csp);
    if (cors) response.setHeader('Access-Control-Allow-Origin', '*');
    for (const [name, value] of Object.entries(headers(path))) response.setHeader(name, value);
    const body = replace(path);
    if (body === undefined) return next();
    response.setHeader('Content-Type', lookup(path.endsWith('/') ? 'index.html' : path) ?? 'application/octet-stream');
    response.end(body);
  }
  function notFound(_request, response) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('404\n');
  }
  // The answer passes through compression first, so files and replacements are both compressed.
  const chain = [compression(), policy, ...files, notFound];
  const server = createServer((request, response) => {
    let step = 0;
    const next = (error) => {
      if (!error) return chain[step++](request, response, next);
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('500\n');
    };
    next();
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    server,
    url,
    failures,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(ok);
      }),
  };
}
