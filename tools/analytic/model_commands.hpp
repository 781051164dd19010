// `lanai-emu model ...`: the analytic models, answering without running the
// emulator. `model qna MODEL.toml [--rate X] [--json]`;
// `model pipeline --stage G,GPERKB [--stage ...] --bytes B [--max-k K] [--json]`.
#pragma once

#include <CLI/CLI.hpp>

namespace lanai::models {

void add_model_commands(CLI::App& app, int& exit_status);

} // namespace lanai::models
