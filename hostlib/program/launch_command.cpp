// The command splits its line at "--", checks the options with the same
// parser the VIPL will use, loads one copy of the program per node and
// hands the copies to the VIPL they are linked with, which runs them.
#include "hostlib/program/launch_command.hpp"

#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hostlib/launch/launch_options.hpp"
#include "hostlib/program/program_copies.hpp"

namespace lanai::vipl {

const char* const kLaunchSummary =
    "Run an ordinary VIA program (its main) on every node of an emulated cluster: "
    "lanai-emu launch [OPTIONS] -- PROGRAM [ARGS...]";

namespace {

constexpr const char* kName = "lanai-emu launch";

const char* const kDescription =
    "lanai-emu launch [OPTIONS] -- PROGRAM [ARGS...]\n"
    "Runs PROGRAM, an ordinary VIA program with main() built with\n"
    "  cc app.c -o app $(pkg-config --cflags --libs lanai-emu-vipl),\n"
    "on every node of an emulated Myrinet cluster in deterministic virtual time. Each node\n"
    "loads its own copy of the program, so globals and statics are its own; gethostname()\n"
    "says node<i>; gettimeofday, clock_gettime, time, sleep, usleep and nanosleep run on\n"
    "virtual time; exit() ends that node's program. Each node's stdout and stderr are\n"
    "prefixed [node<i>] (or written to --output-dir).\n"
    "Exit status: 0 all nodes returned 0, 1 bad options or program, 2 a node returned "
    "non-zero, 3 deadlock, 4 NIC firmware stopped.";

int usage_error(const std::string& what) {
  fmt::print(stderr, "{}: {} (see --help)\n", kName, what);
  return 1;
}

} // namespace

int launch_command(int argc, char** argv, bool no_fast_forward) {
  std::vector<std::string> options;
  if (no_fast_forward)
    options.emplace_back("--no-fast-forward");
  int split = 1;
  for (; split < argc && std::strcmp(argv[split], "--") != 0; ++split)
    options.emplace_back(argv[split]);
  const bool has_program = split + 1 < argc;

  // argv as the VIPL's launcher reads it: the program first, then the
  // options, then "--" and the program's arguments.
  std::vector<std::string> words{has_program ? argv[split + 1] : kName};
  words.insert(words.end(), options.begin(), options.end());
  words.emplace_back("--");
  for (int i = split + 2; i < argc; ++i)
    words.emplace_back(argv[i]);
  std::vector<char*> pointers;
  for (std::string& word : words)
    pointers.push_back(word.data());
  pointers.push_back(nullptr);
  const int count = static_cast<int>(words.size());

  const LaunchText text{kName, kDescription};
  const ParsedLaunch parsed = parse_launch_options(count, pointers.data(), text);
  if (!parsed.options)
    return parsed.exit_status; // --help, or a usage error
  if (!has_program)
    return usage_error("expected -- PROGRAM [ARGS...] after the options");

  try {
    const ProgramCopies copies(argv[split + 1], parsed.options->nodes);
    return copies.launcher()(LANAI_VIPL_LAUNCH_ABI, count, pointers.data(),
                             copies.programs().data(), copies.programs().size(), kName,
                             kDescription);
  } catch (const ProgramError& e) {
    fmt::print(stderr, "{}: {}\n", kName, e.what());
    return 1;
  }
}

} // namespace lanai::vipl
