// The lesson's first screen as HTML made at build time: scripts/vite-lesson-first-screen.ts runs
// renderFirstScreen in Node, on a DOM parsed from the built index.html, and writes that DOM back.
// It puts in the page's own words, the contents and the first section in `language`, as main.ts
// renders them before the core has computed a number (the page's script fills the numbers in);
// main.ts keeps them when the reader's language is that one. The first section holds no widget,
// so it is whole without a script.
import katex from 'katex';
import lessonMessages from 'attn-messages:lesson';
import { routeTableMessages } from '../../widgets/shared/route-table';
import { messagesIn } from '../../common/messages';
import { numberLocale, type Language } from '../../common/language';
import { useMath } from '../../common/rich-text';
import { sections } from './sections';
import { proseIn } from './prose';
import { applyChrome } from './chrome';
import { renderContents, renderSection } from './lesson-render';

/** Fills the document's header, contents and lesson with the first screen in `language`, and marks it <html data-prerendered>. */
export async function renderFirstScreen(language: Language): Promise<void> {
  const [messages, prose] = await Promise.all([
    messagesIn(language, lessonMessages, routeTableMessages),
    proseIn(language, sections),
  ]);
  if (prose.language !== language) throw new Error(`first screen: the lesson has no ${language} prose`);
  const [first] = prose.sections;
  if (first.blocks.some((block) => block.kind === 'widget' || block.kind === 'route-table'))
    throw new Error(`first screen: the section "${first.id}" holds what only the page's script can draw`);
  applyChrome(messages, false);
  useMath(katex);
  const view = { messages, locale: numberLocale(language) };
  renderContents(document.getElementById('toc')!, prose.sections, view);
  document.getElementById('lesson')!.append(renderSection(first, {}, view));
  const root = document.documentElement;
  root.lang = language;
  root.dataset.prerendered = language;
}
