// Placeholder until the calibrate subcommand lands.
#include "commands/bench_commands.hpp"
namespace lanai::bench {
void add_calibrate_command(CLI::App&, int&) {}
}
