// A small static file server for the built site (dist/): used by `npm start` and by the
// browser tests, which can add headers such as a Content-Security-Policy.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file `path` names under `base` (index.html for a folder); throws 403 outside it, ENOENT if absent. */
async function locate(base, path) {
  let file = normalize(join(base, path));
  if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { status: 403 });
  if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
  await stat(file);
  return file;
}

/**
 * Serves `root` (a folder, or a list of folders searched in order) on 127.0.0.1. port 0 picks
 * a free port. headers(path) may add response headers; replace(path) may return the bytes to
 * send instead of the file (tests swap in another build); headHtml, when given, is inserted
 * right after the <head> tag of every HTML page (the browser tests' watcher script).
 * Resolves to { server, url, failures, close() }; failures lists "STATUS /path" for every
 * request answered with an error.
 */
export async function serveStatic(root, { port = 0, headers = () => ({}), replace = () => undefined, headHtml = '' } = {}) {
  const bases = [root].flat().map((r) => resolve(r));
  const failures = [];
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      let file, missing;
      for (const base of bases) {
        file = await locate(base, path).catch((error) => void (missing ??= error));
        if (file) break;
      }
      if (!file) throw missing;
      let body = replace(path) ?? (await readFile(file));
      if (headHtml && extname(file) === '.html') body = body.toString('utf8').replace(/<head>/i, (head) => head + headHtml);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        ...headers(path),
      });
      response.end(body);
    } catch (error) {
      const status = error.status ?? (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 404 : 500);
      failures.push(`${status} ${request.url}`);
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`${status}\n`);
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { server, url, failures, close: () => new Promise((ok) => server.close(ok)) };
}
