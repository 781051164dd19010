// The launcher behind every VIPL program's main(): builds the emulated
// cluster the options describe, runs the program's via_main on every node
// and turns the outcome into the process's exit status.
#pragma once

#include <vector>

#include "hostlib/launch/launch_options.hpp"

namespace lanai::vipl {

using ProgramEntry = int (*)(int argc, char** argv);
using MainEntry = int (*)(int argc, char** argv, char** envp);

// One node's program, loaded for that node alone: its main(), or failing
// that its via_main().
struct NodeProgram {
  MainEntry main = nullptr;
  ProgramEntry via_main = nullptr;
};

// Exit status: 0 every node returned 0; 1 bad options, profile or
// firmware; 2 a node returned non-zero or failed; 3 deadlock; 4 a NIC's
// firmware stopped. The cards' console output goes to stderr, each line
// prefixed "[node<i> lanai] ".
int launch(int argc, char** argv, ProgramEntry entry);

// The same for a program loaded once per node (lanai-emu launch): node i
// runs programs[i], whose globals are its own. Each node's output is
// prefixed unless the options say otherwise, and each program gets an
// 8 MiB stack unless they say otherwise.
int launch_nodes(int argc, char** argv, const std::vector<NodeProgram>& programs,
                 const LaunchText& text);

} // namespace lanai::vipl
