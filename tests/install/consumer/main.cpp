// Downstream use of the installed kernel library: schedules two events out of
// time order and checks that the kernel runs them in time order.
#include "emulator/kernel/event_queue.hpp"

#include <cstdio>
#include <vector>

int main() {
  using namespace lanai::kernel;
  Kernel kernel;
  std::vector<int> order;
  kernel.schedule_at(
      nanoseconds(20), [&] { order.push_back(2); }, "second");
  kernel.schedule_at(
      nanoseconds(10), [&] { order.push_back(1); }, "first");
  kernel.run();
  if (order != std::vector<int>{1, 2} || kernel.now() != nanoseconds(20)) {
    std::fprintf(stderr, "consumer: events ran out of order\n");
    return 1;
  }
  std::puts("consumer: find_package(LanaiEmu) build works");
  return 0;
}
