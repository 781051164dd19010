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
  std::string program; // argv[0], as via_main sees it
  std::size_t nodes = 2;
  std::size_t switches = 1; // crossbar switches in a chain
  std::string profile_file; // empty: the built-in defaults
  // Per node: a shipped firmware's name, a firmware folder's path (with a
  // '/'), or "@A.o,B.o,..." for the user's own objects (linked with the
  // runtime).
  std::vector<std::string> firmware;
  std::uint64_t seed = 1;
  std::vector<std::string> arguments; // after --, for via_main
  std::string stats_file;             // non-empty: write the run's statistics (JSON) here
  std::optional<double> admission;    // --admission: overrides host.admission_fraction
  // Where each node's stdout and stderr go: "plain" (the launcher's own
  // streams, unmarked), "prefix" (lines marked "[node<i>] "); empty: the
  // launcher's default. A non-empty output_dir means per-node files.
  std::string output;
  std::string output_dir;
  std::size_t stack_kib = 0; // each program's stack; 0: the launcher's default
};

// How the command line describes itself: the name its messages start with
// (empty: argv[0]'s file name) and the text of --help (empty: the VIPL
// program launcher's).
struct LaunchText {
  std::string name;
  std::string description;
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

ParsedLaunch parse_launch_options(int argc, char** argv, const LaunchText& text = {});

// The name messages start with: argv[0] without its directories.
std::string program_name(const char* argv0);

} // namespace lanai::vipl
