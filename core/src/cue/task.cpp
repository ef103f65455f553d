#include "attn/cue/task.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attn {
void require_cue_task_config(const CueTaskConfig& c) { require_fields(c); }

CueSet make_cue_set(const CueTaskConfig& config, int n, Random& rng) {
  require_cue_task_config(config);
  require_range("n", n, 1, kCueMaxSetSize);
  const int body = config.length - 1, cue = cue_token(config);
  CueSet set;
  set.length = config.length;
  set.tokens.resize(std::size_t(n) * config.length);
  set.labels.resize(n);
  set.cue_position.resize(n);
  for (int i = 0; i < n; ++i) {
    int* seq = set.tokens.data() + std::size_t(i) * config.length;
    const int at = int(rng.below(std::uint64_t(body - 1)));  // 0..body-2: a token follows it
    for (int t = 0; t < body; ++t) seq[t] = t == at ? cue : int(rng.below(std::uint64_t(config.symbols)));
    seq[body] = cue;
    set.cue_position[i] = at;
    set.labels[i] = seq[at + 1];
  }
  return set;
}

CueData make_cue_data(const CueTaskConfig& config, std::uint64_t seed) {
  Random rng(seed);
  CueData data;
  data.train = make_cue_set(config, config.train_size, rng);
  data.validation = make_cue_set(config, config.validation_size, rng);
  return data;
}

double most_frequent_symbol_accuracy(const CueSet& set, int symbols) {
  require_range("symbols", symbols, 2, kCueMaxSymbols);
  if (set.size() < 1)
    throw ArgumentError("set", ErrorCode::empty, "must hold at least one sequence, got 0", {{"got", 0}});
  double score = 0;
  std::vector<int> count(symbols);
  for (int i = 0; i < set.size(); ++i) {
    std::fill(count.begin(), count.end(), 0);
    const int* seq = set.sequence(i);
    for (int t = 0; t + 1 < set.length; ++t)
      if (seq[t] >= 0 && seq[t] < symbols) ++count[seq[t]];
    int best = 0, ties = 0;
    for (int s = 0; s < symbols; ++s) {
      if (count[s] > best)
        best = count[s], ties = 1;
      else if (count[s] == best)
        ++ties;
    }
    if (count[set.labels[i]] == best) score += 1.0 / ties;
  }
  return score / set.size();
}

}  // namespace attn
