// Renders the lesson's Mermaid diagrams to static SVG at build time, in Debian's Chromium.
// Why at build time: Mermaid inserts <style> elements while it renders, which a strict
// Content-Security-Policy (style-src 'self') refuses; a pre-rendered SVG shown as an image
// needs no script and no inline style, and the page does not download Mermaid at all.
// Usage: node scripts/render-diagrams.mjs  (re-renders only diagrams whose source changed)
import { readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const diagrams = [{ source: 'web/src/lesson/flowchart.mmd', output: 'web/src/generated/flowchart.svg' }];
const mermaidBundle = join(root, 'node_modules/mermaid/dist/mermaid.min.js');

const stale = diagrams.filter(({ source, output }) => {
  const out = join(root, output);
  return !existsSync(out) || statSync(out).mtimeMs < Math.max(statSync(join(root, source)).mtimeMs, statSync(mermaidBundle).mtimeMs);
});
if (stale.length === 0) process.exit(0);

// playwright gives every launch a fresh temporary profile.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ path: mermaidBundle });
  for (const { source, output } of stale) {
    const text = readFileSync(join(root, source), 'utf8');
    const svg = await page.evaluate(async (definition) => {
      const mermaid = globalThis.mermaid;
      mermaid.initialize({ startOnLoad: false, theme: 'neutral', securityLevel: 'strict', htmlLabels: false, flowchart: { htmlLabels: false } });
      return (await mermaid.render('diagram', definition)).svg;
    }, text);
    mkdirSync(join(root, 'web/src/generated'), { recursive: true });
    writeFileSync(join(root, output), svg);
    console.log(`rendered ${source} -> ${output} (${svg.length} bytes)`);
  }
} finally {
  await browser.close();
}
