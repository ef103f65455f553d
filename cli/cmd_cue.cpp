// attention-lab cue: train the tiny transformer on the cue task and print its curve, the
// baselines and where the last block looks. --json is the recorded run the lesson page shows.
#include "command.hpp"
#include "json_writer.hpp"
#include "table.hpp"

#include "attn/nn/cue_trainer.hpp"

#include <chrono>
#include <string>

namespace attn::cli {
namespace {

nn::CueTrainConfig config_from(const Args& args) {
  nn::CueTrainConfig c;
  c.blocks = int(args.integer("blocks", c.blocks, 1, 8));
  c.seed = std::uint64_t(args.integer("seed", long(c.seed), 0, 2147483647L));
  c.epochs = int(args.integer("epochs", c.epochs, 1, 1000));
  c.batch_size = int(args.integer("batch", c.batch_size, 1, 4096));
  c.heads = int(args.integer("heads", c.heads, 1, 32));
  c.task.length = int(args.integer("length", c.task.length, 3, 64));
  c.adam.learning_rate = args.number("lr", c.adam.learning_rate, -1e300, 1e300);
  if (!(c.adam.learning_rate > 0.0 && c.adam.learning_rate <= 10.0))
    throw UsageError("--lr must be positive and at most 10, got " + args.text("lr", ""));
  c.dropout = args.number("dropout", c.dropout, 0.0, 0.9);
  c.post_layer_norm = args.flag("post-ln");
  c.last_query_only = !args.flag("full-last-block");
  if (c.d_model % c.heads != 0)
    throw UsageError("--heads must divide d_model 32, got " + std::to_string(c.heads));
  return c;
}

std::string offset_name(int offset) {
  switch (offset) {
    case -1: return "-1 (cue)";
    case 0: return "0 (answer)";
    default: return (offset > 0 ? "+" : "") + std::to_string(offset);
  }
}

// 17673 -> "17,673", as the lesson writes counts.
std::string with_commas(long n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string circuit_text(const std::string& circuit) {
  if (circuit == "cue") return "cue: the last block reads the earlier cue, which block 1 filled with its neighbour";
  if (circuit == "answer") return "answer: the last block reads the answer position directly";
  return "none: no position gets half of the query's attention";
}

}  // namespace

Command cue_command() {
  return {"cue",
          "train the tiny transformer on the cue task (find the cue, read the next token)",
          {{"blocks", "N", "transformer blocks, 1..8 (default 2)"},
           {"seed", "S", "seed for data, weights, shuffling and dropout (default " +
                             std::to_string(nn::kCueDefaultSeed) +
                             ": its 2-block run reads the cue, share at offset -1 >= 0.8)"},
           {"epochs", "E", "epochs, 1..1000 (default 30)"},
           {"batch", "B", "batch size, 1..4096 (default 32)"},
           {"lr", "RATE", "Adam learning rate, > 0 (default 0.003)"},
           {"heads", "H", "attention heads, dividing 32 (default 1)"},
           {"length", "T", "tokens per sequence including the query, 3..64 (default 10)"},
           {"dropout", "P", "dropout rate, 0..0.9 (default 0.1)"},
           {"post-ln", "", "LayerNorm after each residual instead of before"},
           {"full-last-block", "", "compute the last block on every position (slower, same model)"}},
          [](const Args& args, std::ostream& out) {
            const nn::CueTrainConfig config = config_from(args);
            const auto start = std::chrono::steady_clock::now();
            nn::CueTrainer trainer(config);
            while (!trainer.finished()) trainer.train_epoch();
            const nn::CueAnalysis analysis = trainer.analyse();
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const auto& history = trainer.history();

            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("task", "cue").field("seed", long(config.seed));
              json.key("config")
                  .begin_object()
                  .field("blocks", config.blocks)
                  .field("heads", config.heads)
                  .field("d_model", config.d_model)
                  .field("d_ff", config.d_ff)
                  .field("length", config.task.length)
                  .field("symbols", config.task.symbols)
                  .field("train_size", config.task.train_size)
                  .field("validation_size", config.task.validation_size)
                  .field("dropout", config.dropout)
                  .field("layer_norm", config.post_layer_norm ? "post" : "pre")
                  .field("batch_size", config.batch_size)
                  .field("epochs", config.epochs)
                  .field("learning_rate", config.adam.learning_rate)
                  .field("beta1", config.adam.beta1)
                  .field("beta2", config.adam.beta2)
                  .field("adam_epsilon", config.adam.epsilon)
                  .field("last_query_only", config.last_query_only)
                  .end_object();
              json.field("parameters", trainer.parameter_count())
                  .field("chance", trainer.chance_accuracy())
                  .field("baseline_most_frequent", trainer.baseline_accuracy())
                  .field("best_validation_accuracy", trainer.best_validation_accuracy())
                  .field("best_epoch", trainer.best_epoch());
              json.key("epochs").begin_array();
              for (const auto& m : history)
                json.begin_object()
                    .field("epoch", m.epoch)
                    .field("train_loss", m.train_loss)
                    .field("train_accuracy", m.train_accuracy)
                    .field("validation_loss", m.validation_loss)
                    .field("validation_accuracy", m.validation_accuracy)
                    .end_object();
              json.end_array();
              json.key("attention").begin_object().key("offsets").array(analysis.offsets);
              json.key("last_block_by_offset").begin_array();
              for (const auto& head : analysis.last_block_by_offset) json.array(head);
              json.end_array();
              json.key("first_block_cue_to_next").array(analysis.first_block_cue_to_next);
              json.field("circuit", analysis.circuit).end_object();
              json.field("elapsed_seconds", seconds).end_object();
              out << '\n';
              return 0;
            }

            out << "cue task, " << config.blocks << (config.blocks == 1 ? " block" : " blocks")
                << ", seed " << config.seed << ": " << with_commas(trainer.parameter_count()) << " parameters\n\n";
            Table curve({"epoch", "train loss", "train acc", "val loss", "val acc"});
            for (const auto& m : history)
              curve.add({std::to_string(m.epoch), fixed(m.train_loss, 4), fixed(m.train_accuracy, 4),
                         fixed(m.validation_loss, 4), fixed(m.validation_accuracy, 4)});
            curve.print(out);
            out << '\n';
            Table summary({"validation accuracy", "value"});
            summary.add({"best (epoch " + std::to_string(trainer.best_epoch()) + ")",
                         fixed(trainer.best_validation_accuracy(), 4)});
            summary.add({"most frequent body symbol", fixed(trainer.baseline_accuracy(), 4)});
            summary.add({"chance (1/" + std::to_string(config.task.symbols) + ")",
                         fixed(trainer.chance_accuracy(), 4)});
            summary.print(out);
            out << "\nlast block, attention from the query by offset from the answer (validation mean)\n";
            std::vector<std::string> header = {"head"};
            for (int o : analysis.offsets) header.push_back(offset_name(o));
            header.push_back("block 1: cue -> next");
            Table offsets(header);
            for (int h = 0; h < config.heads; ++h) {
              std::vector<std::string> row = {std::to_string(h + 1)};
              for (double w : analysis.last_block_by_offset[std::size_t(h)]) row.push_back(fixed(w, 4));
              row.push_back(fixed(analysis.first_block_cue_to_next[std::size_t(h)], 4));
              offsets.add(row);
            }
            offsets.print(out);
            out << "\ncircuit: " << circuit_text(analysis.circuit) << '\n'
                << "elapsed: " << fixed(seconds, 2) << " s\n";
            return 0;
          }};
}

}  // namespace attn::cli
