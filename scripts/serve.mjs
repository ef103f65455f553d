// `npm start`'s last step: serves the built lesson (dist/) on localhost and prints its address,
// with what the tests serve it with (scripts/static-server.mjs): the strict Content-Security-Policy,
// brotli or gzip, long-lived caching for hashed assets, and CORS, so that a course page on
// another local port can load the widgets from here (the embedding guide's recipes).
// PORT picks the port (default 5173; the next free one if it is taken).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { STRICT_CSP, serveStatic } from './static-server.mjs';

const dist = resolve(import.meta.dirname, '..', 'dist');
if (!existsSync(resolve(dist, 'index.html'))) {
  console.error('serve: dist/index.html is missing; run `npm run build` first');
  process.exit(1);
}
let port = Number(process.env.PORT ?? 5173);
for (;;) {
  try {
    const { url } = await serveStatic(dist, { port, csp: STRICT_CSP, cors: true });
    console.log(`\nAttention from Scratch is served at ${url}`);
    console.log(`Embedding guide: ${url}embed.html`);
    console.log('Press Ctrl+C to stop.');
    break;
  } catch (error) {
    if (error.code !== 'EADDRINUSE' || port > 65000) throw error;
    port += 1;
  }
}
