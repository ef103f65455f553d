// The cue training's floating-point operations, worked out from the model's shapes (the
// products only: a multiply-add counts 2; LayerNorm, softmax, dropout and Adam are left out,
// so the count slightly understates the work). Shared by the benchmarks that print a
// training rate (bench/limit_browser.mjs, bench/cue_browser.mjs); bench/scaling_workloads.cpp
// counts the same products for the trainer's forward in the time-per-FLOP benchmark, in C++,
// and adds the rest of its floating-point work there.
//
// Legend (core/include/attn/nn/layers.hpp): T tokens per sequence, d model width, hk = heads *
// key width (= d: the trainer splits d among the heads), f feed-forward width, C classes.
// Per sequence, forward:
//   a full block      Q, K, V, output projections  4 * 2 T d hk
//                     scores, weighted sum         2 * 2 T T hk   (each head: T x k by k x T, T x T by T x k)
//                     feed-forward                 2 * 2 T d f
//   the last block, computed for the query row only (lastQueryOnly, the default):
//                     K, V for every row           2 * 2 T d hk
//                     Q, output for one row        2 * 2 d hk
//                     scores, weighted sum         2 * 2 T hk
//                     feed-forward for one row     2 * 2 d f
//   the head (d -> C) for one row                  2 d C
// A training step runs the forward, then the backward: every product y = a b of the forward
// becomes two of the same size (da = dy b^T, db = a^T dy; the first block's input gradient
// included, it feeds the embedding's), so a trained sequence costs 3 forwards and a validated
// one 1. For the default run (2 blocks, T 10, d 32, f 64, C 9): 231,744 per forward, 48.7 GFLOP
// for 30 epochs of 2,000 trained and 1,000 validated sequences.

/** FLOPs of one forward of one sequence for a CueConfig (core.configs.cueTrain.defaults keys). */
export function cueForwardFlops(c) {
  const T = c.length,
    d = c.dModel,
    hk = c.dModel,
    f = c.dFF,
    classes = c.symbols + 2;
  const full = 4 * 2 * T * d * hk + 2 * 2 * T * T * hk + 2 * 2 * T * d * f;
  const lastRow = 2 * 2 * T * d * hk + 2 * 2 * d * hk + 2 * 2 * T * hk + 2 * 2 * d * f;
  return (c.blocks - 1) * full + (c.lastQueryOnly ? lastRow : full) + 2 * d * classes;
}

/** FLOPs of a whole training run: every epoch trains trainSize sequences and validates validationSize. */
export function cueRunFlops(c) {
  return c.epochs * (3 * c.trainSize + c.validationSize) * cueForwardFlops(c);
}
