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
    // Never inline assets as data: URLs: a strict CSP (default-src 'self') refuses them, and
    // the wasm compiles faster streamed from its own file.
    assetsInlineLimit: 0,
    rollupOptions: {
      input: {
        index: resolve(web, 'index.html'),
        embed: resolve(web, 'embed.html'),
        // The single script (and stylesheet) a course page includes to use the widgets; stable
        // names so an embedding page's tags survive rebuilds.
        'attention-lab': resolve(web, 'src/widgets/index.ts'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'attention-lab' ? 'attention-lab.js' : 'assets/[name]-[hash].js'),
        assetFileNames: (asset) =>
          asset.names?.includes('attention-lab.css') ? 'attention-lab.css' : 'assets/[name]-[hash][extname]',
      },
    },
  },
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
    // The code listing on the page is read from core/ at build time.
    fs: { allow: [import.meta.dirname] },
  },
});
