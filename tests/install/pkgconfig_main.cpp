// Downstream use of the installed package through pkg-config alone: compiled
// with the flags `pkg-config --cflags --libs lanai-emu` prints.
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"

#if __has_include("lanai/register_map.h")
#include "lanai/register_map.h"
#endif

#include <cstdio>

int main() {
  using namespace lanai::kernel;
  Kernel kernel;
  StatsRegistry stats;
  Counter& fired = stats.counter("consumer.events");
  bool late_ran_first = false;
  kernel.schedule_in(microseconds(2), [&] { fired.add(); });
  kernel.schedule_in(microseconds(1), [&] {
    late_ran_first = fired.value() != 0;
    fired.add();
  });
  kernel.run();
  if (late_ran_first || fired.value() != 2) {
    std::fprintf(stderr, "pkg-config consumer: events ran out of order\n");
    return 1;
  }
  std::puts("consumer: pkg-config build works");
  return 0;
}
