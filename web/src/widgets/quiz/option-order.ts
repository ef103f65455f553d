// The order a quiz shows each question's options in: a permutation drawn from a seed text (the
// learner's id, a seed kept with the saved progress, or the quiz's own content) and the
// question's id, so that one learner sees the same order on every reload and different learners
// see different ones. Pure functions, no DOM: the unit tests run them in node.

/** A 32-bit hash of `text` (FNV-1a over its UTF-16 code units). */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Numbers in [0, 1) drawn from a 32-bit seed (mulberry32). */
function draws(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order in which to show `count` options of question `questionId` under `seed`: a list of
 * the author's indexes (shown[0] is the author's index of the first option shown), a Fisher-Yates
 * shuffle of 0..count-1.
 */
export function optionOrder(count: number, seed: string, questionId: string): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const next = draws(hashText(`${seed}\u0000${questionId}`));
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
