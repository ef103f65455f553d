// The known widget tag an unknown attn-* tag most likely meant (a misspelling such as
// <attn-quizz>), by edit distance, for the autoloader's console warning.
import { TAGS } from './tags';

/** Levenshtein distance: the fewest insertions, deletions and substitutions turning `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/** The known tag closest to `tag` (the first of equally close ones, in TAGS order). */
export function closestTag(tag: string): string {
  const known = Object.values(TAGS);
  const distances = known.map((name) => editDistance(tag, name));
  return known[distances.indexOf(Math.min(...distances))];
}

/** The console's warning for an attn-* element that is no widget: it shows nothing. */
export function unknownTagWarning(tag: string): string {
  return `attention-lab: <${tag}> is not an attention-lab widget, so it shows nothing. Did you mean <${closestTag(tag)}>? The widgets: ${Object.values(TAGS).join(', ')}.`;
}
