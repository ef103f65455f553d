// Vite builds web/ (the lesson page and the embed page) into a static dist/ that works from
// any static host: every asset, the WebAssembly core included, is served from the build.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const web = resolve(import.meta.dirname, 'web');

export default defineConfig({
  root: web,
  base: './',
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Keep the wasm a separate file (streaming compile, cacheable) rather than inlined.
    assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
    rollupOptions: {
      input: { index: resolve(web, 'index.html'), embed: resolve(web, 'embed.html') },
    },
  },
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
    // The code listing on the page is read from core/ at build time.
    fs: { allow: [import.meta.dirname] },
  },
});
