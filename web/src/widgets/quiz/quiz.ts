// <attn-quiz>: multiple-choice questions with feedback on every option, Retry, Show solution,
// a score, keyboard operation (native radios and buttons) and feedback announced to screen
// readers. Questions: the author's (schemas/quiz.schema.json, as a child <script
// type="application/json"> or src); without them, an author error says so. Their {name}
// placeholders take the values of the `numbers` property (the lesson gives its live numbers).
// Every text is inserted as text, so a question cannot inject markup. Each check and each
// finished quiz is also an xAPI statement (xapi.ts). Attributes and events: QUIZ in contracts.ts.
import type { LiveNumbers } from '../../common/live-format';
import { mathReady, renderRich } from '../../common/rich-text';
import { numberLocale } from '../../common/language';
import { marked, readAuthorData, textsLanguage } from '../element/author-data';
import { AuthorError } from '../element/contract';
import { QUIZ } from '../element/contracts';
import { AttnElement, define, el } from '../element/base';
import quizMessages from 'attn-messages:quiz';
import type { XapiAgent } from '../element/public-types';
import { activityId, answeredStatement, completedStatement } from '../element/xapi';

/** A quiz as schemas/quiz.schema.json describes it. */
interface QuizOption {
  text: string;
  correct: boolean;
  feedback: string;
}
interface QuizQuestion {
  id: string;
  prompt: string;
  options: QuizOption[];
  explanation?: string;
}
interface QuizData {
  /** the language the texts are written in (BCP 47); absent: the widget's */
  lang?: string;
  title?: string;
  questions: QuizQuestion[];
}

interface QuestionView {
  question: QuizQuestion;
  inputs: HTMLInputElement[];
  rows: HTMLElement[];
  feedback: HTMLElement;
  result?: boolean;
}

export class Quiz extends AttnElement<typeof QUIZ> {
  static readonly contract = QUIZ;
  /** No core: the questions are text (the numbers they quote come from the page). */
  static readonly needsCore = false;
  static readonly messages = [quizMessages];

  /**
   * The learner, for the learning records: set by the host page (see QUIZ.properties). Declared,
   * not a field: a value set before the element was defined (the script form defines it when it
   * first appears) stays.
   */
  declare actor?: XapiAgent;

  /**
   * Values of the {name} placeholders in the questions' texts, read when the quiz draws (see
   * QUIZ.properties). Declared for the same reason as actor.
   */
  declare numbers?: LiveNumbers;

  private views: QuestionView[] = [];
  private scoreLine!: HTMLElement;
  private quizTitle = '';
  /** Where the author's texts are in a language of their own (data's lang): an element carrying it. */
  private textsLanguage?: HTMLElement;

  protected async draw(): Promise<void> {
    const [own] = await Promise.all([
      readAuthorData<QuizData>('quiz', this.inlineJson(), this.settings.src),
      mathReady(),
    ]);
    if (!own) throw new AuthorError(this.text('noQuestions'));
    const quiz = own;
    this.quizTitle = quiz.title ?? this.text('defaultTitle');
    this.textsLanguage = textsLanguage(quiz.lang);
    this.views = [];
    const uid = Math.random().toString(36).slice(2, 8);
    const form = el('form', { class: 'quiz', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());
    quiz.questions.forEach((question, qi) => form.append(this.buildQuestion(question, qi, `${uid}-${qi}`)));
    this.scoreLine = el('p', { class: 'score', 'aria-live': 'polite' });
    const retryAll = el('button', { type: 'button' }, this.text('retryAll'));
    retryAll.addEventListener('click', () => this.views.forEach((v) => this.reset(v)));
    this.replaceChildren(form, el('div', { class: 'attn-controls' }, retryAll), this.scoreLine);
    this.updateScore();
  }

  private buildQuestion(question: QuizQuestion, index: number, id: string): HTMLElement {
    const legend = el('legend', {}, `${index + 1}. `, this.rich(question.prompt));
    const inputs: HTMLInputElement[] = [];
    const rows = question.options.map((option, oi) => {
      const input = el('input', { type: 'radio', name: `q-${id}`, id: `q-${id}-${oi}`, value: String(oi) });
      inputs.push(input);
      return el('div', { class: 'option' }, input, el('label', { for: `q-${id}-${oi}` }, this.rich(option.text)));
    });
    const feedback = el('div', { class: 'feedback', 'aria-live': 'polite' });
    const view: QuestionView = { question, inputs, rows, feedback };
    this.views.push(view);
    const check = el('button', { type: 'button' }, this.text('check'));
    check.addEventListener('click', () => this.check(view));
    const solution = el('button', { type: 'button' }, this.text('showSolution'));
    solution.addEventListener('click', () => this.showSolution(view));
    const retry = el('button', { type: 'button' }, this.text('retry'));
    retry.addEventListener('click', () => this.reset(view));
    return el(
      'fieldset',
      { 'data-question': question.id },
      legend,
      ...rows,
      el('div', { class: 'attn-controls' }, check, solution, retry),
      feedback,
    );
  }

  private check(view: QuestionView): void {
    const chosen = view.inputs.findIndex((i) => i.checked);
    if (chosen < 0) {
      view.feedback.dataset.result = 'wrong';
      view.feedback.replaceChildren(this.text('chooseFirst'));
      return;
    }
    const option = view.question.options[chosen];
    const wasComplete = this.complete();
    view.result = option.correct;
    view.rows.forEach((row) => delete row.dataset.result);
    view.rows[chosen].dataset.result = option.correct ? 'right' : 'wrong';
    view.feedback.dataset.result = option.correct ? 'right' : 'wrong';
    view.feedback.replaceChildren(
      el('strong', {}, this.text(option.correct ? 'correct' : 'notQuite')),
      ' ',
      this.rich(option.feedback),
      ...(option.correct && view.question.explanation ? [' ', this.rich(view.question.explanation)] : []),
    );
    this.updateScore();
    const activity = activityId(this, this.settings['activity-id']);
    const statement = answeredStatement({
      element: this.textsLanguage ?? this,
      actor: this.actor,
      activity,
      id: view.question.id,
      name: view.question.prompt,
      success: option.correct,
      response: String(chosen),
      choices: view.question.options.map((o) => o.text),
      correctChoice: view.question.options.findIndex((o) => o.correct),
    });
    this.emit('attn-quiz-answered', { id: view.question.id, correct: option.correct, ...this.score(), statement });
    if (!wasComplete) this.reportIfComplete();
  }

  /** Has every question been answered or revealed? */
  private complete(): boolean {
    return this.views.every((v) => v.result !== undefined);
  }

  /** The quiz just became complete: one "completed" record. */
  private reportIfComplete(): void {
    if (!this.complete()) return;
    const { score, total } = this.score();
    const statement = completedStatement({
      element: this.textsLanguage ?? this,
      actor: this.actor,
      activity: activityId(this, this.settings['activity-id']),
      name: this.quizTitle,
      score,
      total,
    });
    this.emit('attn-quiz-completed', { score, total, statement });
  }

  private showSolution(view: QuestionView): void {
    const right = view.question.options.findIndex((o) => o.correct);
    view.inputs[right].checked = true;
    view.rows.forEach((row, i) => (i === right ? (row.dataset.result = 'right') : delete row.dataset.result));
    view.feedback.dataset.result = 'right';
    view.feedback.replaceChildren(
      el('strong', {}, this.text('solution')),
      ' ',
      this.rich(view.question.options[right].text),
      ...(view.question.explanation ? [' — ', this.rich(view.question.explanation)] : []),
    );
    // A revealed answer does not count as answered correctly.
    const wasComplete = this.complete();
    if (view.result === undefined) view.result = false;
    this.updateScore();
    if (!wasComplete) this.reportIfComplete();
  }

  private reset(view: QuestionView): void {
    view.inputs.forEach((i) => (i.checked = false));
    view.rows.forEach((row) => delete row.dataset.result);
    delete view.feedback.dataset.result;
    view.feedback.replaceChildren();
    view.result = undefined;
    this.updateScore();
  }

  /** An author's text, rendered, marked with its language when the data states one. */
  private rich(text: string): Node {
    return marked(this.textsLanguage, renderRich(text, this.numbers ?? {}, numberLocale(this.messages.language)));
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
    this.scoreLine.textContent = this.text('score', { score, total, answered });
  }
}

define(Quiz);
