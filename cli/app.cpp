#include "app.hpp"

#include "command.hpp"

#include "attn/config.hpp"

#include <algorithm>
#include <memory>

namespace attn::cli {

int run_attention_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app("The lesson \"Attention from Scratch\", measured by the native attention core.", "attention-lab");
  app.require_subcommand(1);
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(reference_command(app));
  commands.push_back(scale_command(app));
  commands.push_back(masks_command(app));
  commands.push_back(heads_command(app));
  commands.push_back(pitfalls_command(app));
  commands.push_back(cue_command(app));
  commands.push_back(probe_command(app));
  commands.push_back(intervene_command(app));
  commands.push_back(steps_command(app));

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e, out, err);  // --help, for the tool or a subcommand
    const auto chosen = app.get_subcommands();
    const std::string who = chosen.empty() ? "attention-lab" : "attention-lab " + chosen.front()->get_name();
    err << who << ": " << e.what() << " (see " << who << " --help)\n";
    return 2;
  }

  const auto chosen = std::find_if(commands.begin(), commands.end(), [](const auto& c) { return c->app->parsed(); });
  const Command& command = **chosen;  // require_subcommand(1) guarantees one
  const std::string who = "attention-lab " + command.app->get_name();
  try {
    return (*chosen)->run(out);
  } catch (const ArgumentError& e) {
    err << who << ": " << e.message([&](const std::string& name) { return command.flag_of(name); }) << " (see " << who
        << " --help)\n";
    return 2;
  } catch (const std::exception& e) {
    err << who << ": " << e.what() << '\n';
    return 1;
  }
}

}  // namespace attn::cli
