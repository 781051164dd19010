// A sleeper for the kernel's tests: it records what the kernel asks of it
// and wakes its task once `wake_after` events have run. Set `changed` to
// stand for something that changed what it depends on: being brought up,
// or settling without having been, then throws, as a card's core does.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "emulator/kernel/event_queue.hpp"

namespace lanai::kernel::testing {

struct LoggingSleeper final : Kernel::Sleeper {
  Kernel& kernel;
  TaskId task;
  int wake_after;
  std::vector<std::int64_t> advanced; // ns
  std::vector<bool> through;          // brought up through that time (late)
  int checks = 0;
  std::vector<bool> settled; // whether brought up, per settle
  bool changed = false;
  SimTime woken_at = SimTime::max();

  LoggingSleeper(Kernel& k, TaskId t, int after) : kernel(k), task(t), wake_after(after) {}
  void advance_to(SimTime time, bool late) override {
    advanced.push_back(time.ps() / 1000);
    through.push_back(late);
  }
  bool sleeps_on() override {
    if (++checks < wake_after)
      return true;
    wake(kernel.now());
    return false;
  }
  bool would_sleep_on() override { return checks + 1 < wake_after; }
  void wake(SimTime now) override {
    woken_at = now;
    kernel.wake_task(task, now);
  }
  void bring_up_to(SimTime time, bool late) override {
    if (changed)
      throw std::logic_error("changed before being brought up");
    advance_to(time, late);
  }
  bool settle(bool brought_up) override {
    settled.push_back(brought_up);
    if (brought_up)
      return sleeps_on();
    if (changed)
      throw std::logic_error("changed without being brought up");
    return true;
  }
};

} // namespace lanai::kernel::testing
