// The embedding guide (embed.html) and, with ?widget=TAG, the page that frames one widget.
//
// Frame mode: the widget named by ?widget= fills the page; other query parameters become its
// attributes. The frame posts {source: 'attention-lab', type: 'height', height} whenever its
// height changes and {source: 'attention-lab', type: 'event', name, detail} for every widget
// event, to the parent; ?parent-origin=ORIGIN restricts them to that origin.
import './widgets/index';
import { getCore } from './core-instance';
import { renderReference } from './guide-reference';
import { applyPageTheme, el } from './widgets/base';
import { eventsOf } from './widgets/contract';
import { CONTRACTS, contractOf } from './widgets/contracts';

/** Every event a widget raises (the contracts list them). */
const EVENTS = [...new Set(CONTRACTS.flatMap((c) => eventsOf(c).map((e) => e.name)))];
const MESSAGE_SOURCE = 'attention-lab';

function frameMode(tag: string, params: URLSearchParams): void {
  document.querySelectorAll('.guide-only').forEach((node) => node.remove());
  document.body.classList.add('framed');
  const host = document.getElementById('frame-host')!;
  host.hidden = false;
  if (!contractOf(tag)) {
    host.append(el('p', { class: 'attn-error', role: 'alert' }, `Unknown widget "${tag}". Known: ${CONTRACTS.map((c) => c.tag).join(', ')}.`));
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

  // The reference, once the core can say its defaults and ranges.
  renderReference(document.getElementById('widget-reference')!, (await getCore()).configs);
}

applyPageTheme();
const params = new URLSearchParams(location.search);
const tag = params.get('widget');
if (tag) frameMode(tag, params);
else void guideMode();
