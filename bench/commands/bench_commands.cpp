#include "bench/commands/bench_commands.hpp"
