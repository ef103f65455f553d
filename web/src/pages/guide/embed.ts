// The embedding guide (embed.html) and, with ?widget=TAG, the page that frames one widget
// (frame-page.ts: what it posts to its parent, and to whom). The guide's parts about
// hosting, the iframe form and the recipes are guide.ts.
import '../../widgets/autoload';
import { getCore } from '../../core/instance';
import { renderReference } from './guide-reference';
import { applyPageTheme } from '../../widgets/element/page-theme';
import { applyPageLanguage, languageOf } from '../../common/language';
import { messagesIn } from '../../common/messages';
import frameMessages from 'attn-messages:frame';
import { exampleLanguage, renderNumberRules, renderRightToLeft } from './languages';
import { CONTRACTS } from '../../widgets/element/contracts';
import { frameWidget } from './frame-page';
import { renderHostingGuide } from './guide';
import { renderConfigurator } from './configurator';

async function frameMode(tag: string, params: URLSearchParams): Promise<void> {
  applyPageLanguage();
  document.querySelectorAll('.guide-only').forEach((node) => node.remove());
  document.body.classList.add('framed');
  const host = document.getElementById('frame-host')!;
  host.hidden = false;
  const messages = await messagesIn(languageOf(document.documentElement), frameMessages);
  document.title = messages.text('title');
  host.querySelector('h1')!.textContent = messages.text('heading');
  // The quiz and the exercises framed without src show the lesson's, with the lesson's numbers.
  const lesson = params.has('src') ? undefined : await lessonData(tag);
  frameWidget(
    host,
    tag,
    params,
    CONTRACTS.map((c) => c.tag),
    lesson,
  );
}

/** What gives a framed widget the lesson's data, for a widget the lesson has data for. */
async function lessonData(tag: string): Promise<((widget: HTMLElement) => void) | undefined> {
  const { giveLessonData, hasLessonData, lessonDataIn, needsLessonNumbers } = await import('../lesson/lesson-data');
  if (!hasLessonData(tag)) return undefined;
  // The quiz's numbers are the lesson's, computed by the core (the lesson's code loads only then).
  const numbers = needsLessonNumbers(tag)
    ? (await import('../lesson/live-numbers')).getLiveNumbers(await getCore())
    : {};
  // In the frame's language where the lesson has it (applyPageLanguage set <html lang>).
  const { data } = await lessonDataIn(languageOf(document.documentElement));
  return (widget) => giveLessonData(widget, numbers, data);
}

async function guideMode(): Promise<void> {
  renderHostingGuide(new URL('./', location.href).href);

  // Live example 1: an author's own question, given as JSON inside the element.
  const quiz = document.createElement('attn-quiz');
  const data = document.createElement('script');
  data.type = 'application/json';
  data.textContent = JSON.stringify({
    questions: [
      {
        id: 'rows',
        prompt: 'After the softmax, what does each row of attention weights add up to?',
        options: [
          {
            text: 'The number of keys',
            correct: false,
            feedback: 'That would be a sum of ones; the softmax normalises each row.',
          },
          { text: 'Exactly 1', correct: true, feedback: 'Each row is a probability distribution over the keys.' },
          {
            text: 'The square root of d_k',
            correct: false,
            feedback: 'The √d_k scales the scores before the softmax, not the weights after it.',
          },
        ],
      },
    ],
  });
  quiz.append(data);
  const language = exampleLanguage();
  if (language) quiz.lang = language;
  document.getElementById('example-quiz')!.append(quiz);
  renderNumberRules(document.getElementById('number-rules') as HTMLTableElement);
  renderRightToLeft(document.getElementById('right-to-left') as HTMLTableElement);
  const quizLog = document.getElementById('quiz-log')!;
  quiz.addEventListener('attn-quiz-answered', (event) => {
    const d = (event as CustomEvent).detail;
    quizLog.textContent = `attn-quiz-answered: ${JSON.stringify(d)}`;
  });

  // The configurator and the reference, once the core can say its defaults and ranges.
  const { configs } = await getCore();
  await renderConfigurator(document.getElementById('configurator')!, configs, new URL('./', location.href).href);
  renderReference(document.getElementById('widget-reference')!, configs);
}

applyPageTheme();
const params = new URLSearchParams(location.search);
const tag = params.get('widget');
if (tag) void frameMode(tag, params);
else void guideMode();
