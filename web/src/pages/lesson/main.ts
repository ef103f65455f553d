// The lesson page (loaded by start.ts): has the core compute the numbers the prose quotes (in a
// Worker: numbers-client.ts), renders the sections and lets the widgets start as they come into
// view. The page speaks its language (?lang=, else the browser's): its own words from the lesson
// catalog, the prose from its translation (prose.ts) or else in English, the numbers as the
// language writes them. The first screen made at build time (first-screen.ts) is kept when it is
// in that language, and replaced otherwise.
import '../../widgets/autoload';
import lessonMessages from 'attn-messages:lesson';
import { routeTableMessages } from '../../widgets/shared/route-table';
import { applyPageLanguage, numberLocale } from '../../common/language';
import { messagesIn } from '../../common/messages';
import type { LiveNumbers } from '../../common/live-format';
import { applyLiveNumbersInParts, useMath } from '../../common/rich-text';
import type { EventDetail } from '../../widgets/element/contract';
import type { CUE_TRAINER } from '../../widgets/element/contracts';
import { fillLessonNumbers } from './numbers-client';
import { nextTask } from './frames';
import { sections } from './sections';
import { renderLesson } from './lesson-render';
import { showRun } from './shown-run';
import { applyChrome } from './chrome';
import { proseIn } from './prose';
import { lessonDataIn } from './lesson-data';
import { offerOfflineWhenIdle } from './offline';
import { columnWidth, reserveWidgetSizes } from './reserved-sizes';
import { fragmentTarget, landOn } from './landing';

async function main(): Promise<void> {
  const language = applyPageLanguage();
  const locale = numberLocale(language);
  const status = document.getElementById('core-status')!;
  const main = document.getElementById('lesson')!;
  const toc = document.getElementById('toc')!;
  const started = performance.now();
  // The numbers the prose quotes, computed by the core in a Worker while the page renders, and
  // filled in once they are there; the quiz reads the same object.
  const numbers: LiveNumbers = {};
  const computing = fillLessonNumbers(numbers);
  computing.catch(() => undefined); // reported below, once the lesson has rendered
  offerOfflineWhenIdle(language, computing);
  const [messages, prose, data, { default: katex }] = await Promise.all([
    messagesIn(language, lessonMessages, routeTableMessages),
    proseIn(language, sections),
    lessonDataIn(language),
    import('katex'),
  ]);
  // The start a task at a time, so that a phone's page answers in between: the modules'
  // evaluation, the page's own words, then the lesson's first part.
  await nextTask();
  const proseInEnglish = prose.language !== language;
  applyChrome(messages, proseInEnglish);
  useMath(katex);
  await nextTask();
  const root = document.documentElement;
  const kept = root.dataset.prerendered === language;
  if (!kept) {
    toc.replaceChildren();
    main.querySelectorAll(':scope > section').forEach((section) => section.remove());
  }
  const column = columnWidth(main); // before the widgets are in it: a cheap layout
  const reserve = reserveWidgetSizes(main, column, language);
  const rendered = renderLesson(
    main,
    toc,
    prose.sections,
    numbers,
    { messages, locale, proseLang: proseInEnglish ? prose.language : undefined, data: data.data },
    reserve,
    kept,
  );
  // The first screen is in the reader's language now (renderLesson put it in before returning).
  delete root.dataset.relocalizing;
  // The hash holds the readers' settings, so section links scroll instead of navigating; a
  // section still being rendered is landed on once it is there.
  toc.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (!link) return;
    event.preventDefault();
    void rendered.then(() => {
      const target = document.getElementById(link.getAttribute('href')!.slice(1));
      if (!target) return;
      landOn(target, true);
      target.querySelector('h2')?.setAttribute('tabindex', '-1');
      target.querySelector('h2')?.focus({ preventScroll: true });
    });
  });
  // The words about the cue-task run follow the run the trainer shows.
  main.addEventListener('attn-run-shown', (event) => {
    const { seed, analysis, interventions } = (event as CustomEvent<EventDetail<typeof CUE_TRAINER, 'attn-run-shown'>>)
      .detail;
    void rendered.then(() => showRun(main, { seed, analysis, route: interventions }));
  });
  await rendered;
  // A link to a section: the browser looked for it before it was rendered.
  const target = fragmentTarget();
  if (target) landOn(target, false);
  try {
    // The page's updates a part at a time, the page answering in between.
    await computing;
    await applyLiveNumbersInParts(main, numbers, nextTask);
    const ms = performance.now() - started;
    status.textContent = messages.text('coreReady', { ms: Math.round(ms) });
    document.documentElement.dataset.lessonReady = String(Math.round(ms));
  } catch (error) {
    status.dataset.state = 'error';
    status.textContent = messages.text('coreFailed', {
      error: error instanceof Error ? error.message : String(error),
    });
    console.error(error);
  }
}

void main();
