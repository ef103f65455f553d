// The lesson's prose, in this project's own words, as data. lesson-render.ts turns it into DOM.
//
// Inline markup in a text: $...$ is TeX (KaTeX), `...` is code, **...** is strong, and
// {name} is a live number computed by the core when the page loads (see live-numbers.ts);
// {name:4} prints it with 4 decimals, {name:e} in scientific notation.
// Widgets are custom elements placed by tag name with their attributes.

export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'math'; tex: string }
  | { kind: 'code'; caption: string; source: 'attention-core' | string }
  | { kind: 'widget'; tag: string; attrs?: Record<string, string>; caption?: string }
  | { kind: 'note'; text: string };

export interface Section {
  id: string;
  title: string;
  blocks: Block[];
}

export const lessonTitle = 'Attention from Scratch';
export const lessonSubtitle = 'Queries, keys and values, computed live in your browser';

export const sections: Section[] = [
  {
    id: 'replaces',
    title: 'What attention replaces',
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
          'in a single step, and how much it takes from each is decided by content, not by distance. ' +
          'Any two tokens are one hop apart, so there is nothing to fade on the way.',
      },
      { kind: 'math', tex: '\\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\Bigl(\\frac{Q K^{\\mathsf{T}}}{\\sqrt{d_k}}\\Bigr)\\, V' },
      {
        kind: 'p',
        text:
          'That line is the entire mechanism. Below, a small C++ core implements it, and every figure ' +
          'on this page is that core running in your browser as WebAssembly: it is checked against ' +
          'PyTorch (largest difference {reference.output:e}), it measures what the $\\sqrt{d_k}$ is for, ' +
          'and it trains a tiny transformer on a task that one attention layer cannot learn.',
      },
      {
        kind: 'list',
        items: [
          'What the query, the key and the value each do in the lookup, beyond their shapes.',
          'Why the scores are divided by $\\sqrt{d_k}$: unscaled, the top weight grows from {sweep.maxUnscaled.4:4} at $d_k = 4$ to {sweep.maxUnscaled.256:4} at $d_k = 256$.',
          'Causal and padding masks, and what each one hides.',
          'Multi-head attention: several lookups side by side for the same parameters.',
          'A task where one attention block fails and two succeed, and the two-step circuit behind it.',
        ],
      },
    ],
  },
  {
    id: 'qkv',
    title: 'Queries, keys and values: a soft lookup',
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
          'below and watch the weights move; the black dot is the output, the weighted mean of the values.',
      },
      { kind: 'widget', tag: 'attn-soft-lookup', attrs: { 'state-key': 'lookup' }, caption: 'A soft lookup over five keys. Drag the query, or focus the sketch and use the arrow keys.' },
    ],
  },
  {
    id: 'scaled-dot-product',
    title: 'Scaled dot-product attention, in full',
    blocks: [
      {
        kind: 'p',
        text:
          'Here is the function this page runs, straight from the core’s source. The scores are one ' +
          'matrix product, the scale is one multiplication, a mask (if any) overwrites blocked scores ' +
          'before the softmax, and the weights multiply the values.',
      },
      { kind: 'code', caption: 'core/include/attn/attention.hpp', source: 'attention-core' },
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
    title: 'Why divide by √dₖ',
    blocks: [
      {
        kind: 'p',
        text:
          'Take a query and a key whose $d_k$ components are independent with variance 1. Their dot ' +
          'product is a sum of $d_k$ such products, so its variance is $d_k$ and its spread grows like ' +
          '$\\sqrt{d_k}$. Wide scores make the softmax lopsided: nearly all the weight lands on whichever ' +
          'key happened to score highest. Dividing by $\\sqrt{d_k}$ puts the variance back at 1.',
      },
      { kind: 'widget', tag: 'attn-scale-figure', attrs: { 'state-key': 'scale' }, caption: 'Random queries and keys, {sweep.tokens} tokens, {sweep.draws} draws per dimension, computed now by the core. Error bars are standard errors.' },
      {
        kind: 'p',
        text:
          'Without the scale, at $d_k = 256$ a single token takes {sweep.maxUnscaled.256:4} of the weight ' +
          'on average, and that is on random vectors, before any learning: the softmax is saturated by noise. ' +
          'With the scale the top weight stays near {sweep.maxScaled.64:2} at every width, so a head behaves ' +
          'the same whether it is 4 or 256 dimensions wide. The entropy tells the same story in nats, ' +
          'against the ceiling of perfectly even attention, $\\log({sweep.tokens}) = {sweep.uniformEntropy:4}$.',
      },
      { kind: 'widget', tag: 'attn-ranked-table', attrs: { 'state-key': 'table' }, caption: 'The same measurement as a table. Click a column header (or focus it and press Enter) to rank the rows by it.' },
      {
        kind: 'p',
        text:
          'A saturated softmax also stops learning. Its Jacobian, $\\mathrm{diag}(p) - pp^\\top$, ' +
          'vanishes as $p$ approaches a one-hot vector: the measured Frobenius norm falls from ' +
          '{sweep.jacobianUnscaled.4:3} at $d_k = 4$ to {sweep.jacobianUnscaled.256:3} at $d_k = 256$ without the scale, ' +
          'while the scaled version holds near {sweep.jacobianScaled.256:2}. Little gradient reaches the ' +
          'keys that lost, so the layer cannot correct which key it picks.',
      },
    ],
  },
  {
    id: 'masks',
    title: 'Masks',
    blocks: [
      {
        kind: 'p',
        text:
          'A mask works on the scores, before the softmax: every blocked pair gets a huge negative ' +
          'score, and after the softmax its weight is not small but exactly zero. The core checks it: the ' +
          'largest weight on a blocked pair below is {masks.maxBlocked:e}.',
      },
      { kind: 'widget', tag: 'attn-mask-figure', attrs: { 'state-key': 'masks' }, caption: 'Attention weights of one seeded score matrix under each mask. Darker cells carry more weight; grey cells are blocked.' },
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
          'there, and a decoder needs both.',
      },
    ],
  },
  {
    id: 'multi-head',
    title: 'Multi-head attention',
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
          'what they find. Cutting a 64-wide model into 4 heads of 16 costs nothing: the core counts ' +
          '{heads.params4} parameters for 4 heads and {heads.params1} for one, because the projection ' +
          'matrices keep their size and are only split.',
      },
      { kind: 'widget', tag: 'attn-heads-figure', attrs: { 'state-key': 'heads' }, caption: 'One seeded input through 4 heads of 16: four different patterns of attention from the same tokens.' },
    ],
  },
  {
    id: 'cue-task',
    title: 'A task one attention layer cannot do',
    blocks: [
      {
        kind: 'p',
        text:
          'The sharpest result of the lesson. Each sequence holds a special CUE token exactly once ' +
          'among random symbols; the last position repeats the CUE as a question, and the right answer ' +
          'is whatever symbol came straight after the first CUE.',
      },
      { kind: 'code', caption: 'one training sequence', source: 'tokens:  6 2 2 CUE 4 1 7 3 5  CUE\n                   ^ the answer is 4' },
      {
        kind: 'p',
        text:
          'Chance is $1/7 \\approx {cue.chance:4}$. A model with one attention block ({cue.params1} ' +
          'parameters) never gets far past guessing the most common symbol in the sequence ' +
          '({cue.baseline:4}); the same model with two blocks ({cue.params2} parameters) solves it: ' +
          '{cue.best1:4} against {cue.best2:4} best validation accuracy in the run below.',
      },
      { kind: 'widget', tag: 'attn-cue-trainer', attrs: { 'state-key': 'cue' }, caption: 'Both models trained on the cue task by the core. Press Train to run it yourself.' },
      {
        kind: 'p',
        text:
          '**Why one layer is not enough.** Answering takes two moves: find the earlier CUE by ' +
          'content, then step one position to the right. One attention layer produces one weighted mean: ' +
          'it can match on content or shift by a fixed offset, but it cannot chain the two. With two ' +
          'layers, the first copies each token’s left neighbour into it, so the symbol after the CUE ' +
          'now also carries “the CUE came just before me”, and the second layer matches the question ' +
          'against that and reads off the answer.',
      },
      {
        kind: 'p',
        text:
          'Interpretability research calls this pairing an induction head, and it is the smallest case of ' +
          'depth buying a new ability rather than more capacity. It also explains the learning curve: ' +
          'the two-block model hovers at the plateau for several epochs and then jumps, because the ' +
          'circuit only pays off once both halves are in place.',
      },
    ],
  },
  {
    id: 'flowchart',
    title: 'The two-step circuit at a glance',
    blocks: [{ kind: 'widget', tag: 'attn-flowchart', caption: 'How two blocks answer the cue task, and where one block gets stuck.' }],
  },
  {
    id: 'pitfalls',
    title: 'Pitfalls',
    blocks: [
      {
        kind: 'list',
        items: [
          '**Leaving out $1/\\sqrt{d_k}$.** Unscaled, the top weight is already {sweep.maxUnscaled.256:4} at $d_k = 256$ before training, and a saturated softmax passes back almost no gradient.',
          '**Masking after the softmax.** Zeroing weights afterwards leaves rows that no longer add up to 1 (see the demo below). Mask the scores, then normalise.',
          '**A careless “minus infinity”.** $-10^9$ is harmless in float32, but $-10^{30}$ becomes $-\\infty$ in float16, and a fully masked row then turns into NaN (below, computed in half precision).',
          '**No padding mask.** Attention will happily average the filler vectors, the attention version of the post-padding bug that put a SimpleRNN at 0.5036 in the previous phase.',
          '**Treating the two masks as one.** The causal mask keeps later positions out of view; the padding mask keeps filler out; a decoder uses both at once.',
          '**Asking one layer to compose.** Match-then-shift needs two blocks, as the cue task shows.',
          '**Reading attention as an explanation.** In the run above, the solving head put {cue.cueShare:2} of its weight on the cue position, a tidy story; but on Vision Transformers, confidently wrong predictions have come with perfectly ordinary-looking attention.',
        ],
      },
      { kind: 'widget', tag: 'attn-pitfall-demo', caption: 'Two pitfalls, computed by the core: masking after the softmax, and a half-precision fully masked row.' },
    ],
  },
  {
    id: 'recap',
    title: 'Recap',
    blocks: [
      {
        kind: 'list',
        items: [
          'Attention is $\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V$: a soft dictionary lookup that returns a weighted mean of values. Our core matches PyTorch to {reference.output:e}.',
          'The scale is there because dot products spread like $\\sqrt{d_k}$: unscaled, the top weight climbs from {sweep.maxUnscaled.4:4} to {sweep.maxUnscaled.256:4} and the entropy drops from {sweep.entropyUnscaled.4:4} to {sweep.entropyUnscaled.256:4} nats as $d_k$ goes from 4 to 256.',
          'Masks act on scores before the softmax and leave blocked pairs with exactly zero weight ({masks.maxBlocked:e} measured).',
          'Causal: {masks.causal:4} of pairs allowed; padding: {masks.padding:4}; both: {masks.both:4}.',
          'Heads split the same parameters ({heads.params4} either way) into independent lookups.',
          'One attention block cannot match-then-read; two can. Depth composes operations that width alone cannot.',
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
    title: 'Check yourself',
    blocks: [{ kind: 'widget', tag: 'attn-quiz' }],
  },
  {
    id: 'exercises',
    title: 'Try it yourself',
    blocks: [{ kind: 'widget', tag: 'attn-exercises' }],
  },
];
