// The project's static server (scripts/static-server.mjs), which `npm start` and the browser
// tests use, on the built site: what it sends is what the embedding guide asks of a host.
// Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { STRICT_CSP, serveStatic } from '../../scripts/static-server.mjs';

const DIST = resolve(import.meta.dirname, '../../dist');
const WASM = `assets/${readdirSync(resolve(DIST, 'assets')).find((name) => name.endsWith('.wasm'))}`;
let site, plain;

before(async () => {
  site = await serveStatic(DIST, {
    csp: STRICT_CSP,
    cors: true,
    replace: (path) => (path === '/replaced.txt' ? 'swapped in' : undefined),
  });
  plain = await serveStatic(DIST);
});
after(async () => {
  await site?.close();
  await plain?.close();
});

/**
 * GET `path` (sent as it is, not normalised) from `server` with `headers`; resolves to
 * { status, headers, body (the raw bytes: fetch would decode them) }.
 */
function get(server, path, headers = {}) {
  const { hostname, port } = new URL(server.url);
  return new Promise((ok, fail) => {
    request({ hostname, port, path: path.startsWith('/') ? path : `/${path}`, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        ok({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', fail)
      .end();
  });
}

test('brotli or gzip, as the browser accepts, and the bytes decode to the file', async () => {
  const file = readFileSync(resolve(DIST, WASM));
  const br = await get(site, WASM, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.body.length < file.length / 2, `${br.body.length} of ${file.length} bytes`);
  assert.deepEqual(brotliDecompressSync(br.body), file);
  const gz = await get(site, 'attention-lab.js', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.body), readFileSync(resolve(DIST, 'attention-lab.js')));
  const identity = await get(site, 'attention-lab.js');
  assert.equal(identity.headers['content-encoding'], undefined);
  assert.equal(identity.headers['content-type'], 'text/javascript');
  assert.equal((await get(site, WASM)).headers['content-type'], 'application/wasm');
});

test("a year's caching for hashed assets, revalidation for pages and stable names; ETags answered 304", async () => {
  assert.equal((await get(site, WASM)).headers['cache-control'], 'public, max-age=31536000, immutable');
  for (const path of ['', 'embed.html', 'attention-lab.js', 'attention-lab-loader.js', 'attention-lab.css'])
    assert.equal((await get(site, path)).headers['cache-control'], 'no-cache', path || '/');
  const { headers } = await get(site, 'embed.html');
  assert.equal((await get(site, 'embed.html', { 'if-none-match': headers.etag })).status, 304);
});

test('the strict CSP on every answer, CORS when asked, neither when not', async () => {
  for (const path of ['', WASM, 'attention-lab.js']) {
    const { headers } = await get(site, path);
    assert.equal(headers['content-security-policy'], STRICT_CSP, path);
    assert.equal(headers['access-control-allow-origin'], '*', path);
    assert.equal(headers['x-content-type-options'], 'nosniff', path);
  }
  const { headers } = await get(plain, 'attention-lab.js');
  assert.equal(headers['content-security-policy'], undefined);
  assert.equal(headers['access-control-allow-origin'], undefined);
});

test('replace() answers in place of a file; nothing outside the root; failures are listed', async () => {
  const replaced = await get(site, 'replaced.txt');
  assert.equal(replaced.body.toString(), 'swapped in');
  assert.equal(replaced.headers['content-type'], 'text/plain');
  const before = site.failures.length;
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/missing.js'])
    assert.equal((await get(site, path)).status, 404, path);
  assert.deepEqual(
    site.failures.slice(before).map((line) => line.split(' ')[0]),
    ['404', '404', '404'],
  );
});
