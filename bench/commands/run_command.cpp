// Placeholder until the run subcommand lands.
#include "commands/bench_commands.hpp"
namespace lanai::bench {
void add_run_command(CLI::App&, int&) {}
}
