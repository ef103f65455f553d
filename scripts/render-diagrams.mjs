// Renders the lesson's Mermaid diagrams to static SVG at build time, in Debian's Chromium: each
// route's flowchart (web/src/pages/lesson/flowchart-<route>.mmd) in each language with a
// flowchart-diagrams catalog (web/src/messages/<language>/flowchart-diagrams.json) and in a light
// and a dark theme, and their sizes (generated/flowcharts.json) so the page reserves the space
// before an image loads, with the size of their smallest text, from which the page keeps that
// text readable. A .mmd holds each label as {{key}}, the key of its text in the catalog (a key a
// language lacks is said in English). English images are flowchart-<route>-<theme>.svg, another
// language's flowchart-<route>-<theme>.<language>.svg; flowcharts.json names each by that stem.
// Each route has a narrow variant too (flowchart-<route>.narrow.mmd: its boxes in one column, for
// a phone), drawn as flowchart-<route>-narrow-<theme>[.<language>].svg.
// Why at build time: Mermaid inserts <style> elements while it renders, which a strict
// Content-Security-Policy (style-src 'self') refuses; a pre-rendered SVG shown as an image
// needs no script and no inline style, and the page does not download Mermaid at all.
// Usage: node scripts/render-diagrams.mjs  (re-renders only when a source or Mermaid changed)
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from '../tests/support/engines.mjs';

const root = resolve(import.meta.dirname, '..');
const ROUTES = ['cue-position', 'answer-position', 'cue-broadcast', 'other', 'none']; // the core's route labels
const THEMES = { light: 'neutral', dark: 'dark' }; // our theme -> Mermaid's
const CATALOG = 'flowchart-diagrams.json';
const messagesDir = join(root, 'web/src/messages');
const catalogOf = (language) => join(messagesDir, language, CATALOG);
// English first: it holds every label.
const LANGUAGES = [
  'en',
  ...readdirSync(messagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'en' && existsSync(catalogOf(entry.name)))
    .map((entry) => entry.name)
    .sort(),
];
const VARIANTS = { '': '', '-narrow': '.narrow' }; // name suffix -> source suffix
const diagrams = LANGUAGES.flatMap((language) =>
  ROUTES.flatMap((route) =>
    Object.entries(VARIANTS).flatMap(([variant, sourceSuffix]) =>
      Object.entries(THEMES).map(([theme, mermaidTheme]) => {
        const name = `${route}${variant}-${theme}${language === 'en' ? '' : `.${language}`}`;
        return {
          name,
          language,
          mermaidTheme,
          source: `web/src/pages/lesson/flowchart-${route}${sourceSuffix}.mmd`,
          output: `web/src/generated/flowchart-${name}.svg`,
        };
      }),
    ),
  ),
);

/** The .mmd source with each {{key}} replaced by its label in `language` (English where it lacks one). */
function localized(source, language) {
  const english = JSON.parse(readFileSync(catalogOf('en'), 'utf8'));
  const own = language === 'en' ? english : JSON.parse(readFileSync(catalogOf(language), 'utf8'));
  return source.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    const label = own[key] ?? english[key];
    if (label === undefined) throw new Error(`${CATALOG}: no label ${key} (in en)`);
    if (label.includes('"')) throw new Error(`${language}/${CATALOG}: ${key} has a " (Mermaid ends the label there)`);
    return label;
  });
}
const sizesFile = join(root, 'web/src/generated/flowcharts.json');
const mermaidBundle = join(root, 'node_modules/mermaid/dist/mermaid.min.js');

const newest = (...files) => Math.max(...files.map((f) => statSync(f).mtimeMs));
const stale = diagrams.filter(({ source, output, language }) => {
  const out = join(root, output);
  const inputs = [join(root, source), catalogOf('en'), catalogOf(language), mermaidBundle, import.meta.filename];
  return !existsSync(out) || statSync(out).mtimeMs < newest(...inputs);
});
if (stale.length === 0 && existsSync(sizesFile)) process.exit(0);

// Debian's Chromium through tests/support/engines.mjs, a fresh temporary profile each launch.
const browser = await launch('chromium');
try {
  const page = await browser.open('about:blank', { width: 1280, height: 720 });
  await page.puppeteer.setContent('<!doctype html><html><body></body></html>');
  await page.addScript(mermaidBundle);
  for (const { source, output, mermaidTheme, language } of stale) {
    const text = localized(readFileSync(join(root, source), 'utf8'), language);
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
    console.log(`rendered ${source} (${language}, ${mermaidTheme}) -> ${output} (${svg.length} bytes)`);
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
