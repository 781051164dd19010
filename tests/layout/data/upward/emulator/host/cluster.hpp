// Keeps to the floors: its own part's level and below, and the ABI.
#include "emulator/kernel/clock.hpp"
#include <lanai/register_map.h>
