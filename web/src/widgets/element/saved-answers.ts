// What the quiz and the exercises keep of the reader's answers (the saved progress's part
// "answers", progress-store.ts), and reading it back against the data as it is now. Short arrays
// by item id, the author's option indexes rather than texts: a SCORM 1.2 LMS keeps 4,096
// characters for the whole page. Pure functions, no DOM: the unit tests run them in node.

/** A question's outcome as kept: right, wrong, not answered (checks made only), solution shown. */
export const OUTCOME = { wrong: 0, right: 1, none: -1, revealed: 2 } as const;

/**
 * A quiz question as kept: [the author's index of the option checked (-1: none), its outcome
 * (OUTCOME), the checks made].
 */
export type SavedAnswer = [chosen: number, outcome: number, checks: number];

/**
 * An exercise as kept: [its last check's result (1 right, 0 not yet, 2 answer shown: not right),
 * then what the reader had entered then: each field's text in order, a mask grid as one string
 * of 0s and 1s].
 */
export type SavedTask = [result: number, ...entered: string[]];

/** The entries of a saved part by id, or none when it is not an object of entries. */
const entriesOf = (saved: unknown): [string, unknown][] =>
  saved && typeof saved === 'object' && !Array.isArray(saved) ? Object.entries(saved) : [];

/**
 * The saved quiz answers that still fit `questions` (the id is there; the option is there and
 * still right or wrong as kept), by id; `dropped`: some did not.
 */
export function readAnswers(
  saved: unknown,
  questions: readonly { id: string; options: readonly { correct: boolean }[] }[],
): { answers: Map<string, SavedAnswer>; dropped: boolean } {
  const answers = new Map<string, SavedAnswer>();
  let dropped = false;
  for (const [id, entry] of entriesOf(saved)) {
    const options = questions.find((q) => q.id === id)?.options;
    if (options && fitsQuestion(entry, options)) answers.set(id, entry);
    else dropped = true;
  }
  return { answers, dropped };
}

function fitsQuestion(entry: unknown, options: readonly { correct: boolean }[]): entry is SavedAnswer {
  if (!Array.isArray(entry) || entry.length !== 3 || !entry.every((n) => Number.isSafeInteger(n))) return false;
  const [chosen, outcome, checks] = entry as SavedAnswer;
  if (checks < 0) return false;
  if (outcome === OUTCOME.right || outcome === OUTCOME.wrong)
    return chosen >= 0 && chosen < options.length && options[chosen].correct === (outcome === OUTCOME.right);
  return (outcome === OUTCOME.none || outcome === OUTCOME.revealed) && chosen === -1;
}

/**
 * The saved exercise answers that still fit the tasks (the id is there, with as many entries as
 * it has fields, `shapes` by id), by id; `dropped`: some did not.
 */
export function readTasks(
  saved: unknown,
  shapes: ReadonlyMap<string, number>,
): { tasks: Map<string, SavedTask>; dropped: boolean } {
  const tasks = new Map<string, SavedTask>();
  let dropped = false;
  for (const [id, entry] of entriesOf(saved)) {
    const fields = shapes.get(id);
    const fits =
      fields !== undefined &&
      Array.isArray(entry) &&
      (entry[0] === 0 || entry[0] === 1 || entry[0] === 2) &&
      entry.length === 1 + fields &&
      entry.slice(1).every((v) => typeof v === 'string' && v.length <= 400);
    if (fits) tasks.set(id, entry as SavedTask);
    else dropped = true;
  }
  return { tasks, dropped };
}
