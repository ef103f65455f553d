// The lesson page (loaded by start.ts): loads the core, computes the numbers the prose quotes,
// renders the sections and lets the widgets start as they come into view. The page speaks its
// language (?lang=, else the browser's): its own words from the lesson catalog, the prose from its
// translation (prose.ts) or else in English, the numbers as the language writes them. The first
// screen made at build time (first-screen.ts) is kept when it is in that language, and replaced
// otherwise.
import katex from 'katex';
import '../../widgets/autoload';
import lessonMessages from 'attn-messages:lesson';
import { routeTableMessages } from '../../widgets/shared/route-table';
import { applyPageLanguage, numberLocale } from '../../common/language';
import { messagesIn } from '../../common/messages';
import { getCore } from '../../core/instance';
import type { LiveNumbers } from '../../common/live-format';
import { applyLiveNumbersInParts, useMath } from '../../common/rich-text';
import type { EventDetail } from '../../widgets/element/contract';
import type { CUE_TRAINER } from '../../widgets/element/contracts';
import { getLiveNumbersInParts } from './live-numbers';
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
  offerOfflineWhenIdle(language);
  const status = document.getElementById('core-status')!;
  const main = document.getElementById('lesson')!;
  const toc = document.getElementById('toc')!;
  const started = performance.now();
  const [messages, prose, data] = await Promise.all([
    messagesIn(language, lessonMessages, routeTableMessages),
    proseIn(language, sections),
    lessonDataIn(language),
  ]);
  const proseInEnglish = prose.language !== language;
  applyChrome(messages, proseInEnglish);
  // The text first, so it can be read (and the first widgets can start loading) while the
  // core loads; its numbers are filled in once the core has computed them.
  useMath(katex);
  // Filled in once the core has computed them; the quiz reads the same object.
  const numbers: LiveNumbers = {};
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
    // The core's work and the page's updates a part at a time, the page answering in between.
    const core = await getCore();
    await nextTask();
    Object.assign(numbers, await getLiveNumbersInParts(core, nextTask));
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
