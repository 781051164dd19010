// The lanai-emu subcommands. Each registers its options on the program's command
// line (command_line.hpp) and returns its action's exit status through `exit_status`.
#pragma once

#include "emulator/cli/command_line.hpp"

namespace lanai::cli {

void add_exec_command(Command& app, int& exit_status);
void add_disasm_command(Command& app, int& exit_status);
void add_config_command(Command& app, int& exit_status);
void add_firmware_command(Command& app, int& exit_status);

} // namespace lanai::cli
