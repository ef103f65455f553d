// The embedding guide's parts about hosting (embed.html): the snippets, the iframe form and its
// live example, what an asset host must send and a course page must allow, the messages a reader
// may see instead of a widget, the fixed frame heights, and the recipes. The recipes are shown
// from the very files tests/recipes/ serves to three browser engines (web/recipes/).
import otherHostPage from '../../../recipes/other-host/week3.html?raw';
import myQuestions from '../../../recipes/other-host/my-questions.json?raw';
import courseFolderPage from '../../../recipes/course-folder/week3.html?raw';
import lmsPage from '../../../recipes/lms/lesson.html?raw';
import viteAppPage from '../../../recipes/vite-app/index.html?raw';
import viteAppMain from '../../../recipes/vite-app/main.ts?raw';
import eleventyPage from '../../../recipes/eleventy/week3.md?raw';
import eleventyLayout from '../../../recipes/eleventy/_includes/course.njk?raw';
import eleventyConfig from '../../../recipes/eleventy/eleventy.config.mjs?raw';
import hostPolicy from '../../../recipes/host-policy.txt?raw';
import frameHeights from '../../../recipes/frame-heights.json';
import { el } from '../../widgets/element/base';
import { MESSAGES } from '../../host/explain';
import { WIDGET_EVENTS } from './frame-page';
import { exampleLanguage } from './languages';
import '../../host/frames';
import './guide.css';

/** Where the recipes say the build's files are; the guide shows its own address instead. */
const EXAMPLE_ASSETS = 'https://assets.example.org/attention-lab/';

/** The headers an asset host sends with the build's files, as the guide lists them. */
export const ASSET_HOST_HEADERS: [string, string][] = [
  [
    'Access-Control-Allow-Origin: *',
    "with every file (or the course page's origin, then with Vary: Origin): the widgets' module, its chunks, the WebAssembly core and the stylesheets are all loaded with CORS from another origin.",
  ],
  ['Content-Type: text/javascript', 'with .js files (browsers run a module only with a JavaScript type);'],
  [
    'Content-Type: application/wasm',
    'with the .wasm files (else a core compiles only after it has downloaded entirely);',
  ],
  ['Content-Type: text/css, image/svg+xml, text/html', 'with .css, .svg and .html files;'],
  ['no X-Frame-Options, and no frame-ancestors that leaves the course out', 'with embed.html, for the iframe form;'],
  [
    "script-src 'self' 'wasm-unsafe-eval'",
    'in any Content-Security-Policy the host sends with embed.html and the assets/ files (the framed widget and the training Worker run under it);',
  ],
  [
    'Cache-Control: public, max-age=31536000, immutable',
    'with assets/*-HASH.* (their names change with their content), and Cache-Control: no-cache with the rest (recommended);',
  ],
  [
    'Content-Encoding: br or gzip',
    'for browsers that accept it (recommended): the build writes each file also compressed, as NAME.br and NAME.gz beside it, for a host that sends those.',
  ],
];

const code = (text: string, attrs: Record<string, string> = {}) =>
  el('pre', { tabindex: '0', ...attrs }, el('code', {}, text));

/** The example origin in a recipe's text replaced by the guide's own address. */
function localise(text: string, base: string): string {
  return text
    .replaceAll(EXAMPLE_ASSETS, base)
    .replaceAll(EXAMPLE_ASSETS.replace(/\/attention-lab\/$/, ''), new URL(base).origin);
}

function fillSnippets(base: string): void {
  document.getElementById('script-snippet')!.textContent =
    `<link rel="stylesheet" href="${base}attention-lab.css">\n<script src="${base}attention-lab-loader.js" defer></script>\n\n` +
    '<attn-soft-lookup scale="on"></attn-soft-lookup>\n<attn-quiz src="my-questions.json"></attn-quiz>';
  document.getElementById('iframe-snippet')!.textContent =
    `<iframe src="${base}embed.html?widget=attn-quiz&amp;parent-origin=https://course.example.org"\n` +
    `        title="Quiz" width="100%" height="${frameHeights.heights['attn-quiz'].at(-1)}"></iframe>\n` +
    `<script src="${base}attention-lab-frames.js" defer></script>\n` +
    '<script src="week3.js" defer></script>';
  document.getElementById('frame-events-snippet')!.textContent =
    "// week3.js: a framed widget's events arrive on its <iframe>, as DOM events that bubble.\n" +
    'const quiz = document.querySelector(\'iframe[title="Quiz"]\');\n' +
    "quiz.addEventListener('attn-quiz-answered', (event) => {\n" +
    "  console.log(event.detail.score, event.detail.total);  // the same detail as the element's\n" +
    '});';
  document.getElementById('frame-event-names')!.textContent = WIDGET_EVENTS.join(', ');
}

function fillHosting(base: string): void {
  document
    .getElementById('asset-host-headers')!
    .replaceChildren(...ASSET_HOST_HEADERS.map(([header, when]) => el('li', {}, el('code', {}, header), ` ${when}`)));
  document
    .getElementById('host-policy')!
    .replaceChildren(code(`Content-Security-Policy: ${localise(hostPolicy.trim(), base)}`, { class: 'wrapped-code' }));
  const origin = new URL(base).origin;
  const rows: [string, string][] = [
    [
      MESSAGES.noCors(origin, 'attention-lab.js'),
      'The asset host sends no CORS header: send Access-Control-Allow-Origin with every file.',
    ],
    [
      MESSAGES.policyRefused('script-src', origin),
      "The course page's policy leaves the asset host out of a directive: add it there.",
    ],
    [MESSAGES.wasmRefused(), "Add 'wasm-unsafe-eval' to the course page's script-src."],
    [
      MESSAGES.workerRefused(`blob: ${origin}`, "worker-src 'none'"),
      "The trainer runs in a Worker. With the files on another origin it starts from a blob: address and loads its code from the asset host as a worker script: worker-src needs both (on the same origin, 'self').",
    ],
    [MESSAGES.httpError(`${base}assets/…`, 404), 'A file of the build is missing where the others are.'],
    [MESSAGES.wrongType(`${base}attention-lab.js`, 'text/plain'), 'The asset host sends the wrong Content-Type.'],
  ];
  document
    .getElementById('failure-messages')!
    .replaceChildren(...rows.map(([message, fix]) => el('tr', {}, el('td', {}, message), el('td', {}, fix))));
  document
    .getElementById('frame-heights')!
    .replaceChildren(
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'widget'),
          ...frameHeights.widths.map((w, i) =>
            el(
              'th',
              { scope: 'col' },
              i === frameHeights.widths.length - 1 ? `frame ${w} px wide or wider` : `frame ${w} px wide`,
            ),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        ...Object.entries(frameHeights.heights).map(([tag, heights]) =>
          el('tr', {}, el('td', {}, el('code', {}, tag)), ...heights.map((h) => el('td', {}, `height="${h}"`))),
        ),
      ),
    );
}

function fillRecipes(base: string): void {
  const recipes: Record<string, [string, string][]> = {
    'recipe-other-host': [
      ['week3.html, on https://course.example.org', otherHostPage],
      ['my-questions.json, next to it', myQuestions],
    ],
    'recipe-course-folder': [['/courses/ml/week3.html; the build copied to /courses/ml/attention/', courseFolderPage]],
    'recipe-vite-app': [
      ['index.html', viteAppPage],
      ['main.ts', viteAppMain],
    ],
    'recipe-lms': [["the LMS page's HTML", lmsPage]],
    'recipe-eleventy': [
      ['week3.md', eleventyPage],
      ['_includes/course.njk', eleventyLayout],
      ['eleventy.config.mjs', eleventyConfig],
    ],
  };
  for (const [id, files] of Object.entries(recipes))
    document
      .getElementById(id)!
      .replaceChildren(
        ...files.flatMap(([name, text]) => [el('p', { class: 'file-name' }, name), code(localise(text.trim(), base))]),
      );
}

/** The live iframe example (in the guide's ?lang=): the frames script (imported above) sizes it; its events are logged. */
function frameExample(): void {
  const frame = document.getElementById('example-frame') as HTMLIFrameElement;
  const log = document.getElementById('frame-log')!;
  let events = 0;
  for (const name of WIDGET_EVENTS)
    frame.addEventListener(name, () => {
      frame.dataset.events = String((events += 1));
      log.textContent = `${events} event(s); last: ${name}`;
    });
  const language = exampleLanguage();
  frame.src = `embed.html?widget=attn-soft-lookup&parent-origin=${encodeURIComponent(location.origin)}${language ? `&lang=${language}` : ''}`;
}

/** Fills the guide's hosting parts; `base` is the address of the build's files (the guide's folder). */
export function renderHostingGuide(base: string): void {
  fillSnippets(base);
  fillHosting(base);
  fillRecipes(base);
  frameExample();
}
