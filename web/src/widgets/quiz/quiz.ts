// <attn-quiz>: multiple-choice questions with feedback on every option, Retry, Show solution,
// a score, keyboard operation (native radios and buttons) and feedback announced to screen
// readers. Questions: the author's (schemas/quiz.schema.json, as a child <script
// type="application/json"> or src); without them, an author error says so. Their {name}
// placeholders take the values of the `numbers` property (the lesson gives its live numbers).
// Every text is inserted as text, so a question cannot inject markup. Each check and each
// finished quiz is also an xAPI statement (xapi.ts), named by the author's option indexes
// whatever order the options are shown in (option-order.ts). With a progress store (persist="on",
// or a host's) the reader's answers are kept and come back when the quiz draws. Attributes and
// events: QUIZ in contracts.ts.
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
import { widgetKey } from '../element/progress-store';
import { OUTCOME, readAnswers, type SavedAnswer } from '../element/saved-answers';
import { hashText, optionOrder } from './option-order';
import { keyLengths, keysGiveAway } from './key-lengths';

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
  /** the radios and their rows, by the author's option index */
  inputs: HTMLInputElement[];
  rows: HTMLElement[];
  feedback: HTMLElement;
  /** Check and Retry: disabled once the question is locked */
  lockable: HTMLButtonElement[];
  /** checks left, or the question locked (attempts > 0) */
  attemptsNote: HTMLElement;
  /** the option last checked (the author's index), -1 for none */
  chosen: number;
  result?: boolean;
  revealed: boolean;
  checks: number;
}

export class Quiz extends AttnElement<typeof QUIZ> {
  static readonly contract = QUIZ;
  /** No core: the questions are text (the numbers they quote come from the page). */
  static readonly needsCore = false;
  static readonly messages = [quizMessages];
  static override readonly graded = true;

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
    this.warnLongKeys(quiz);
    this.quizTitle = quiz.title ?? this.text('defaultTitle');
    this.textsLanguage = textsLanguage(quiz.lang);
    this.views = [];
    const seed = this.settings.order === 'shuffled' ? this.orderSeed(quiz) : undefined;
    const uid = Math.random().toString(36).slice(2, 8);
    const form = el('form', { class: 'quiz', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());
    quiz.questions.forEach((question, qi) => form.append(this.buildQuestion(question, qi, `${uid}-${qi}`, seed)));
    this.scoreLine = el('p', { class: 'score', 'aria-live': 'polite' });
    const retryAll = el('button', { type: 'button' }, this.text('retryAll'));
    retryAll.addEventListener('click', () => {
      this.views.forEach((v) => this.reset(v));
      this.changed();
    });
    const controls = el('div', { class: 'attn-controls' }, retryAll);
    if (this.progressStore) {
      const forget = el('button', { type: 'button', class: 'attn-forget' }, this.text('forget'));
      forget.addEventListener('click', () => this.forgetProgress());
      controls.append(forget);
    }
    this.restore();
    this.replaceChildren(form, controls, this.scoreLine);
    this.updateScore();
    this.emitProgress();
  }

  /** Tells the author (console, not the reader) when the right option is the longest in most questions. */
  private warnLongKeys(quiz: QuizData): void {
    const k = keyLengths(quiz.questions);
    if (keysGiveAway(k))
      console.warn(
        `attention-lab: <attn-quiz>: the right option is the longest in ${k.keyLongest.length} of ${k.questions} questions ` +
          `(${k.keyLongest.join(', ')}); a reader can pick it by its length. Make distractors as specific and long as the key.`,
      );
  }

  /**
   * The seed of the options' order: the learner's account name or mailbox when the host set the
   * actor, else a random seed kept with the saved progress, else the quiz's content.
   */
  private orderSeed(quiz: QuizData): string {
    const learner = this.actor?.account?.name ?? this.actor?.mbox;
    if (learner) return `learner:${learner}`;
    if (this.progressStore) {
      const saved = this.loadProgress('seed');
      if (typeof saved === 'string' && /^[0-9a-z]{1,16}$/.test(saved)) return saved;
      const fresh = Math.random().toString(36).slice(2, 10);
      this.saveProgress('seed', fresh);
      if (this.loadProgress('seed') === fresh) return fresh; // else the store refused it: the content
    }
    return `content:${hashText(JSON.stringify(quiz.questions))}`;
  }

  private buildQuestion(question: QuizQuestion, index: number, id: string, seed: string | undefined): HTMLElement {
    const legend = el('legend', {}, `${index + 1}. `, this.rich(question.prompt));
    const inputs: HTMLInputElement[] = [];
    // The radios keep the author's index as their value and id, whatever their place.
    const rows = question.options.map((option, oi) => {
      const input = el('input', { type: 'radio', name: `q-${id}`, id: `q-${id}-${oi}`, value: String(oi) });
      inputs.push(input);
      return el('div', { class: 'option' }, input, el('label', { for: `q-${id}-${oi}` }, this.rich(option.text)));
    });
    const shown = seed === undefined ? rows.map((_, i) => i) : optionOrder(rows.length, seed, question.id);
    const feedback = el('div', { class: 'feedback', 'aria-live': 'polite' });
    const check = el('button', { type: 'button' }, this.text('check'));
    const retry = el('button', { type: 'button' }, this.text('retry'));
    const buttons = [check];
    if (this.settings.solution === 'on') {
      const solution = el('button', { type: 'button' }, this.text('showSolution'));
      solution.addEventListener('click', () => this.showSolution(view));
      buttons.push(solution);
    }
    buttons.push(retry);
    const attemptsNote = el('p', { class: 'attempts' });
    const view: QuestionView = {
      question,
      inputs,
      rows,
      feedback,
      lockable: [check, retry],
      attemptsNote,
      chosen: -1,
      revealed: false,
      checks: 0,
    };
    this.views.push(view);
    check.addEventListener('click', () => this.check(view));
    retry.addEventListener('click', () => {
      this.reset(view);
      this.changed();
    });
    this.updateAttempts(view);
    return el(
      'fieldset',
      { 'data-question': question.id },
      legend,
      ...shown.map((i) => rows[i]),
      el('div', { class: 'attn-controls' }, ...buttons),
      ...(this.settings.attempts > 0 ? [attemptsNote] : []),
      feedback,
    );
  }

  /** Has the question used every check it may have? */
  private locked(view: QuestionView): boolean {
    return this.settings.attempts > 0 && view.checks >= this.settings.attempts;
  }

  /** The checks left (with attempts), the radios and Check/Retry locked once there are none. */
  private updateAttempts(view: QuestionView): void {
    const attempts = this.settings.attempts;
    if (attempts === 0) return;
    const locked = this.locked(view);
    view.inputs.forEach((input) => (input.disabled = locked));
    view.lockable.forEach((button) => (button.disabled = locked));
    view.attemptsNote.textContent = locked
      ? this.text('locked')
      : this.text('checksLeft', { left: attempts - view.checks });
  }

  private check(view: QuestionView): void {
    if (this.locked(view)) return;
    const chosen = view.inputs.findIndex((i) => i.checked);
    if (chosen < 0) {
      view.feedback.dataset.result = 'wrong';
      view.feedback.replaceChildren(this.text('chooseFirst'));
      return;
    }
    const option = view.question.options[chosen];
    const wasComplete = this.complete();
    view.checks += 1;
    this.showAnswer(view, chosen);
    this.updateAttempts(view);
    this.updateScore();
    this.save();
    const activity = activityId(this, this.settings['activity-id']);
    const statement = answeredStatement({
      element: this.textsLanguage ?? this,
      actor: this.actor,
      registration: this.settings.registration,
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
    this.emitProgress();
  }

  /** Shows option `chosen` (the author's index) as checked: marked right or wrong, with its feedback. */
  private showAnswer(view: QuestionView, chosen: number): void {
    const option = view.question.options[chosen];
    view.inputs[chosen].checked = true;
    view.chosen = chosen;
    view.revealed = false;
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
      registration: this.settings.registration,
      activity: activityId(this, this.settings['activity-id']),
      name: this.quizTitle,
      score,
      total,
      passMark: this.settings['pass-mark'],
    });
    this.emit('attn-quiz-completed', { score, total, statement });
  }

  private showSolution(view: QuestionView): void {
    const wasComplete = this.complete();
    this.reveal(view);
    // With limited checks, a revealed answer can no longer be checked.
    if (this.settings.attempts > 0) view.checks = this.settings.attempts;
    this.updateAttempts(view);
    this.updateScore();
    this.save();
    if (!wasComplete) this.reportIfComplete();
    this.emitProgress();
  }

  /** Shows the right option and the explanation; a revealed answer does not count as answered correctly. */
  private reveal(view: QuestionView): void {
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
    view.revealed = true;
    view.chosen = -1;
    if (view.result === undefined) view.result = false;
  }

  /** Clears the question's answer (a locked question keeps it). */
  private reset(view: QuestionView): void {
    if (this.locked(view)) return;
    view.inputs.forEach((i) => (i.checked = false));
    view.rows.forEach((row) => delete row.dataset.result);
    delete view.feedback.dataset.result;
    view.feedback.replaceChildren();
    view.result = undefined;
    view.revealed = false;
    view.chosen = -1;
  }

  /** After Retry or Retry all: the score, the saved answers and the progress. */
  private changed(): void {
    this.updateScore();
    this.save();
    this.emitProgress();
  }

  /** Keeps every question's answer (SavedAnswer), when the quiz keeps progress. */
  private save(): void {
    if (!this.progressStore) return;
    const answers: Record<string, SavedAnswer> = {};
    for (const v of this.views) {
      const outcome = v.revealed
        ? OUTCOME.revealed
        : v.result === undefined
          ? OUTCOME.none
          : OUTCOME[v.result ? 'right' : 'wrong'];
      if (outcome !== OUTCOME.none || v.checks > 0) answers[v.question.id] = [v.chosen, outcome, v.checks];
    }
    this.saveProgress('answers', answers);
  }

  /** Shows the saved answers that still fit the questions; those that do not are dropped. */
  private restore(): void {
    const { answers, dropped } = readAnswers(
      this.loadProgress('answers'),
      this.views.map((v) => v.question),
    );
    for (const view of this.views) {
      const saved = answers.get(view.question.id);
      if (!saved) continue;
      const [chosen, outcome, checks] = saved;
      if (outcome === OUTCOME.revealed) this.reveal(view);
      else if (outcome !== OUTCOME.none) this.showAnswer(view, chosen);
      view.checks = checks;
      this.updateAttempts(view);
    }
    if (dropped) this.save();
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

  private emitProgress(): void {
    const { score, answered, total } = this.score();
    this.emit('attn-progress', { key: widgetKey(this), points: score, max: total, answered, total });
  }

  private updateScore(): void {
    const { score, answered, total } = this.score();
    this.scoreLine.textContent = this.text('score', { score, total, answered });
  }
}

define(Quiz);
