// The launcher behind every VIPL program's main(): builds the emulated
// cluster the options describe, runs the program's via_main on every node
// and turns the outcome into the process's exit status.
#pragma once

namespace lanai::vipl {

using ProgramEntry = int (*)(int argc, char** argv);

// Exit status: 0 every node returned 0; 1 bad options, profile or
// firmware; 2 a node returned non-zero or failed; 3 deadlock; 4 a NIC's
// firmware stopped. The cards' console output goes to stderr, each line
// prefixed "[node<i> lanai] ".
int launch(int argc, char** argv, ProgramEntry entry);

} // namespace lanai::vipl
