// The bench's subcommands of lanai-emu. Each registers its options on the
// program's command line and returns its exit status through `exit_status`.
#pragma once

#include "emulator/cli/command_line.hpp"

namespace lanai::bench {

void add_pingpong_command(cli::Command& app, int& exit_status);
void add_pingbulk_command(cli::Command& app, int& exit_status);
void add_run_command(cli::Command& app, int& exit_status);
void add_calibrate_command(cli::Command& app, int& exit_status);
void add_frag_command(cli::Command& app, int& exit_status);

inline void add_bench_commands(cli::Command& app, int& exit_status) {
  add_pingpong_command(app, exit_status);
  add_pingbulk_command(app, exit_status);
  add_run_command(app, exit_status);
  add_calibrate_command(app, exit_status);
  add_frag_command(app, exit_status);
}

} // namespace lanai::bench
