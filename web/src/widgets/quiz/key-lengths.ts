// Whether a quiz gives its keyed answers away by their length: a reader who always picks the
// longest option should not score well. Pure functions, no DOM: the unit tests run them in node
// over every language of the lesson's quiz, and the quiz warns an author whose keys stand out.

/** The rule the lesson's quizzes keep: the key strictly the longest in at most this share of questions, */
export const LONGEST_SHARE = 1 / 4;
/** and never longer than this times the median length of its question's options. */
export const MEDIAN_RATIO = 1.3;

/**
 * How long `text` reads: a {name} placeholder as a short number (4 characters), TeX without its
 * markup ($, \commands, braces), runs of spaces as one.
 */
export function readLength(text: string): number {
  return text
    .replace(/\$([^$]*)\$/g, (_, tex: string) => tex.replace(/\\[A-Za-z]+/g, '').replace(/[\\{}_^]/g, ''))
    .replace(/\{[\w.]+(:\d+)?\}/g, '0.00')
    .replace(/\s+/g, ' ')
    .trim().length;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** What the key lengths of a quiz's questions say: shape of a quiz question as schemas/quiz.schema.json. */
export interface KeyLengths {
  /** questions with a key */
  questions: number;
  /** ids of the questions whose key is strictly longer than every other option */
  keyLongest: string[];
  /** the largest key length over the median option length of its question, and where */
  worstRatio: number;
  worstId?: string;
}

export function keyLengths(
  questions: readonly { id: string; options: readonly { text: string; correct: boolean }[] }[],
): KeyLengths {
  const out: KeyLengths = { questions: 0, keyLongest: [], worstRatio: 0 };
  for (const q of questions) {
    const key = q.options.findIndex((o) => o.correct);
    if (key < 0 || q.options.length < 2) continue;
    out.questions++;
    const lengths = q.options.map((o) => readLength(o.text));
    if (lengths.every((n, i) => i === key || n < lengths[key])) out.keyLongest.push(q.id);
    const ratio = lengths[key] / median(lengths);
    if (ratio > out.worstRatio) [out.worstRatio, out.worstId] = [ratio, q.id];
  }
  return out;
}

/** The lesson's rule (LONGEST_SHARE, MEDIAN_RATIO) kept? */
export function keysFair(k: KeyLengths): boolean {
  return k.keyLongest.length <= k.questions * LONGEST_SHARE && k.worstRatio <= MEDIAN_RATIO;
}

/**
 * Worth warning an author about: with three questions or more, the key is the longest option in
 * most of them (a looser test than the lesson's rule, so that an author's quiz is not nagged
 * over one or two).
 */
export function keysGiveAway(k: KeyLengths): boolean {
  return k.questions >= 3 && k.keyLongest.length > k.questions / 2;
}
