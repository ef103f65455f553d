// attention-lab heads: 4 heads of 16 against 1 head of 64 in a 64-dimensional model — the
// parameter counts and each head's weights on one seeded input.
#include "command.hpp"
#include "json_writer.hpp"
#include "table.hpp"

#include "attn/experiments/heads_demo.hpp"

namespace attn::cli {
namespace {

using namespace attn::experiments;

std::string grouped(long n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

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
    for (int j = 0; j < tokens; ++j) row.push_back((argmax[i] == j ? "*" : "") + fixed(w[std::size_t(i) * tokens + j], 3));
    table.add(row);
  }
  table.print(out);
}

void write_layer(JsonWriter& json, const std::string& name, const HeadsDemoLayer& layer) {
  json.key(name).begin_object()
      .field("num_heads", layer.num_heads)
      .field("key_dim", layer.key_dim)
      .field("parameter_count", layer.parameter_count);
  json.key("weights").begin_array();
  for (const auto& w : layer.weights) json.array(w);
  json.end_array().key("argmax").begin_array();
  for (const auto& a : layer.argmax) json.array(a);
  json.end_array();
  json.key("mean_max_weight").array(layer.mean_max_weight);
  json.key("mean_entropy").array(layer.mean_entropy);
  json.end_object();
}

}  // namespace

Command heads_command() {
  return {"heads",
          "4 heads of 16 vs 1 head of 64: equal parameters, four different lookups",
          {{"d-model", "D", "model width, 1..1024 (default 64)"},
           {"heads", "H", "heads of the multi-head layer, 2..D, dividing D (default 4)"},
           {"tokens", "T", "tokens of the seeded input, 1..256 (default 8)"},
           {"seed", "S", "seed of the input and the weights (default 0)"}},
          [](const Args& args, std::ostream& out) {
            const long d_model = args.integer("d-model", 64, 1, 1024);
            const long heads = args.integer("heads", 4, 2, d_model);
            const long tokens = args.integer("tokens", 8, 1, 256);
            const long seed = args.integer("seed", 0, 0, 9007199254740991L);
            const HeadsDemo demo = heads_demo(int(d_model), int(heads), int(tokens), std::uint64_t(seed));

            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("d_model", d_model).field("tokens", tokens).field("seed", seed);
              write_layer(json, "multi", demo.multi);
              write_layer(json, "single", demo.single);
              json.key("head_distance").array(demo.head_distance);
              json.field("queries_with_differing_argmax", demo.queries_with_differing_argmax);
              json.end_object();
              return 0;
            }

            out << "A " << d_model << "-dimensional model as " << layer_name(demo.multi) << " or as "
                << layer_name(demo.single) << " (Glorot-uniform weights, seed " << seed << "),\n"
                << "self-attention over " << tokens << " standard normal tokens.\n\n";
            Table params({"layer", "heads", "key dim", "parameters"});
            for (const auto* layer : {&demo.multi, &demo.single})
              params.add({layer_name(*layer), std::to_string(layer->num_heads), std::to_string(layer->key_dim),
                          grouped(layer->parameter_count)});
            params.print(out);
            out << (demo.multi.parameter_count == demo.single.parameter_count
                        ? "Same count: the heads are column blocks of the same projection matrices.\n"
                        : "The counts differ.\n");

            for (int h = 0; h < demo.multi.num_heads; ++h) {
              out << "\nHead " << h + 1 << " of " << demo.multi.num_heads << " (" << demo.multi.key_dim
                  << "-d); * marks the key each query weights most:\n";
              print_weights(out, demo.multi.weights[h], demo.multi.argmax[h], int(tokens));
            }
            out << "\nThe single " << demo.single.key_dim << "-d head:\n";
            print_weights(out, demo.single.weights[0], demo.single.argmax[0], int(tokens));

            out << "\nHow different the lookups are: total-variation distance between two heads' weight rows,\n"
                   "averaged over queries (0 = same weights, 1 = disjoint keys).\n";
            std::vector<std::string> header{"head", "mean max weight", "mean entropy (nats)"};
            for (int h = 0; h < demo.multi.num_heads; ++h) header.push_back("vs head " + std::to_string(h + 1));
            Table summary(header);
            for (int a = 0; a < demo.multi.num_heads; ++a) {
              std::vector<std::string> row{std::to_string(a + 1), fixed(demo.multi.mean_max_weight[a], 4),
                                           fixed(demo.multi.mean_entropy[a], 4)};
              for (int b = 0; b < demo.multi.num_heads; ++b)
                row.push_back(fixed(demo.head_distance[std::size_t(a) * demo.multi.num_heads + b], 4));
              summary.add(row);
            }
            summary.add({"single", fixed(demo.single.mean_max_weight[0], 4), fixed(demo.single.mean_entropy[0], 4)});
            summary.print(out);
            out << "Queries whose most-weighted key is not the same in every head: "
                << demo.queries_with_differing_argmax << " of " << tokens << ".\n"
                << "Untrained, every head is close to uniform (1/" << tokens << " = " << fixed(1.0 / double(tokens), 4)
                << "); they differ already, and training is what makes each one specialise.\n";
            return 0;
          }};
}

}  // namespace attn::cli
