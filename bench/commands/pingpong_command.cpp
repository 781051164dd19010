// Placeholder until the pingpong subcommand lands.
#include "commands/bench_commands.hpp"
namespace lanai::bench {
void add_pingpong_command(CLI::App&, int&) {}
}
