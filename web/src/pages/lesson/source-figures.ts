// Figures the source lesson reports, where the page's own measurements differ from them: the
// page quotes them next to what the core measures here and says why the two differ.
export const sourceFigures = {
  /** unscaled largest attention weight, 12 tokens, 200 draws, by d_k */
  maxUnscaled: { 4: 0.4442, 16: 0.7189, 64: 0.8577, 256: 0.9355 } as Record<number, number>,
  /** best validation accuracy of one block and of two blocks on the cue task */
  best1: 0.312,
  best2: 0.999,
  /** the solving head's weight on the cue position */
  cueShare: 0.87,
};
