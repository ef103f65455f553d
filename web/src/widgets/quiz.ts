// <attn-quiz>: multiple-choice questions with feedback on every option, Retry, Show solution,
// a score, keyboard operation (native radios and buttons) and feedback announced to screen
// readers. Questions come from the lesson's quiz.json, from a `src` attribute (URL of a JSON
// file), or from a child <script type="application/json">. Every text is inserted as text, so
// a question cannot inject markup. Emits attn-quiz-answered {id, correct, score, answered, total}.
import lessonQuiz from '../lesson/quiz.json';
import { getLiveNumbers } from '../live-numbers';
import type { LiveNumbers } from '../format';
import { renderRich } from '../rich-text';
import { AttnElement, define, el, fetchJson } from './base';

export interface QuizOption { text: string; correct: boolean; feedback: string }
export interface QuizQuestion { id: string; prompt: string; options: QuizOption[]; explanation?: string }
export interface QuizData { title?: string; questions: QuizQuestion[] }

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 2000;

/** Checks an author's quiz data and names what is wrong. */
export function validateQuiz(data: unknown): QuizData {
  const fail = (what: string) => { throw new Error(`quiz data: ${what}`); };
  if (typeof data !== 'object' || data === null || !Array.isArray((data as QuizData).questions)) fail('needs a "questions" list');
  const quiz = data as QuizData;
  if (quiz.questions.length < 1 || quiz.questions.length > 50) fail('needs 1 to 50 questions');
  quiz.questions.forEach((q, i) => {
    if (!isText(q?.id) || !isText(q.prompt)) fail(`question ${i + 1} needs an "id" and a "prompt" (text)`);
    if (!Array.isArray(q.options) || q.options.length < 2 || q.options.length > 8) fail(`question ${i + 1} needs 2 to 8 options`);
    if (q.options.filter((o) => o?.correct === true).length !== 1) fail(`question ${i + 1} needs exactly one option with "correct": true`);
    q.options.forEach((o, j) => {
      if (!isText(o.text) || !isText(o.feedback)) fail(`question ${i + 1}, option ${j + 1} needs "text" and "feedback" (text)`);
    });
    if (q.explanation !== undefined && !isText(q.explanation)) fail(`question ${i + 1}: "explanation" must be text`);
  });
  if (quiz.title !== undefined && !isText(quiz.title)) fail('"title" must be text');
  return quiz;
}

interface QuestionView {
  question: QuizQuestion;
  inputs: HTMLInputElement[];
  rows: HTMLElement[];
  feedback: HTMLElement;
  result?: boolean;
}

export class Quiz extends AttnElement {
  private views: QuestionView[] = [];
  private scoreLine!: HTMLElement;
  private numbers: LiveNumbers = {};

  protected async setup(): Promise<void> {
    const quiz = validateQuiz(await this.loadData());
    this.numbers = getLiveNumbers(this.core);
    const uid = Math.random().toString(36).slice(2, 8);
    const form = el('form', { class: 'quiz', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());
    quiz.questions.forEach((question, qi) => form.append(this.buildQuestion(question, qi, `${uid}-${qi}`)));
    this.scoreLine = el('p', { class: 'score', 'aria-live': 'polite' });
    const retryAll = el('button', { type: 'button' }, 'Retry all');
    retryAll.addEventListener('click', () => this.views.forEach((v) => this.reset(v)));
    this.replaceChildren(form, el('div', { class: 'attn-controls' }, retryAll), this.scoreLine);
    this.updateScore();
  }

  private async loadData(): Promise<unknown> {
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) return JSON.parse(inline.textContent ?? '');
    const src = this.getAttribute('src');
    if (src) return fetchJson(src, 'quiz data');
    return lessonQuiz;
  }

  private buildQuestion(question: QuizQuestion, index: number, id: string): HTMLElement {
    const legend = el('legend', {}, `${index + 1}. `, renderRich(question.prompt, this.numbers));
    const inputs: HTMLInputElement[] = [];
    const rows = question.options.map((option, oi) => {
      const input = el('input', { type: 'radio', name: `q-${id}`, id: `q-${id}-${oi}`, value: String(oi) });
      inputs.push(input);
      return el('div', { class: 'option' }, input, el('label', { for: `q-${id}-${oi}` }, renderRich(option.text, this.numbers)));
    });
    const feedback = el('div', { class: 'feedback', 'aria-live': 'polite' });
    const view: QuestionView = { question, inputs, rows, feedback };
    this.views.push(view);
    const check = el('button', { type: 'button' }, 'Check');
    check.addEventListener('click', () => this.check(view));
    const solution = el('button', { type: 'button' }, 'Show solution');
    solution.addEventListener('click', () => this.showSolution(view));
    const retry = el('button', { type: 'button' }, 'Retry');
    retry.addEventListener('click', () => this.reset(view));
    return el('fieldset', { 'data-question': question.id }, legend, ...rows, el('div', { class: 'attn-controls' }, check, solution, retry), feedback);
  }

  private check(view: QuestionView): void {
    const chosen = view.inputs.findIndex((i) => i.checked);
    if (chosen < 0) {
      view.feedback.dataset.result = 'wrong';
      view.feedback.replaceChildren('Choose an option first.');
      return;
    }
    const option = view.question.options[chosen];
    view.result = option.correct;
    view.rows.forEach((row) => delete row.dataset.result);
    view.rows[chosen].dataset.result = option.correct ? 'right' : 'wrong';
    view.feedback.dataset.result = option.correct ? 'right' : 'wrong';
    view.feedback.replaceChildren(
      el('strong', {}, option.correct ? 'Correct. ' : 'Not quite. '),
      renderRich(option.feedback, this.numbers),
      ...(option.correct && view.question.explanation ? [' ', renderRich(view.question.explanation, this.numbers)] : []),
    );
    this.updateScore();
    this.emit('attn-quiz-answered', { id: view.question.id, correct: option.correct, ...this.score() });
  }

  private showSolution(view: QuestionView): void {
    const right = view.question.options.findIndex((o) => o.correct);
    view.inputs[right].checked = true;
    view.rows.forEach((row, i) => (i === right ? (row.dataset.result = 'right') : delete row.dataset.result));
    view.feedback.dataset.result = 'right';
    view.feedback.replaceChildren(
      el('strong', {}, 'Solution: '),
      renderRich(view.question.options[right].text, this.numbers),
      ...(view.question.explanation ? [' — ', renderRich(view.question.explanation, this.numbers)] : []),
    );
    // A revealed answer does not count as answered correctly.
    if (view.result === undefined) view.result = false;
    this.updateScore();
  }

  private reset(view: QuestionView): void {
    view.inputs.forEach((i) => (i.checked = false));
    view.rows.forEach((row) => delete row.dataset.result);
    delete view.feedback.dataset.result;
    view.feedback.replaceChildren();
    view.result = undefined;
    this.updateScore();
  }

  score(): { score: number; answered: number; total: number } {
    return {
      score: this.views.filter((v) => v.result === true).length,
      answered: this.views.filter((v) => v.result !== undefined).length,
      total: this.views.length,
    };
  }

  private updateScore(): void {
    const { score, answered, total } = this.score();
    this.scoreLine.textContent = `Score: ${score} of ${total} correct (${answered} answered).`;
  }
}

define('attn-quiz', Quiz);
