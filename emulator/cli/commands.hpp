// The lanai-emu subcommands. Each registers its options on the CLI11 app
// and returns the callback's exit status through `exit_status`.
#pragma once

#include <CLI/CLI.hpp>

namespace lanai::cli {

void add_exec_command(CLI::App& app, int& exit_status);
void add_disasm_command(CLI::App& app, int& exit_status);
void add_config_command(CLI::App& app, int& exit_status);
void add_firmware_command(CLI::App& app, int& exit_status);

} // namespace lanai::cli
