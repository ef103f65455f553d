// The page's score in a course package: every graded widget's points together (quiz and
// exercises, each item one point), as the bridge reports it to the LMS.
import type { Result } from './session';

/** A graded widget's progress (its attn-progress event's detail). */
export interface Progress {
  key: string;
  points: number;
  max: number;
  answered: number;
  total: number;
}

/** The page's score from every graded widget's latest progress. */
export function pageResult(progress: Iterable<Progress>, passMark: number): Result {
  let raw = 0;
  let max = 0;
  let answered = 0;
  let total = 0;
  for (const p of progress) {
    raw += p.points;
    max += p.max;
    answered += p.answered;
    total += p.total;
  }
  const scaled = max > 0 ? raw / max : 0;
  return { raw, max, scaled, completed: total > 0 && answered >= total, passed: scaled >= passMark };
}
