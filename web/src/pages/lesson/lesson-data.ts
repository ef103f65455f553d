// The lesson's quiz and exercises, given to their widgets as author data (the widgets have no
// content of their own): a child <script type="application/json">, and for the quiz the numbers
// its {name} placeholders quote. The lesson and the framed widget page (embed.html?widget=attn-quiz
// without src) use it. English is bundled; a translation (quiz.<language>.json, the same data with
// its texts translated) loads only when the lesson is shown in that language, and the
// pseudo-locales are made from the English, TeX, code and placeholders kept.
import type { LiveNumbers } from '../../common/live-format';
import { PSEUDO_LOCALES, type PageLanguage, type PseudoLocale } from '../../common/language';
import exercises from './exercises.json';
import quiz from './quiz.json';
import { pseudoProse } from './prose';

export type LessonData = Record<string, unknown>;

const DATA: LessonData = { 'attn-quiz': quiz, 'attn-exercises': exercises };

const TRANSLATED: Partial<Record<PageLanguage, () => Promise<LessonData>>> = {
  es: async () => {
    const [quizEs, exercisesEs] = await Promise.all([import('./quiz.es.json'), import('./exercises.es.json')]);
    return { 'attn-quiz': quizEs.default, 'attn-exercises': exercisesEs.default };
  },
};

/** The fields of the quiz and exercise data a reader reads; the others (ids, kinds, parameters) are kept. */
export const TEXT_FIELDS = new Set(['title', 'prompt', 'text', 'feedback', 'explanation']);

function mapTexts(data: unknown, say: (text: string) => string, field?: string): unknown {
  if (Array.isArray(data)) return data.map((item) => mapTexts(item, say, field));
  if (data && typeof data === 'object')
    return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, mapTexts(value, say, key)]));
  return typeof data === 'string' && field !== undefined && TEXT_FIELDS.has(field) ? say(data) : data;
}

/** Whether the lesson has data for the widget `tag`. */
export function hasLessonData(tag: string): boolean {
  return tag in DATA;
}

/** Whether the lesson's data for `tag` quotes the lesson's numbers. */
export function needsLessonNumbers(tag: string): boolean {
  return tag === 'attn-quiz';
}

/**
 * The lesson's data in `language`, and the language it is written in: English where there is no
 * translation (or it fails to load).
 */
export async function lessonDataIn(language: PageLanguage): Promise<{ data: LessonData; language: PageLanguage }> {
  if (Object.hasOwn(PSEUDO_LOCALES, language)) {
    const pseudo = mapTexts(DATA, (text) => pseudoProse(text, language as PseudoLocale)) as LessonData;
    for (const set of Object.values(pseudo)) Object.assign(set as object, { lang: language });
    return { data: pseudo, language };
  }
  const load = TRANSLATED[language];
  if (!load) return { data: DATA, language: 'en' };
  try {
    return { data: await load(), language };
  } catch (error) {
    console.warn(`attention-lab: the lesson's ${language} quiz and exercises did not load; English instead`, error);
    return { data: DATA, language: 'en' };
  }
}

/**
 * Gives `widget` (not yet drawn) the lesson's data for its tag, if there is any (`data`: the
 * lesson's in a language, from lessonDataIn; English by default); the quiz also `numbers`.
 */
export function giveLessonData(widget: HTMLElement, numbers: LiveNumbers, data: LessonData = DATA): void {
  const own = data[widget.localName];
  if (own === undefined) return;
  const script = document.createElement('script');
  script.type = 'application/json';
  script.textContent = JSON.stringify(own);
  widget.append(script);
  if (needsLessonNumbers(widget.localName)) Object.assign(widget, { numbers });
}
