// The lesson's prose in the page's language. sections.ts holds the structure and the English;
// a translation is a content file (prose/<language>.json) mapping each English text to its
// translation, gettext-style: the English text is the key, so a text changed in sections.ts has
// no translation until it is translated again (tests/unit/lesson-prose.test.mjs finds it), and the
// structure stays in one place. A language's file loads only when the page is in that language.
// The pseudo-locales are made from the English, keeping TeX, code, **, and live numbers.
import type { Message } from '../../common/messages';
import { PSEUDO_LOCALES, type PageLanguage, type PseudoLocale } from '../../common/language';
import { pseudoMessage } from '../../common/pseudo-locale';
import type { Block, Section } from './sections';

/** English text -> its translation. */
export type Prose = Record<string, string>;

const PROSE: Partial<Record<PageLanguage, () => Promise<{ default: Prose }>>> = {
  es: () => import('./prose/es.json'),
};

/** Every text of a block a reader reads as prose (not code, TeX or catalog messages), in page order. */
export function* blockTexts(block: Block): Generator<string> {
  switch (block.kind) {
    case 'p':
    case 'note':
      yield block.text;
      break;
    case 'list':
      yield* block.items;
      break;
    case 'widget':
      if (block.caption) yield block.caption;
      break;
    case 'details':
      yield block.summary;
      for (const inner of block.blocks) yield* blockTexts(inner);
      break;
    case 'panel':
      yield block.title;
      for (const inner of block.blocks) yield* blockTexts(inner);
      break;
  }
}

/** Every prose text of the lesson, in page order. */
export function* proseTexts(sections: Section[]): Generator<string> {
  for (const section of sections) for (const block of section.blocks) yield* blockTexts(block);
}

function mapBlock(block: Block, say: (text: string) => string): Block {
  switch (block.kind) {
    case 'p':
    case 'note':
      return { ...block, text: say(block.text) };
    case 'list':
      return { ...block, items: block.items.map(say) };
    case 'widget':
      return block.caption ? { ...block, caption: say(block.caption) } : block;
    case 'details':
      return { ...block, summary: say(block.summary), blocks: block.blocks.map((b) => mapBlock(b, say)) };
    case 'panel':
      return { ...block, title: say(block.title), blocks: block.blocks.map((b) => mapBlock(b, say)) };
    default:
      return block;
  }
}

/** The sections with every prose text passed through `say`. */
export function mapProse(sections: Section[], say: (text: string) => string): Section[] {
  return sections.map((section) => ({ ...section, blocks: section.blocks.map((b) => mapBlock(b, say)) }));
}

// What a translation keeps as it is: TeX, code, the ** of strong text, and placeholders (live
// numbers, and the {name} parameters of the exercises).
const KEPT = /(\$[^$]+\$|`[^`]+`|\*\*|\{[a-zA-Z]\w*(?:\.[\w-]+)*(?::(?:\d|e))?\})/;

/** The parts of `text` a translation must keep unchanged (TeX, code, live numbers), sorted. */
export function keptParts(text: string): string[] {
  return text
    .split(KEPT)
    .filter((part, i) => i % 2 === 1 && part !== '**')
    .sort();
}

/** `text` in a pseudo-locale: its words accented and lengthened, what it keeps untouched. */
export function pseudoProse(text: string, locale: PseudoLocale): string {
  const parts = text.split(KEPT);
  const message: Message = (params) =>
    parts.map((part, i) => (i % 2 === 1 ? String(params?.[`k${i}`]) : part)).join('');
  const kept = Object.fromEntries(parts.flatMap((part, i) => (i % 2 === 1 ? [[`k${i}`, part]] : [])));
  return pseudoMessage(message, locale)(kept);
}

/**
 * The lesson's sections as `language` says them, and the language their prose is in: English
 * when there is no translation (the page then marks the prose lang="en"). A text its
 * translation lacks stays English.
 */
export async function proseIn(
  language: PageLanguage,
  sections: Section[],
): Promise<{ sections: Section[]; language: PageLanguage; say: (text: string) => string }> {
  if (Object.hasOwn(PSEUDO_LOCALES, language)) {
    const say = (text: string) => pseudoProse(text, language as PseudoLocale);
    return { sections: mapProse(sections, say), language, say };
  }
  const load = PROSE[language];
  if (!load) return { sections, language: 'en', say: (text) => text };
  try {
    const prose = (await load()).default;
    const say = (text: string) => (Object.hasOwn(prose, text) ? prose[text] : text);
    return { sections: mapProse(sections, say), language, say };
  } catch (error) {
    console.warn(`attention-lab: the lesson's ${language} prose did not load; English instead`, error);
    return { sections, language: 'en', say: (text) => text };
  }
}
