#include "commands/bench_commands.hpp"
