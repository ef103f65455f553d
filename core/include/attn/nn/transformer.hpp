// The tiny transformer of the cue task: token embedding + fixed sinusoidal positions,
// `blocks` transformer blocks, and a Dense(classes) read from the last position only.
//
// Block (pre-LN, the default): x + Dropout(Attention(LN(x))), then x + Dropout(FFN(LN(x))).
// Block (post-LN, option):     LN(x + Dropout(Attention(x))), then LN(x + Dropout(FFN(x))).
// No final LayerNorm, no attention mask. Dropout also acts on embedding + position.
// Defaults (d 32, 1 head of 32, FFN 64, 9 tokens, 9 classes) give 9,129 parameters for one
// block and 17,673 for two.
//
// Only the last position's output is read, so the last block computes its query, attention
// output, residual and FFN for that row alone (keys and values still come from every
// position); earlier blocks run on every row. `last_query_only = false` runs the last block
// in full too (same numbers up to rounding; used to measure the saving and for analysis).
//
// Legend as in layers.hpp: B sequences, T tokens each, d model width, C classes.
// Left out: causal masks, padding, weight tying, a final LayerNorm.
#pragma once

#include "attn/config.hpp"
#include "attn/nn/layers.hpp"

#include <functional>
#include <vector>

namespace attn::nn {

struct TransformerConfig {
  int vocabulary = 9;
  int length = 10;  // T
  int d_model = 32;
  int heads = 1;
  int key_dim = 0;  // per head; 0 means d_model / heads
  int d_ff = 64;
  int blocks = 2;
  int classes = 9;
  double dropout = 0.1;
  double layer_norm_epsilon = 1e-6;
  bool post_layer_norm = false;
  bool last_query_only = true;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = TransformerConfig;
    visit(FieldInfo{"vocabulary", "vocabulary", "vocabulary", 1, 100000, "token ids"}, member<&C::vocabulary>);
    visit(FieldInfo{"length", "length", "length", 1, 4096, "tokens per sequence"}, member<&C::length>);
    visit(FieldInfo{"d_model", "dModel", "d-model", 1, 4096, "model width"}, member<&C::d_model>);
    visit(FieldInfo{"heads", "heads", "heads", 1, 4096, "attention heads"}, member<&C::heads>);
    visit(FieldInfo{"key_dim", "keyDim", "key-dim", 0, 4096, "width of each head, 0 for d_model / heads"},
          member<&C::key_dim>);
    visit(FieldInfo{"d_ff", "dFF", "d-ff", 1, 65536, "hidden width of the feed-forward layers"}, member<&C::d_ff>);
    visit(FieldInfo{"blocks", "blocks", "blocks", 1, 64, "transformer blocks"}, member<&C::blocks>);
    visit(FieldInfo{"classes", "classes", "classes", 2, 100000, "output classes"}, member<&C::classes>);
    visit(FieldInfo{"dropout", "dropout", "dropout", 0, 1, "dropout rate", false, true}, member<&C::dropout>);
    visit(FieldInfo{"layer_norm_epsilon", "layerNormEpsilon", "layer-norm-epsilon", 0, 1, "LayerNorm's variance guard",
                    true, true},
          member<&C::layer_norm_epsilon>);
    visit(FieldInfo{"post_layer_norm", "postLayerNorm", "post-ln", 0, 1, "LayerNorm after each residual"},
          member<&C::post_layer_norm>);
    visit(FieldInfo{"last_query_only", "lastQueryOnly", "last-query-only", 0, 1,
                    "compute the last block for the query row only"},
          member<&C::last_query_only>);
  }
};

// Throws attn::ArgumentError naming the field and the value it got.
void require_transformer_config(const TransformerConfig& config);

// Parameters a config yields, without building the model.
long transformer_parameter_count(const TransformerConfig& config);

template <typename T>
struct TransformerBlock {
  bool post_ln = false;
  LayerNorm<T> norm1, norm2;
  SelfAttention<T> attention;
  FeedForward<T> ffn;
  Dropout<T> drop_attention, drop_ffn;
  // Cached by forward():
  int batch = 0, length = 0;
  bool last_only = false;
  // Interventions (attn/cue/intervene.hpp), empty in training: may change the block's output
  // (B R, d) before the next block reads it.
  std::function<void(Mat<T>& y)> edit_output;

  TransformerBlock() = default;
  explicit TransformerBlock(const TransformerConfig& config);
  void init(Random& rng);
  // x (B * T, d) -> y (B * R, d), R = 1 when last_query_only else T. rng null = evaluation.
  Mat<T> forward(const Mat<T>& x, int batch, int length, bool last_query_only, Random* rng);
  // dy (B * R, d) -> dx (B * T, d)
  Mat<T> backward(const Mat<T>& dy);
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

template <typename T>
class TinyTransformer {
 public:
  // Builds the layers; weights start as the layers' constructors leave them (zeros, LN 1/0).
  explicit TinyTransformer(const TransformerConfig& config);
  // Keras's initialisation, drawn in a fixed order: embedding uniform(-0.05, 0.05), then per
  // block the attention projections (Glorot, Keras's fan rules), FFN up, FFN down (Glorot),
  // then the output Dense (Glorot); biases 0, LayerNorm gamma 1 and beta 0.
  void init(Random& rng);

  // tokens (B * T) -> logits (B, C). rng non-null = training (dropout draws from it).
  // last_query_only false runs the last block on every row too (for the attention analysis);
  // the two-argument form takes it from the config.
  // Throws attn::ArgumentError when tokens is not a whole number of sequences or holds an
  // id outside the vocabulary.
  Mat<T> forward(const std::vector<int>& tokens, Random* rng, bool last_query_only);
  Mat<T> forward(const std::vector<int>& tokens, Random* rng) { return forward(tokens, rng, config_.last_query_only); }
  // dlogits (B, C) -> adds every parameter's gradient (call zero_grad first).
  void backward(const Mat<T>& dlogits);

  const TransformerConfig& config() const { return config_; }
  // Every (value, gradient) pair, in a fixed order with readable names.
  const ParameterList<T>& parameters() const { return params_; }
  long parameter_count() const { return count_parameters(params_); }
  const TransformerBlock<T>& block(int i) const { return blocks_.at(std::size_t(i)); }
  TransformerBlock<T>& block(int i) { return blocks_.at(std::size_t(i)); }  // to set its edit hooks

  TinyTransformer(const TinyTransformer&) = delete;  // params_ points into this object
  TinyTransformer& operator=(const TinyTransformer&) = delete;

 private:
  TransformerConfig config_;
  Embedding<T> embedding_;
  PositionalEncoding<T> positions_;
  Dropout<T> drop_input_;
  std::vector<TransformerBlock<T>> blocks_;
  Linear<T> head_;
  ParameterList<T> params_;
  int batch_ = 0;
  bool last_block_full_ = false;  // cached: the last block returned every row
};

}  // namespace attn::nn
