// The files a jitter sweep leaves in its output directory: results.csv (one
// row per firmware, load point and class), summary.json (everything, per
// point) and experiment.toml with profile.toml (the resolved configuration,
// runnable again). No wall-clock time goes into any of them, and points are
// written in index order, so the files are identical from run to run.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "bench/sweep/jitter_results.hpp"

namespace lanai::bench {

// The lines every kind's summary.json begins with: the experiment's name,
// its kind and the version of lanai-emu that ran it.
std::string summary_json_head(const Experiment& experiment, std::string_view kind);

std::string results_csv(const JitterSweep& sweep);
std::string summary_json(const JitterSweep& sweep);
// The experiment as run, with `profile = "profile.toml"`.
std::string resolved_experiment(const Experiment& experiment);

// Writes the three files and profile.toml into `dir` (which must exist).
// Throws std::runtime_error naming a file that cannot be written.
void write_result_files(const std::filesystem::path& dir, const JitterSweep& sweep);

void write_text_file(const std::filesystem::path& file, const std::string& text);

} // namespace lanai::bench
