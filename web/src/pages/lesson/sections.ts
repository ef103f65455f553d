// The lesson's prose, in this project's own words, as data. lesson-render.ts turns it into DOM.
//
// Inline markup in a text: $...$ is TeX (KaTeX), `...` is code, **...** is strong, and
// {name} is a live number computed by the core when the page loads (see live-numbers.ts);
// {name:4} prints it with 4 decimals, {name:e} in scientific notation.
// A block with `route` holds words true for one route only: the page shows the paragraph of the
// route the core's interventions name for the run shown in the trainer (shown-run.ts). Widgets
// are custom elements placed by tag name with their attributes (the quiz and the exercises get
// the lesson's data: lesson-data.ts); a route table is the recorded 2-block runs' interventions
// side by side. What is not prose comes from the lesson's message catalog
// (web/src/messages/<language>/lesson.json), named here by key: section titles and the captions
// of code listings and the route table. Translations of the prose: prose.ts.
import type { CueRouteLabel } from '../../core';

export type Block =
  | { kind: 'p'; text: string; route?: CueRouteLabel }
  | { kind: 'route-table'; caption: LessonKey }
  | { kind: 'list'; items: string[] }
  | { kind: 'math'; tex: string }
  | { kind: 'code'; caption: LessonKey; source: 'attention-core' | string }
  | { kind: 'widget'; tag: string; attrs?: Record<string, string>; caption?: string }
  | { kind: 'note'; text: string }
  // A collapsible note for the curious (<details>): closed by default, opened by keyboard or click.
  | { kind: 'details'; summary: string; blocks: Block[] }
  // A boxed panel with its own heading, shown open.
  | { kind: 'panel'; title: string; blocks: Block[] };

/** A message of the lesson catalog (web/src/messages/en/lesson.json). */
export type LessonKey = string;

export interface Section {
  id: string;
  title: LessonKey;
  blocks: Block[];
}

export const sections: Section[] = [
  {
    id: 'replaces',
    title: 'sectionReplaces',
    blocks: [
      {
        kind: 'p',
        text:
          'A recurrent network reads its input in order and squeezes everything it has seen into one ' +
          'running state. The previous phase of this course put numbers on the price: a SimpleRNN lost ' +
          'the thread somewhere between 40 and 100 steps, and even an LSTM gave up at 200.',
      },
      {
        kind: 'p',
        text:
          'Attention drops the running state altogether. Each position consults every other position ' +
          'in a single step and weights each one by how well that position’s key matches its own query. ' +
          'Any two tokens are one hop apart, so there is nothing to fade on the way.',
      },
      {
        kind: 'p',
        text:
          'That weighting looks at what the vectors hold, never at where they sit: attention alone is ' +
          'blind to order. Feed it the same tokens reversed and the outputs come back reversed, with ' +
          'nothing else changed but float32 rounding (the core, on six random tokens: largest difference ' +
          '{position.permutationGap:e}). ' +
          'A model that needs order adds it to the tokens themselves; the tiny transformer of the cue task ' +
          'below adds fixed sinusoidal position vectors, and its first block uses them to attend by offset.',
      },
      {
        kind: 'math',
        tex: '\\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\Bigl(\\frac{Q K^{\\mathsf{T}}}{\\sqrt{d_k}}\\Bigr)\\, V',
      },
      {
        kind: 'p',
        text:
          'That line is the entire mechanism. Below, a small C++ core implements it. The same core runs in ' +
          'two places: live in your browser, compiled to WebAssembly, for the figures and widgets you can ' +
          'change, and natively when this page was built, for the recorded training runs and the check ' +
          'against PyTorch (largest difference {reference.output:e}). Figures of the source lesson are quoted ' +
          'as such. The core measures what the $\\sqrt{d_k}$ is for, and it trains a tiny transformer on a ' +
          'task that, in the recorded run, two small attention blocks solve at epoch {cue.climbEnd} after ' +
          '{cue.plateauEpochs} flat epochs, while one block of one head stays at the baseline.',
      },
      {
        kind: 'list',
        items: [
          'What the query, the key and the value each do in the lookup, beyond their shapes.',
          'Why the scores are divided by $\\sqrt{d_k}$: unscaled, the top weight grows from {sweep.maxUnscaled.4:4} at $d_k = 4$ to {sweep.maxUnscaled.256:4} at $d_k = 256$.',
          'What a causal mask keeps from a query, and what a padding mask keeps from it.',
          'Multi-head attention: several lookups side by side for the same parameters.',
          'A task that two attention blocks learn and one small block does not, and what it takes to tell how a trained model solves it.',
        ],
      },
    ],
  },
  {
    id: 'qkv',
    title: 'sectionQkv',
    blocks: [
      {
        kind: 'p',
        text:
          'The vocabulary is borrowed from dictionaries. A Python `dict` checks your key for an exact ' +
          'match and hands back one stored value. Attention relaxes both steps. The query is scored ' +
          'against every key with a dot product, a softmax turns the scores into weights that add up ' +
          'to 1, and the answer is the weighted mean of all the values.',
      },
      {
        kind: 'p',
        text:
          'So the query says what a position is looking for, each key advertises what its position ' +
          'offers, and each value is what that position hands over once it is chosen. Drag the query ' +
          'below and watch the weights move; the dot labelled “output” is the weighted mean of the values, ' +
          'so it always lies in the convex hull of the values, the smallest convex polygon that holds them all. ' +
          'The sketch’s temperature divides the scores by one more number $T$ before the softmax: a ' +
          'temperature above 1 evens the weights out, one below 1 sharpens them towards the best-matching key, ' +
          'and at 1 the scores are left as they are.',
      },
      {
        kind: 'widget',
        tag: 'attn-soft-lookup',
        attrs: { 'state-key': 'lookup' },
        caption: 'A soft lookup over five keys. Drag the query, or focus the sketch and use the arrow keys.',
      },
    ],
  },
  {
    id: 'scaled-dot-product',
    title: 'sectionScaledDotProduct',
    blocks: [
      {
        kind: 'p',
        text:
          'Here is the function, first as six lines of NumPy-like pseudocode, then as the page runs it, ' +
          'straight from the core’s source. The scores are one ' +
          'matrix product, the scale is one multiplication, a mask (if any) overwrites blocked scores ' +
          'before the softmax, and the softmax turns each row into weights: the attention pattern, one row ' +
          'of weights over the positions for each query. The last line, from ' +
          '`attention()` once its checks have passed, multiplies the pattern by the values.',
      },
      {
        kind: 'code',
        caption: 'captionPseudocode',
        source:
          'def attention(Q, K, V, allowed=None, masked_value=-1e9):\n' +
          '    scores = Q @ K.T / sqrt(K.shape[1])            # (n_q, n_k)\n' +
          '    if allowed is not None:                        # mask before softmax\n' +
          '        scores = where(allowed, scores, masked_value)\n' +
          '    weights = exp(scores - scores.max(axis=1, keepdims=True))\n' +
          '    weights /= weights.sum(axis=1, keepdims=True)  # rows sum to 1\n' +
          '    return weights @ V, weights                    # output, pattern',
      },
      { kind: 'code', caption: 'captionCoreSource', source: 'attention-core' },
      {
        kind: 'p',
        text:
          'Those few lines hide a lot of arithmetic, so here it is spread out. A small example goes ' +
          'through the same core one step at a time, and every matrix it makes on the way is kept and ' +
          'shown. Pick any number: the cells it was made from are marked, and its sum is written out ' +
          'term by term with the values the core used. Change a cell of $Q$, $K$ or $V$ (or switch on ' +
          'the causal mask) and follow the change through to the output.',
      },
      {
        kind: 'widget',
        tag: 'attn-attention-steps',
        attrs: { 'state-key': 'steps' },
        caption:
          'One attention call on a small seeded example, every matrix computed by the core. Change a cell of Q, K or V and every matrix after it is computed again.',
      },
      {
        kind: 'p',
        text:
          'On its own this has nothing to learn. Three learned projections turn the input sequence into ' +
          '$Q$, $K$ and $V$, and that is where training happens. When all three come from the same ' +
          'sequence it is called self-attention: each token poses its own question to all the others.',
      },
      {
        kind: 'p',
        text:
          'Is the core right? The test suite feeds the same inputs and weights to PyTorch’s ' +
          '`nn.MultiheadAttention` and to our layer, across self- and cross-attention, masks and batches. ' +
          'The largest gaps are {reference.output:e} on the outputs and {reference.weights:e} on the ' +
          'attention weights: float32 rounding and nothing more.',
      },
    ],
  },
  {
    id: 'scale',
    title: 'sectionScale',
    blocks: [
      {
        kind: 'p',
        text:
          'Take a query and a key whose $d_k$ components are independent, each with mean 0 and variance 1. ' +
          'Each product of two such components then has mean 0 and variance 1 too; their dot ' +
          'product is a sum of $d_k$ such products, so its variance is $d_k$ and its spread grows like ' +
          '$\\sqrt{d_k}$. Wide scores make the softmax lopsided: nearly all the weight lands on whichever ' +
          'key happened to score highest. Dividing by $\\sqrt{d_k}$ puts the variance back at 1.',
      },
      {
        kind: 'widget',
        tag: 'attn-scale-figure',
        attrs: { 'state-key': 'scale' },
        caption:
          'Random queries and keys, {sweep.tokens} tokens, computed now by the core. The line under the plots gives the draws per dimension and how long the error bars (one standard error) are.',
      },
      {
        kind: 'p',
        text:
          'Without the scale, at $d_k = 256$ a single token takes {sweep.maxUnscaled.256:4} of the weight ' +
          'on average, and that is on random vectors, before any learning: the softmax is saturated by noise. ' +
          'With the scale the top weight stays near {sweep.maxScaled.64:2} at every width, so a head behaves ' +
          'the same whether it is 4 or 256 dimensions wide. The entropy of a row of weights, ' +
          '$-\\sum_j p_j \\log p_j$ with the natural logarithm (so it is counted in nats), tells the same story: ' +
          'it is 0 when one key takes all the weight and at most $\\log({sweep.tokens}) = {sweep.uniformEntropy:4}$, ' +
          'the entropy of perfectly even attention over {sweep.tokens} keys.',
      },
      {
        kind: 'details',
        summary: 'For the curious: how these figures compare with the source lesson’s',
        blocks: [
          {
            kind: 'p',
            text:
              'The source lesson reports {source.maxUnscaled.4:4} for the unscaled top weight at $d_k = 4$; ' +
              'the core measures {sweep.maxUnscaled.4:4} ± {sweep.maxUnscaledSe.4:4} (one standard error over ' +
              '{sweep.draws} draws), {source.gapSe.4:1} standard errors away. At $d_k$ = 16, 64 and 256 the gaps are ' +
              '{source.gapSe.16:1}, {source.gapSe.64:1} and {source.gapSe.256:1} standard errors, the size sampling ' +
              'alone gives. A gap of {source.gapSe.4:1} standard errors is not: random draws would almost never put ' +
              'two averages that far apart, so the difference at $d_k = 4$ most likely lies in how the two were ' +
              'measured (the source does not say how it drew or averaged), not in the draws. The trend, a top weight ' +
              'that climbs with $d_k$, is the same in both.',
          },
        ],
      },
      {
        kind: 'widget',
        tag: 'attn-ranked-table',
        attrs: { 'state-key': 'table' },
        caption:
          'The same measurement as a table. Click a column header (or focus it and press Enter) to rank the rows by it; recompute it with more draws and the figure above follows.',
      },
      {
        kind: 'p',
        text:
          'A saturated softmax also stops learning. Its Jacobian, the matrix of how much each output weight ' +
          '$p_i$ moves when each score $s_j$ moves, is $\\mathrm{diag}(p) - pp^\\top$, and it ' +
          'vanishes as $p$ approaches a one-hot vector. Its size is measured by the Frobenius norm, the square ' +
          'root of the sum of its squared entries: it falls from ' +
          '{sweep.jacobianUnscaled.4:3} at $d_k = 4$ to {sweep.jacobianUnscaled.256:3} at $d_k = 256$ without the scale, ' +
          'while the scaled version holds near {sweep.jacobianScaled.256:2}. Little gradient reaches the ' +
          'keys that lost, so the layer cannot correct which key it picks.',
      },
    ],
  },
  {
    id: 'masks',
    title: 'sectionMasks',
    blocks: [
      {
        kind: 'p',
        text:
          'A mask works on the scores, before the softmax: every blocked pair gets a huge negative ' +
          'score, and after the softmax its weight is not small but exactly zero. The core checks it: the ' +
          'largest weight on a blocked pair below is {masks.maxBlocked:e}. That holds in every row that ' +
          'leaves at least one key open. A row that blocks every key has only the constant left to compare, ' +
          'so a finite constant spreads it evenly ({pitfall.uniformWeight:4} per key over {pitfall.positions} keys ' +
          'in the Pitfalls demo) and $-\\infty$ makes it NaN.',
      },
      {
        kind: 'widget',
        tag: 'attn-mask-figure',
        attrs: { 'state-key': 'masks' },
        caption:
          'Attention weights of one seeded score matrix under each mask. The fuller a cell’s colour, the more weight it carries (near the background: almost none); hatched cells are blocked.',
      },
      {
        kind: 'p',
        text:
          'The causal mask lets position $i$ see only positions up to $i$. That is what lets a decoder ' +
          'train on a whole sequence at once: every position predicts its successor in parallel and none ' +
          'can peek at the answer. The padding mask hides the filler tokens that only exist to make ' +
          'sequences the same length; without it, attention averages them in, the same mistake that ' +
          'sank an unmasked, post-padded SimpleRNN to chance in the previous phase.',
      },
      {
        kind: 'p',
        text:
          'With {masks.positions} positions of which {masks.real} are real, the causal mask allows ' +
          '{masks.causal:4} of the query-key pairs, the padding mask {masks.padding:4}, and both together ' +
          '{masks.both:4}. They answer different questions, what the model may know and what is actually ' +
          'there, but they can overlap. Here the filler sits on the right, after the real tokens, so for every ' +
          'real query it lies in the future and the causal mask alone already hides it: in the figure, the ' +
          'real rows under “causal” and under “both” are the same. A padding mask is still needed wherever a ' +
          'real query could otherwise reach filler: with the filler on the left, in an encoder, which has no ' +
          'causal mask, and in cross-attention over a padded source.',
      },
    ],
  },
  {
    id: 'multi-head',
    title: 'sectionMultiHead',
    blocks: [
      {
        kind: 'p',
        text:
          'One head returns one weighted mean. Suppose a word needs two things at once: the noun it ' +
          'describes and the previous occurrence of itself. A single softmax has one budget of weight ' +
          'that adds up to 1, so pulling towards one of them pulls away from the other.',
      },
      {
        kind: 'p',
        text:
          'Several heads, each of width $d_\\text{model} / h$, run independent lookups and concatenate ' +
          'what they find; one more learned matrix, the output projection $W_O$, then mixes the concatenated ' +
          'heads back into a single $d_\\text{model}$-wide vector per position. ' +
          'Cutting a {heads.dModel}-wide model into {heads.numHeads} heads of {heads.keyDim} adds no parameters: the core counts ' +
          '{heads.params4} parameters for {heads.numHeads} heads and {heads.params1} for one, because the projection ' +
          'matrices ($W_Q$, $W_K$, $W_V$ and $W_O$) keep their size and are only split. It is not free in every other respect. Each head ' +
          'computes its own attention pattern, so over {heads.tokens} tokens the {heads.numHeads} heads store and normalise ' +
          '{heads.scoresMulti} scores where one head has {heads.scoresSingle}, and each head compares queries and keys in a ' +
          '{heads.keyDim}-dimensional slice instead of all {heads.dModel} dimensions.',
      },
      {
        kind: 'widget',
        tag: 'attn-heads-figure',
        attrs: { 'state-key': 'heads' },
        caption:
          'One seeded input through {heads.numHeads} untrained heads of {heads.keyDim}. Untrained, each head is close to even attention: per query its largest weight averages {heads.maxWeightMin:3} to {heads.maxWeightMax:3}, against {heads.uniform:3} for perfectly even weights.',
      },
      {
        kind: 'p',
        text:
          'Trained heads are another matter: they specialise. In the run the core recorded of one block with ' +
          '{heads8.heads} heads, trained on the cue task below for {heads8.epochs} epochs, head {heads8.cueHead} ' +
          'puts {heads8.cueShare:2} of the question’s weight on the earlier CUE, averaged over the validation ' +
          'sequences. The other {heads8.others} heads look there less: the next strongest puts {heads8.secondShare:2} ' +
          'there, and their median is {heads8.othersMedian:2}. Where a head looks is not yet what the model uses it for: the pitfall ' +
          '“Reading attention as an explanation” below says how to tell.',
      },
    ],
  },
  {
    id: 'cue-task',
    title: 'sectionCueTask',
    blocks: [
      {
        kind: 'p',
        text:
          'The sharpest result of the lesson. Each sequence holds a special CUE token exactly once ' +
          'among random symbols; the last position repeats the CUE as a question, and the right answer ' +
          'is whatever symbol came straight after the first CUE. The symbols are the tokens 0 to ' +
          '{model.symbolMax}; the CUE is a token of its own.',
      },
      {
        kind: 'code',
        caption: 'captionSequence',
        source: 'tokens:  6 2 2 CUE 4 1 0 3 5 CUE\n                   ^ the answer is 4',
      },
      {
        kind: 'p',
        text:
          'Chance is $1/7 \\approx {cue.chance:4}$. A model with one attention block of one head ({cue.params1} ' +
          'parameters), trained for {cue.epochs} epochs, gets barely past guessing the most common symbol ' +
          'in the sequence: best {cue.best1:3}, {cue.best1Points:1} percentage points above that strategy’s ' +
          '{cue.baseline:3}. The same model with two ' +
          'blocks ({cue.params2} parameters) reaches {cue.best2:4} best validation accuracy in the same run.',
      },
      {
        kind: 'panel',
        title: 'What is inside the tiny transformer',
        blocks: [
          {
            kind: 'list',
            items: [
              '**Embedding and positions.** Each token becomes a learned vector of {model.dModel} numbers, its ' +
                'embedding. A fixed sinusoidal position vector is added to it: sines and cosines of the position ' +
                'at a range of frequencies, the same for every sequence and never trained. Attention alone is ' +
                'blind to order; these vectors let a block tell positions apart and attend by offset.',
              '**The residual stream.** That sum is one {model.dModel}-wide vector per position, which every ' +
                'block reads and adds to, never overwrites. What block 1 writes at a position is still there for ' +
                'block 2: that is how block 1 can copy the answer into the CUE position.',
              '**Blocks.** Each block normalises the stream (LayerNorm, before each part: “pre-LN”), runs ' +
                'multi-head self-attention on it and adds the result back, then normalises again, runs a ' +
                'feed-forward network (two layers, {model.dFF} hidden units) on each position on its own and ' +
                'adds that back too. While it trains, dropout zeroes a random {model.dropoutPercent}% of the values ' +
                'of the embeddings and of each part’s output, so the model cannot lean on any one of them.',
              '**The classifier.** One linear layer reads the stream at the last position, the question, and ' +
                'scores every token as the answer.',
              '**No causal mask.** Every position may attend to every other, later ones included. The ' +
                'cue-position route below needs that: in block 1 the CUE position looks ahead to the answer ' +
                'after it. Under a causal mask it could not, and of the two routes only the answer-position ' +
                'one, where the answer looks back at the CUE, would remain.',
            ],
          },
        ],
      },
      {
        kind: 'widget',
        tag: 'attn-cue-trainer',
        attrs: { 'state-key': 'cue' },
        caption:
          'Both models trained on the cue task by the core. Choose the seed, the heads per block and the epochs, and press Train both to run it yourself.',
      },
      {
        kind: 'details',
        summary: 'For the curious: why the source lesson’s one-block figure is lower',
        blocks: [
          {
            kind: 'p',
            text:
              'The source lesson reports {source.best1:4} for one block and {source.best2:4} for two. The one-block ' +
              'figure rides on the data: every seed draws its own sequences, and with them its own most-common-symbol ' +
              'baseline. Over seeds {seeds.from} to {seeds.to} the core’s one-block best lies between {seeds.best1Min:3} ' +
              'and {seeds.best1Max:3}, each {seeds.marginMin:3} to {seeds.marginMax:3} above the baseline of its own ' +
              'validation set ({seeds.baselineMin:3} to {seeds.baselineMax:3}). The source does not report its ' +
              'baseline or its data, so its lower figure cannot be checked against one.',
          },
        ],
      },
      {
        kind: 'p',
        text:
          '**Is one block hopeless?** Not with more heads; patience alone does not help. The runs the core ' +
          'recorded at build time: with {oneBlock.heads1.heads} head, even {oneBlock.heads1.epochs} epochs leave ' +
          'the one-block best at {oneBlock.heads1.best:3}, against {oneBlock.heads1.baseline:3} for guessing the ' +
          'most common symbol. With {oneBlock.heads8.heads} heads per block (the same {cue.params1} parameters, ' +
          'split) it reaches {oneBlock.heads8.best:3} after {oneBlock.heads8.epochs} epochs, and with ' +
          '{oneBlock.heads32.heads} heads {oneBlock.heads32.best:3}, its best at epoch {oneBlock.heads32.bestEpoch}. ' +
          'Two blocks of one head reach {cue.climbTo:2} at epoch {cue.climbEnd}. So what is measured is this: one ' +
          'single-head block of this size stays near the frequency baseline for as long as it was trained, more ' +
          'heads let one block climb, slowly and not all the way, and two blocks stay flat for {cue.plateauEpochs} ' +
          'epochs, then pass {cue.climbTo:2} within {cue.climbEpochs} more. Theory answers a different question, what a model of a given size can represent at all, ' +
          'not how fast training finds it: Sanford, Hsu and Telgarsky (2024) prove that one attention layer ' +
          'needs a size (width, heads and precision together) that grows with the sequence length $n$ to do ' +
          'such a lookup, and give two layers that do it at a small width with a precision that grows only ' +
          'like $\\log n$. Try more heads with one block in the trainer above, or in exercise 6.',
      },
      {
        kind: 'p',
        text:
          '**How two blocks do it.** Answering takes two moves: find the earlier CUE by what it is, then ' +
          'step one position to the right. One attention step matches by content or, using the positions, by ' +
          'offset; two blocks can chain the two. An attention pattern shows where a head looks, not what the ' +
          'model uses, so the routes below are named by experiment: change one part of the trained model and ' +
          'measure validation accuracy again. Knock a head out (its output, before $W_O$, set to zero), or ' +
          'replace its attention pattern by an ideal one, and see whether the model still answers.',
      },
      {
        kind: 'list',
        items: [
          '**Cue-position route.** In block 1 the CUE position looks one step ahead and copies in the answer ' +
            'after it; the last block matches the question against that CUE and reads the answer there. Test: ' +
            'an ideal next-token pattern in block 1 keeps the accuracy, and knocking out block 1’s attention loses it.',
          '**Answer-position route.** In block 1 the answer position looks one step back and takes in the CUE ' +
            'before it (a previous-token head); the last block looks for the position that follows a CUE and reads ' +
            'it (an induction head). Test: an ideal previous-token pattern keeps the accuracy.',
          '**Cue-broadcast route.** In block 1 every position takes in the CUE by content, so each knows where ' +
            'the CUE is; the last block reads the position after it. Test: an ideal “everyone looks at the CUE” ' +
            'pattern keeps the accuracy while neither test above passes.',
        ],
      },
      {
        kind: 'p',
        text:
          'The cue-position route needs a model without a causal mask: the CUE position has to look ahead. ' +
          'This model has none, so both directions are open; a causal decoder could only take the ' +
          'answer-position route. The core’s recorded runs show all three routes, one seed each:',
      },
      {
        kind: 'route-table',
        caption: 'captionRouteTable',
      },
      {
        kind: 'p',
        text:
          'Seed {induction.seed} is an induction circuit, shown causally: with block 1’s attention pattern replaced by an ideal ' +
          'previous-token one it keeps {induction.previous:3}, and with block 1’s attention knocked out it falls to ' +
          '{induction.knocked:3}. Seed {other.seed}’s attention alone looks much the same (its last block reads the ' +
          'answer position, {other.share:2} of the question’s weight), yet it is not an induction circuit: ' +
          'its block 1 puts {other.bodyOnCue:2} of every position’s weight on the CUE and only ' +
          '{other.bodyOnPrevious:2} on the previous token, and the tests agree: the previous-token pattern ' +
          'leaves {other.previous:3}, the look-at-the-CUE pattern {other.firstCue:3}.',
      },
      {
        kind: 'p',
        route: 'cue-position',
        text:
          'The run the trainer shows (seed {run.seed}) takes the **cue-position route**: with an ideal ' +
          'next-token pattern in block 1 its accuracy stays at {run.next:3} (clean: {run.clean:3}), and with block 1’s ' +
          'attention knocked out it falls to {run.knocked:3}. Its attention agrees: block 1 puts {run.first:2} of the CUE ' +
          'position’s weight on the answer, and the last block {run.share:2} of the question’s on the CUE (offset −1).',
      },
      {
        kind: 'p',
        route: 'answer-position',
        text:
          'The run the trainer shows (seed {run.seed}) takes the **answer-position route**: with an ideal ' +
          'previous-token pattern in block 1 its accuracy stays at {run.previous:3} (clean: {run.clean:3}), and with block 1’s ' +
          'attention knocked out it falls to {run.knocked:3}. Its attention agrees: block 1 puts {run.first:2} of the ' +
          'answer position’s weight on the CUE before it, and the last block {run.share:2} of the question’s on ' +
          'the answer position (offset 0).',
      },
      {
        kind: 'p',
        route: 'cue-broadcast',
        text:
          'The run the trainer shows (seed {run.seed}) takes the **cue-broadcast route**: with an ideal ' +
          'look-at-the-CUE pattern in block 1 its accuracy stays at {run.firstCue:3} (clean: {run.clean:3}), while the ' +
          'previous-token pattern gives {run.previous:3} and the next-token one {run.next:3}.',
      },
      {
        kind: 'p',
        route: 'other',
        text:
          'The run the trainer shows (seed {run.seed}) is solved ({run.clean:3}) by a route none of the three ' +
          'tests names: in block 1 the next-token pattern gives {run.next:3}, the previous-token one ' +
          '{run.previous:3} and the look-at-the-CUE one {run.firstCue:3}. Try the probe below to find what it does.',
      },
      {
        kind: 'p',
        route: 'none',
        text:
          'The run the trainer shows (seed {run.seed}) is **not solved** ({run.clean:3} on the validation set, ' +
          'below {run.solvedAt}), so there is no route to name. The recorded runs above found theirs within {cue.epochs} epochs.',
      },
      {
        kind: 'p',
        text:
          '**What the curves show.** In the recorded run the two-block model stays at or below ' +
          '{cue.plateauMax:2} for {cue.plateauEpochs} epochs, then reaches {cue.climbFrom:2} at epoch ' +
          '{cue.climbStart} and {cue.climbTo:2} at epoch {cue.climbEnd}: {cue.climbEpochs} epochs from the first ' +
          'clear rise above the baseline to 0.95. The run on seed {other.seed} climbs over ' +
          '{other.climbEpochs} epochs, from {other.climbFrom:2} at epoch {other.climbStart} to ' +
          '{other.climbTo:2} at epoch {other.climbEnd}. A sudden jump is often explained by a two-step ' +
          'circuit paying off only once both steps work; these runs show jumps that are sharp or gradual, not what ' +
          'causes them.',
      },
      {
        kind: 'details',
        summary: 'For the curious: where the source lesson’s 0.87 shows up here',
        blocks: [
          {
            kind: 'p',
            text:
              'The source lesson says the solving head put {source.cueShare:2} on the cue position. In the recorded run ' +
              'the last block first puts half of its weight on the earlier CUE after epoch {cue.midJumpEpoch}, and ' +
              'then it is already {cue.midJumpShare:2}, while validation accuracy is at {cue.midJumpAccuracy:2}, ' +
              'mid-jump; once the task is solved the share is {cue.finalShare:2}. A figure near the source’s shows up ' +
              'here only while the accuracy is still climbing.',
          },
        ],
      },
    ],
  },
  {
    id: 'flowchart',
    title: 'sectionFlowchart',
    blocks: [
      {
        kind: 'widget',
        tag: 'attn-flowchart',
        caption:
          'How the run the trainer shows answers the cue task, by the route the core’s interventions name, and where one small block stays.',
      },
    ],
  },
  {
    id: 'probe',
    title: 'sectionProbe',
    blocks: [
      {
        kind: 'p',
        text:
          'The tables above are averages over a thousand validation sequences. Here you can put a single ' +
          'question to the trained models: choose a symbol for each position and slide the CUE along, and both ' +
          'models answer at once, each with its prediction, the probability it gives every class, and the ' +
          'attention of every block as a heat map over your tokens. Move the CUE and see whether the two-block ' +
          'model follows it to the new answer while the one-block model keeps guessing. Once you have trained your ' +
          'own run in the trainer, switch to it and compare its route with the recorded one. Then test a story ' +
          'yourself: knock a head out, give it an ideal pattern, or patch in a block’s output from another ' +
          'sequence, and watch the answer and the validation accuracy.',
      },
      {
        kind: 'widget',
        tag: 'attn-cue-probe',
        attrs: { 'state-key': 'probe' },
        caption:
          'The trained models of the cue task, asked by the core in the training Worker. Each row of a heat map is where that position looks; the last row is the question.',
      },
    ],
  },
  {
    id: 'pitfalls',
    title: 'sectionPitfalls',
    blocks: [
      {
        kind: 'list',
        items: [
          '**Leaving out $1/\\sqrt{d_k}$.** Unscaled, the top weight is already {sweep.maxUnscaled.256:4} at $d_k = 256$ before training, and a saturated softmax passes back almost no gradient.',
          '**Masking after the softmax.** Zeroing weights afterwards leaves rows that no longer add up to 1 (see the demo below). Mask the scores, then normalise.',
          '**A careless “minus infinity”.** The largest finite float16 is {pitfall.float16Max}, and a constant rounds to the nearest float16: from −{pitfall.float16Max} down to just above −{half.overflowAt} it rounds to −{pitfall.float16Max}, and at or below −{half.overflowAt} it becomes $-\\infty$, $-10^9$ as much as $-10^{30}$. A fully masked row then turns into NaN (the table below, computed in half precision). float32 holds both as ordinary numbers. $-10^4$, or the type’s lowest finite value, is safe in both when it replaces the blocked score, as this core does: a fully masked row then comes out uniform instead of NaN. Added to the score instead, as some code does, the lowest value is not safe: any score of −{half.overflowMargin} or less pushes the sum to −{half.overflowAt} or beyond, which is $-\\infty$ in float16.',
          '**No padding mask.** Attention will happily average the filler vectors, the attention version of the post-padding bug that put a SimpleRNN at 0.5036 in the previous phase.',
          '**Treating the two masks as one.** The causal mask keeps later positions out of view; the padding mask keeps filler out. With the filler on the right the causal mask already hides it from every real query, so a decoder can do without a padding mask there; leave it out with the filler on the left, in an encoder or in cross-attention, and real queries average filler in.',
          '**Expecting one small block to chain two steps quickly.** On the cue task one single-head block stays near the frequency baseline for {cue.epochs} epochs, and for {oneBlock.heads1.epochs}, while two blocks solve it; with {oneBlock.heads32.heads} heads one block climbs, slowly: its best, {oneBlock.heads32.best:3}, comes at epoch {oneBlock.heads32.bestEpoch}.',
          '**Reading attention as an explanation.** A head’s attention pattern shows where it looks, not what the model uses. In the 2-block run recorded on seed {other.seed}, block 1’s positions put on average {other.bodyOnCue:2} of their weight on the CUE and {other.bodyOnPrevious:2} on the token just before them; the pattern alone cannot say which of the two the answer depends on. A knock-out can: replace the head’s output or its pattern and measure the accuracy, as the knock-out table in the cue-task section does.',
        ],
      },
      {
        kind: 'widget',
        tag: 'attn-pitfall-demo',
        caption:
          'Two pitfalls, computed by the core: masking after the softmax, and a half-precision fully masked row.',
      },
    ],
  },
  {
    id: 'recap',
    title: 'sectionRecap',
    blocks: [
      {
        kind: 'list',
        items: [
          'Attention is $\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V$: a soft dictionary lookup that returns a weighted mean of values. Our core matches PyTorch to {reference.output:e}.',
          'The scale is there because dot products spread like $\\sqrt{d_k}$: unscaled, the top weight climbs from {sweep.maxUnscaled.4:4} to {sweep.maxUnscaled.256:4} and the entropy drops from {sweep.entropyUnscaled.4:4} to {sweep.entropyUnscaled.256:4} nats as $d_k$ goes from 4 to 256.',
          'Masks act on scores before the softmax and leave blocked pairs with exactly zero weight ({masks.maxBlocked:e} measured) in every row that keeps a key open.',
          'Causal: {masks.causal:4} of pairs allowed; padding: {masks.padding:4}; both: {masks.both:4}.',
          'Heads split the same parameters ({heads.params4} either way) into independent lookups, at the price of one attention pattern per head; trained, they specialise (one head of {heads8.heads} puts {heads8.cueShare:2} on the earlier CUE).',
          'On the cue task one single-head block stays near the frequency baseline, even for {oneBlock.heads1.epochs} epochs, and two blocks reach {cue.best2:3}; with {oneBlock.heads32.heads} heads one block climbs slowly, to {oneBlock.heads32.best:3} after {oneBlock.heads32.epochs} epochs. Two blocks can chain a match by content and a step by offset; a knock-out, not the attention pattern, tells which steps a trained model uses.',
        ],
      },
      {
        kind: 'note',
        text:
          'Next in the course: attention plus a feed-forward block, residual connections and normalisation ' +
          'make a transformer, measured against the recurrent models of the previous phase.',
      },
    ],
  },
  {
    id: 'quiz',
    title: 'sectionQuiz',
    blocks: [{ kind: 'widget', tag: 'attn-quiz' }],
  },
  {
    id: 'exercises',
    title: 'sectionExercises',
    blocks: [{ kind: 'widget', tag: 'attn-exercises' }],
  },
];
