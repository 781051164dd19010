// Placeholder until the pingbulk subcommand lands.
#include "commands/bench_commands.hpp"
namespace lanai::bench {
void add_pingbulk_command(CLI::App&, int&) {}
}
