// Chromium (Debian's package, driven through tests/support/engines.mjs; never a downloaded browser) loads
// the WebAssembly build from a tiny local server, on a page and in a module Worker, and prints
// one attention row; the numbers must equal what the same build computes under node and agree
// with an independent float64 formula within 1e-6. Leaves a screenshot in the build folder.
//
// Run: node --test tests/wasm/chromium/chromium-check.mjs   (after scripts/build)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { launch } from '../../support/engines.mjs';
import { attentionF64, facadeDir, loadCore, root, softLookup } from '../helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const screenshot = path.resolve(root, process.env.ATTN_WASM_BUILD ?? 'build-wasm', 'chromium-soft-lookup.png');
const types = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

// Serves /chromium/* from this folder and /facade/* from the facade build, nothing else.
function serve() {
  const mounts = { '/chromium/': here, '/facade/': facadeDir };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const mount = Object.keys(mounts).find((prefix) => url.pathname.startsWith(prefix));
    const file = mount && path.resolve(mounts[mount], '.' + decodeURIComponent(url.pathname.slice(mount.length - 1)));
    if (!file || !file.startsWith(mounts[mount] + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('Chromium computes the soft-lookup attention row with the WebAssembly core', async (t) => {
  const server = await serve();
  const browser = await launch('chromium');
  try {
    const { port } = server.address();
    const page = await browser.open(`http://127.0.0.1:${port}/chromium/index.html`, { width: 900, height: 420 });
    const problems = page.engineProblems; // console errors and page errors
    await page.locate('body[data-state="done"]').waitFor({ timeout: 30000 });
    const result = await page.run(() => window.attnResult);
    await page.puppeteer.screenshot({ path: screenshot });
    t.diagnostic(`screenshot: ${path.relative(root, screenshot)}`);
    assert.deepEqual(problems, []);
    assert.equal(result.error, undefined, result.error);

    const core = await loadCore();
    const { query, keys, values } = softLookup;
    const nodeRun = core.attention(query, keys, values);
    const exact = attentionF64(query, keys, values);
    for (const where of ['page', 'worker']) {
      const { weights, output } = result[where];
      t.diagnostic(
        `${where}: weights ${weights.map((w) => w.toFixed(6)).join(' ')}, output ${output.map((o) => o.toFixed(6)).join(' ')}`,
      );
      assert.deepEqual(weights, Array.from(nodeRun.weights.data), `${where}: weights differ from node's`);
      assert.deepEqual(output, Array.from(nodeRun.output.data), `${where}: output differs from node's`);
      weights.forEach((w, j) => assert.ok(Math.abs(w - exact.weights.data[j]) <= 1e-6, `${where} weight ${j}`));
      output.forEach((o, j) => assert.ok(Math.abs(o - exact.output.data[j]) <= 1e-6, `${where} output ${j}`));
    }
    const shown = await page.locate('#rows tbody tr').innerTexts();
    assert.equal(shown.length, 2);
    assert.ok(shown[0].includes(result.page.weights[0].toFixed(4)));
  } finally {
    await browser.close();
    server.close();
  }
});
