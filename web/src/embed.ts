// The embedding guide (embed.html) and, with ?widget=TAG, the page that frames one widget
// (host/frame-page.ts: what it posts to its parent, and to whom). The guide's parts about
// hosting, the iframe form and the recipes are host/guide.ts.
import './widgets/index';
import { getCore } from './core-instance';
import type { Configs, FieldSpec } from './core';
import { AttnElement, applyPageTheme, el } from './widgets/base';
import { frameWidget } from './host/frame-page';
import { renderHostingGuide } from './host/guide';

// Attributes that are the widget's own; those passed to the core are listed from the widget's
// coreAttributes, with the core's defaults and ranges.
export const WIDGETS: Record<string, string> = {
  'attn-soft-lookup': 'keys, values (JSON lists of [x, y]), query ("[x, y]"), scale ("on" | "off"), temperature (0.25 to 4)',
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

function frameMode(tag: string, params: URLSearchParams): void {
  document.querySelectorAll('.guide-only').forEach((node) => node.remove());
  document.body.classList.add('framed');
  const host = document.getElementById('frame-host')!;
  host.hidden = false;
  frameWidget(host, tag, params, Object.keys(WIDGETS));
}

async function guideMode(): Promise<void> {
  renderHostingGuide(new URL('./', location.href).href);

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
