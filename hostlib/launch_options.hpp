// The launcher's command line: how many nodes, which hardware profile and
// firmware, the seed, and the arguments every node's via_main receives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanai::vipl {

struct LaunchOptions {
  std::string program;                // argv[0], as via_main sees it
  std::size_t nodes = 2;
  std::size_t switches = 1;           // crossbar switches in a chain
  std::string profile_file;           // empty: the built-in defaults
  // Per node: a firmware name, or "@A.o,B.o,..." for the user's own
  // objects (linked with the runtime).
  std::vector<std::string> firmware;
  std::uint64_t seed = 1;
  std::vector<std::string> arguments; // after --, for via_main
  std::string stats_file;             // non-empty: write the run's statistics (JSON) here
  std::optional<double> admission;    // --admission: overrides host.admission_fraction
};

// The object files of a per-node firmware entry "@A.o,B.o" (empty for a
// firmware name).
std::vector<std::string> firmware_image_files(const std::string& entry);

// Either options to run with, or the exit status to return at once (help
// printed: 0; a usage error printed as one line "<prog>: ...": 1).
struct ParsedLaunch {
  std::optional<LaunchOptions> options;
  int exit_status = 0;
};

ParsedLaunch parse_launch_options(int argc, char** argv);

// The name messages start with: argv[0] without its directories.
std::string program_name(const char* argv0);

} // namespace lanai::vipl
