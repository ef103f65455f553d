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

/**
 * Serves `root` on 127.0.0.1. port 0 picks a free port. headers(path) may add response headers;
 * replace(path) may return the bytes to send instead of the file (tests swap in another build).
 * Resolves to { server, url, close() }.
 */
export async function serveStatic(root, { port = 0, headers = () => ({}), replace = () => undefined } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { status: 403 });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = replace(path) ?? (await readFile(file));
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        ...headers(path),
      });
      response.end(body);
    } catch (error) {
      const status = error.status ?? (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 404 : 500);
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`${status}\n`);
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { server, url, close: () => new Promise((ok) => server.close(ok)) };
}
