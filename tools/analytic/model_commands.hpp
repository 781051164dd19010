// `lanai-emu model ...`: the analytic models, answering without running the
// emulator. `model qna MODEL.toml [--rate X] [--json]`;
// `model pipeline --stage G,GPERKB [--stage ...] --bytes B [--max-k K] [--json]`.
#pragma once

#include "emulator/cli/command_line.hpp"

namespace lanai::models {

void add_model_commands(cli::Command& app, int& exit_status);

} // namespace lanai::models
