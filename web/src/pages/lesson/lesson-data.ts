// The lesson's quiz and exercises, given to their widgets as author data (the widgets have no
// content of their own): a child <script type="application/json">, and for the quiz the numbers
// its {name} placeholders quote. The lesson and the framed widget page (embed.html?widget=attn-quiz
// without src) use it.
import type { LiveNumbers } from '../../common/live-format';
import exercises from './exercises.json';
import quiz from './quiz.json';

const DATA: Record<string, unknown> = { 'attn-quiz': quiz, 'attn-exercises': exercises };

/** Whether the lesson has data for the widget `tag`. */
export function hasLessonData(tag: string): boolean {
  return tag in DATA;
}

/** Whether the lesson's data for `tag` quotes the lesson's numbers. */
export function needsLessonNumbers(tag: string): boolean {
  return tag === 'attn-quiz';
}

/** Gives `widget` (not yet drawn) the lesson's data for its tag, if there is any; the quiz also `numbers`. */
export function giveLessonData(widget: HTMLElement, numbers: LiveNumbers): void {
  const data = DATA[widget.localName];
  if (data === undefined) return;
  const script = document.createElement('script');
  script.type = 'application/json';
  script.textContent = JSON.stringify(data);
  widget.append(script);
  if (needsLessonNumbers(widget.localName)) Object.assign(widget, { numbers });
}
