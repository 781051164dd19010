// lanai-emu: command-line front end of the LANai NIC emulator.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <exception>
#include <optional>
#include <string>

#include "emulator/cli/command_line.hpp"
#include "emulator/cli/commands.hpp"
#include "emulator/iss/block_library.hpp"
#include "emulator/iss/cpu.hpp"
#include "bench/commands/bench_commands.hpp"
#include "hostlib/program/launch_command.hpp"
#include "tools/analytic/model_commands.hpp"

int main(int argc, char** argv) {
  lanai::cli::Command app{
      "lanai-emu: emulator of a Myrinet-style programmable NIC (LANai firmware, "
      "devices, VIA hosts) in deterministic virtual time"};
  app.require_subcommand();
  // Before or after the subcommand's name: every command that runs the
  // emulator honours it, as the processors it builds take the default.
  app.add_flag_callback(
         "--no-fast-forward", [] { lanai::iss::set_default_fast_forward(false); },
         "execute every idle polling cycle of the LANai instead of skipping idle loops exactly, "
         "keep the cards' cores in strict lockstep, and make every completion poll of the host "
         "programs a kernel event (results are the same; for comparison and debugging)")
      ->trigger_on_parse();
  app.add_flag_callback(
         "--no-blocks", [] { lanai::iss::set_default_blocks(false); },
         "step every LANai instruction through the reference path instead of running predecoded "
         "blocks (results are the same; for comparison and debugging; not with launch)")
      ->trigger_on_parse();
  app.add_flag_callback(
         "--no-shared-blocks", [] { lanai::iss::BlockLibrary::set_default_sharing(false); },
         "make every LANai core decode its own predecoded blocks instead of taking those another "
         "core of the run built from the same code (results are the same; for comparison and "
         "debugging; not with launch)")
      ->trigger_on_parse();
  int exit_status = 0;
  lanai::cli::add_exec_command(app, exit_status);
  lanai::cli::add_disasm_command(app, exit_status);
  lanai::cli::add_config_command(app, exit_status);
  lanai::cli::add_firmware_command(app, exit_status);
  lanai::bench::add_bench_commands(app, exit_status);
  lanai::models::add_model_commands(app, exit_status);
  // Listed for --help; its line is read by the launcher itself (below), as
  // everything after "--" belongs to the program it runs.
  app.add_subcommand("launch", lanai::vipl::kLaunchSummary);
  app.add_flag_callback(
      "--version", [] {}, "print lanai-emu's version and exit (answered before anything else)");
  app.subcommands_take_parent_options();
  // --version anywhere before "--" (after it, the words are a launched
  // program's): it answers alone, whatever else the line asks.
  for (int i = 1; i < argc && std::string(argv[i]) != "--"; ++i) {
    if (std::string(argv[i]) == "--version") {
      fmt::print("lanai-emu {}\n", LANAI_EMU_VERSION);
      return 0;
    }
  }
  // CLI11 takes an unknown first word for a stray argument: it would only
  // say that a subcommand is required, or print the top-level help and
  // succeed when --help follows. Name the word instead, and fail.
  // The first word that is not a top-level flag names the subcommand.
  int first = 1;
  while (first < argc && argv[first][0] == '-' && std::string(argv[first]) != "--")
    ++first;
  if (first < argc && argv[first][0] != '-') {
    const std::string word = argv[first];
    if (word == "launch") {
      bool no_fast_forward = false;
      for (int i = 1; i < first; ++i)
        no_fast_forward |= std::string(argv[i]) == "--no-fast-forward";
      for (int i = 1; i < first; ++i) {
        const std::string flag = argv[i];
        if (flag != "--no-blocks" && flag != "--no-shared-blocks")
          continue;
        fmt::print(stderr, "lanai-emu: {} does not apply to launch (see --help)\n", flag);
        return 1;
      }
      return lanai::vipl::launch_command(argc - first, argv + first, no_fast_forward);
    }
    if (!app.has_subcommand(word)) {
      fmt::print(stderr,
                 "lanai-emu: unknown subcommand '{}'; the subcommands are {} (see --help)\n", word,
                 fmt::join(app.subcommand_names(), ", "));
      return 1;
    }
  }
  try {
    if (const std::optional<int> status = app.parse(argc, argv, "lanai-emu"))
      return *status;
  } catch (const std::exception& e) {
    fmt::print(stderr, "lanai-emu: {}\n", e.what());
    return 1;
  }
  return exit_status;
}
