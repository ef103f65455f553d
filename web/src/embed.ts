// The embedding guide (embed.html) and, with ?widget=TAG, the page that frames one widget.
//
// Frame mode: the widget named by ?widget= fills the page; other query parameters become its
// attributes. The frame posts {source: 'attention-lab', type: 'height', height} whenever its
// height changes and {source: 'attention-lab', type: 'event', name, detail} for every widget
// event, to the parent; ?parent-origin=ORIGIN restricts them to that origin.
import './widgets/index';
import { getCore } from './core-instance';
import type { Configs, FieldSpec } from './core';
import { AttnElement, applyPageTheme, el } from './widgets/base';

// Attributes that are the widget's own; those passed to the core are listed from the widget's
// coreAttributes, with the core's defaults and ranges.
export const WIDGETS: Record<string, string> = {
  'attn-soft-lookup': 'keys, values (JSON lists of [x, y]), query ("x, y"), scale ("on" | "off"), temperature (0.25 to 4)',
  'attn-ranked-table': 'or a child <script type="application/json"> / src with {columns, rows} to rank your own table',
  'attn-scale-figure': '',
  'attn-mask-figure': '',
  'attn-heads-figure': '',
  'attn-pitfall-demo': 'none',
  'attn-flowchart': 'none',
  'attn-quiz': 'src (URL of a quiz JSON) or a child <script type="application/json">; default: the lesson\'s five questions',
  'attn-exercises': 'a child <script type="application/json"> with {exercises}; default: the lesson\'s five',
  'attn-cue-trainer': '',
};

function describeField(attribute: string, field: FieldSpec, defaultValue: unknown): string {
  const shown = Array.isArray(defaultValue) ? `"${defaultValue.join(',')}"` : String(defaultValue);
  const ends = `${field.openMin ? '(' : '['}${field.min}, ${field.max}${field.openMax ? ')' : ']'}`;
  const range = field.kind === 'integers' ? `comma-separated, each in ${ends}` : `in ${ends}`;
  return `${attribute} (${field.help}; default ${shown}, ${range})`;
}

/** "positions (sequence length; default 10, in [1, 1024]), …" for a widget, from the core. */
export function attributeText(tag: string, configs: Configs): string {
  const element = customElements.get(tag) as (typeof AttnElement & CustomElementConstructor) | undefined;
  const fromCore = (element?.coreAttributes ?? []).map(({ attribute, config, key }) => {
    const spec = configs[config];
    const field = spec.fields.find((f) => f.key === key)!;
    return describeField(attribute, field, Object.entries(spec.defaults).find(([k]) => k === key)?.[1]);
  });
  return [...fromCore, WIDGETS[tag]].filter(Boolean).join('; ');
}
const EVENTS = ['attn-change', 'attn-quiz-answered', 'attn-exercise-checked', 'attn-ready'];
const MESSAGE_SOURCE = 'attention-lab';

function frameMode(tag: string, params: URLSearchParams): void {
  document.querySelectorAll('.guide-only').forEach((node) => node.remove());
  document.body.classList.add('framed');
  const host = document.getElementById('frame-host')!;
  host.hidden = false;
  if (!(tag in WIDGETS)) {
    host.append(el('p', { class: 'attn-error', role: 'alert' }, `Unknown widget "${tag}". Known: ${Object.keys(WIDGETS).join(', ')}.`));
    return;
  }
  const widget = document.createElement(tag);
  for (const [name, value] of params) {
    if (name === 'widget' || name === 'parent-origin') continue;
    if (/^[a-z][a-z0-9-]{0,39}$/.test(name) && value.length <= 2000) widget.setAttribute(name, value);
  }
  host.append(widget);
  const target = params.get('parent-origin') ?? '*';
  const post = (message: object) => window.parent !== window && window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, target);
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height !== last) post({ type: 'height', height: (last = height) });
  }).observe(document.body);
  for (const name of EVENTS)
    widget.addEventListener(name, (event) => post({ type: 'event', name, detail: structuredClone((event as CustomEvent).detail ?? null) }));
}

/** Is this a message a framed attention-lab widget sends? */
export function isWidgetMessage(data: unknown): data is { source: string; type: 'height'; height: number } | { source: string; type: 'event'; name: string; detail: unknown } {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  if (m.source !== MESSAGE_SOURCE) return false;
  if (m.type === 'height') return typeof m.height === 'number' && Number.isFinite(m.height) && m.height >= 0 && m.height < 100000;
  return m.type === 'event' && typeof m.name === 'string' && EVENTS.includes(m.name);
}

async function guideMode(): Promise<void> {
  const base = new URL('./', location.href).href;
  document.getElementById('script-snippet')!.textContent =
    `<link rel="stylesheet" href="${base}attention-lab.css">\n<script type="module" src="${base}attention-lab.js"></script>\n\n` +
    `<attn-soft-lookup scale="on"></attn-soft-lookup>\n<attn-quiz src="my-questions.json"></attn-quiz>`;
  document.getElementById('iframe-snippet')!.textContent =
    `<iframe src="${base}embed.html?widget=attn-mask-figure&positions=8&real=5"\n        title="Attention masks" width="100%" height="420"></iframe>\n<script>\n` +
    `  addEventListener('message', (e) => {\n    if (e.data?.source !== 'attention-lab') return;\n` +
    `    if (e.data.type === 'height') frame.height = e.data.height;   // size the frame\n` +
    `    if (e.data.type === 'event') console.log(e.data.name, e.data.detail);\n  });\n</script>`;


  // Live example 1: an author's own question, given as JSON inside the element.
  const quiz = document.createElement('attn-quiz');
  const data = document.createElement('script');
  data.type = 'application/json';
  data.textContent = JSON.stringify({
    questions: [{
      id: 'rows', prompt: 'After the softmax, what does each row of attention weights add up to?',
      options: [
        { text: 'The number of keys', correct: false, feedback: 'That would be a sum of ones; the softmax normalises each row.' },
        { text: 'Exactly 1', correct: true, feedback: 'Each row is a probability distribution over the keys.' },
        { text: 'The square root of d_k', correct: false, feedback: 'The √d_k scales the scores before the softmax, not the weights after it.' },
      ],
    }],
  });
  quiz.append(data);
  document.getElementById('example-quiz')!.append(quiz);
  const quizLog = document.getElementById('quiz-log')!;
  quiz.addEventListener('attn-quiz-answered', (event) => {
    const d = (event as CustomEvent).detail;
    quizLog.textContent = `attn-quiz-answered: ${JSON.stringify(d)}`;
  });

  // Live example 2: a framed widget that reports its height and events.
  const frame = document.getElementById('example-frame') as HTMLIFrameElement;
  const frameLog = document.getElementById('frame-log')!;
  let events = 0;
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.origin !== location.origin || !isWidgetMessage(event.data)) return;
    if (event.data.type === 'height') {
      frame.height = String(event.data.height);
      frame.dataset.reportedHeight = String(event.data.height);
    } else {
      events += 1;
      frame.dataset.events = String(events);
      frameLog.textContent = `${events} event(s); last: ${event.data.name}`;
    }
  });
  frame.src = `embed.html?widget=attn-soft-lookup&parent-origin=${encodeURIComponent(location.origin)}`;

  // The attribute table, once the core can say its defaults and ranges.
  const list = document.getElementById('widget-list')!;
  const { configs } = await getCore();
  for (const tag of Object.keys(WIDGETS)) list.append(el('tr', { 'data-tag': tag }, el('td', {}, el('code', {}, `<${tag}>`)), el('td', {}, attributeText(tag, configs))));
}

applyPageTheme();
const params = new URLSearchParams(location.search);
const tag = params.get('widget');
if (tag) frameMode(tag, params);
else void guideMode();
