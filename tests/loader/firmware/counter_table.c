// Two registered firmware counters (lanai/firmware_counters.h): the loader
// keeps their table entries together between __start_lanai_counters and
// __stop_lanai_counters.
#include <lanai/firmware_counters.h>

LANAI_COUNTER(probe_first);
LANAI_COUNTER(probe_second);

void _start(void) { probe_first = probe_first + 1; }
