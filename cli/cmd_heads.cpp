// attention-lab heads: 4 heads of 16 against 1 head of 64 in a 64-dimensional model — the
// parameter counts and each head's weights on one seeded input.
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"

#include "attn/experiments/heads_demo.hpp"

namespace attn::cli {
namespace {

using namespace attn::experiments;

std::string layer_name(const HeadsDemoLayer& layer) {
  return std::to_string(layer.num_heads) + (layer.num_heads == 1 ? " head of " : " heads of ") +
         std::to_string(layer.key_dim);
}

// One head's (T, T) weights, the most-weighted key of each query marked with '*'.
void print_weights(std::ostream& out, const std::vector<double>& w, const std::vector<int>& argmax, int tokens) {
  std::vector<std::string> header{"query \\ key"};
  for (int j = 0; j < tokens; ++j) header.push_back(std::to_string(j));
  Table table(header);
  for (int i = 0; i < tokens; ++i) {
    std::vector<std::string> row{std::to_string(i)};
    for (int j = 0; j < tokens; ++j)
      row.push_back((argmax[i] == j ? "*" : "") + fixed(w[std::size_t(i) * tokens + j], 3));
    table.add(row);
  }
  table.print(out);
}

void print(std::ostream& out, const HeadsDemo& demo) {
  const int tokens = demo.tokens, heads = demo.multi.num_heads;
  out << "A " << demo.d_model << "-dimensional model as " << layer_name(demo.multi) << " or as "
      << layer_name(demo.single) << " (Glorot-uniform weights, seed " << demo.seed << "),\n"
      << "self-attention over " << tokens << " standard normal tokens.\n\n";
  Table params({"layer", "heads", "key dim", "parameters"});
  for (const auto* layer : {&demo.multi, &demo.single})
    params.add({layer_name(*layer), std::to_string(layer->num_heads), std::to_string(layer->key_dim),
                grouped(layer->parameter_count)});
  params.print(out);
  out << (demo.multi.parameter_count == demo.single.parameter_count
              ? "Same count: the heads are column blocks of the same projection matrices.\n"
              : "The counts differ.\n");

  for (int h = 0; h < heads; ++h) {
    out << "\nHead " << h + 1 << " of " << heads << " (" << demo.multi.key_dim
        << "-d); * marks the key each query weights most:\n";
    print_weights(out, demo.multi.weights[h], demo.multi.argmax[h], tokens);
  }
  out << "\nThe single " << demo.single.key_dim << "-d head:\n";
  print_weights(out, demo.single.weights[0], demo.single.argmax[0], tokens);

  out << "\nHow different the lookups are: total-variation distance between two heads' weight rows,\n"
         "averaged over queries (0 = same weights, 1 = disjoint keys).\n";
  std::vector<std::string> header{"head", "mean max weight", "mean entropy (nats)"};
  for (int h = 0; h < heads; ++h) header.push_back("vs head " + std::to_string(h + 1));
  Table summary(header);
  for (int a = 0; a < heads; ++a) {
    std::vector<std::string> row{std::to_string(a + 1), fixed(demo.multi.mean_max_weight[a], 4),
                                 fixed(demo.multi.mean_entropy[a], 4)};
    for (int b = 0; b < heads; ++b) row.push_back(fixed(demo.head_distance[std::size_t(a) * heads + b], 4));
    summary.add(row);
  }
  summary.add({"single", fixed(demo.single.mean_max_weight[0], 4), fixed(demo.single.mean_entropy[0], 4)});
  summary.print(out);
  out << "Queries whose most-weighted key is not the same in every head: " << demo.queries_with_differing_argmax
      << " of " << tokens << ".\n"
      << "Untrained, every head is close to uniform (1/" << tokens << " = " << fixed(1.0 / double(tokens), 4)
      << "); they differ already, and training is what makes each one specialise.\n";
}

class HeadsCommand : public ConfigCommand<HeadsDemoConfig> {
 public:
  explicit HeadsCommand(CLI::App& parent) {
    add_options(
        *parent.add_subcommand("heads", "4 heads of 16 vs 1 head of 64: equal parameters, four different lookups"));
  }

  int run(std::ostream& out) override {
    const HeadsDemo demo = heads_demo(config_);
    if (json)
      out << to_json(demo).dump() << '\n';
    else
      print(out, demo);
    return 0;
  }
};

}  // namespace

std::unique_ptr<Command> heads_command(CLI::App& parent) { return std::make_unique<HeadsCommand>(parent); }

}  // namespace attn::cli
