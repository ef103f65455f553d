// Renders the lesson's Mermaid diagrams to static SVG at build time, in Debian's Chromium: each
// route's flowchart (web/src/pages/lesson/flowchart-<route>.mmd) in a light and a dark theme, and
// their sizes (generated/flowcharts.json) so the page reserves the space before an image loads,
// with the size of their smallest text, from which the page keeps that text readable.
// Why at build time: Mermaid inserts <style> elements while it renders, which a strict
// Content-Security-Policy (style-src 'self') refuses; a pre-rendered SVG shown as an image
// needs no script and no inline style, and the page does not download Mermaid at all.
// Usage: node scripts/render-diagrams.mjs  (re-renders only when a source or Mermaid changed)
import { readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from '../tests/support/engines.mjs';

const root = resolve(import.meta.dirname, '..');
const ROUTES = ['cue-position', 'answer-position', 'cue-broadcast', 'other', 'none']; // the core's route labels
const THEMES = { light: 'neutral', dark: 'dark' }; // our theme -> Mermaid's
const diagrams = ROUTES.flatMap((route) =>
  Object.entries(THEMES).map(([theme, mermaidTheme]) => ({
    name: `${route}-${theme}`,
    mermaidTheme,
    source: `web/src/pages/lesson/flowchart-${route}.mmd`,
    output: `web/src/generated/flowchart-${route}-${theme}.svg`,
  })),
);
const sizesFile = join(root, 'web/src/generated/flowcharts.json');
const mermaidBundle = join(root, 'node_modules/mermaid/dist/mermaid.min.js');

const newest = (...files) => Math.max(...files.map((f) => statSync(f).mtimeMs));
const stale = diagrams.filter(({ source, output }) => {
  const out = join(root, output);
  return !existsSync(out) || statSync(out).mtimeMs < newest(join(root, source), mermaidBundle, import.meta.filename);
});
if (stale.length === 0 && existsSync(sizesFile)) process.exit(0);

// Debian's Chromium through tests/support/engines.mjs, a fresh temporary profile each launch.
const browser = await launch('chromium');
try {
  const page = await browser.open('about:blank', { width: 1280, height: 720 });
  await page.puppeteer.setContent('<!doctype html><html><body></body></html>');
  await page.addScript(mermaidBundle);
  for (const { source, output, mermaidTheme } of stale) {
    const text = readFileSync(join(root, source), 'utf8');
    const svg = await page.run(
      async ([definition, theme]) => {
        const mermaid = globalThis.mermaid;
        mermaid.initialize({
          startOnLoad: false,
          theme,
          securityLevel: 'strict',
          htmlLabels: false,
          flowchart: { htmlLabels: false },
        });
        return (await mermaid.render('diagram', definition)).svg;
      },
      [text, mermaidTheme],
    );
    mkdirSync(join(root, 'web/src/generated'), { recursive: true });
    writeFileSync(join(root, output), svg);
    console.log(`rendered ${source} (${mermaidTheme}) -> ${output} (${svg.length} bytes)`);
  }
  // Each image's size, from its viewBox, and the size of its smallest text in the image's own
  // pixels, measured in the browser: the page scales the image, and with it that text.
  const sizes = {};
  for (const { name, output } of diagrams) {
    const svg = readFileSync(join(root, output), 'utf8');
    const [, , width, height] = /viewBox="([\d.\s-]+)"/.exec(svg)[1].trim().split(/\s+/).map(Number);
    const fontSize = await page.run((markup) => {
      document.body.innerHTML = markup;
      const sizes = [...document.querySelectorAll('svg text')]
        .filter((t) => t.textContent.trim())
        .map((t) => parseFloat(getComputedStyle(t).fontSize));
      document.body.replaceChildren();
      return Math.min(...sizes);
    }, svg);
    if (!Number.isFinite(fontSize)) throw new Error(`${output}: no text found to measure`);
    sizes[name] = { width: Math.round(width), height: Math.round(height), fontSize };
  }
  writeFileSync(sizesFile, JSON.stringify(sizes));
} finally {
  await browser.close();
}
