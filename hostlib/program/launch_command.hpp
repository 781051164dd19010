// lanai-emu launch [OPTIONS] -- PROGRAM [ARGS...]: runs an ordinary VIA
// program (one with main) on every node of an emulated cluster, one private
// copy of the program per node.
#pragma once

namespace lanai::vipl {

// `argv[0]` is the subcommand's name; `no_fast_forward`: the top-level flag
// was given before it. Returns the process's exit status.
int launch_command(int argc, char** argv, bool no_fast_forward);

// What --help and the subcommand list say about it.
extern const char* const kLaunchSummary;

} // namespace lanai::vipl
