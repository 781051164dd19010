// Tests of the kernel's recurring tasks: a wake runs exactly where an event
// scheduled at the same moment would, in every run loop; misuse is refused
// with an error that names the task; removal withdraws a pending wake.
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/random_stream.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lanai::kernel;

TEST_CASE("a task wake is ordered among events as an event scheduled then would be") {
  Kernel k;
  std::vector<std::string> order;
  auto log = [&](std::string tag) { return [&order, tag] { order.push_back(tag); }; };
  const TaskId task = k.add_task(log("task"), "ticker");
  k.schedule_at(nanoseconds(10), log("e1"));
  k.wake_task(task, nanoseconds(10));
  k.schedule_at(nanoseconds(10), log("e2"));
  k.schedule_at(nanoseconds(5), log("e0"));
  CHECK(k.pending() == 4);
  CHECK(k.task_pending(task));
  CHECK(k.next_event_time() == nanoseconds(5));
  k.run();
  CHECK(order == std::vector<std::string>{"e0", "e1", "task", "e2"});
  CHECK(k.events_executed() == 4);
  CHECK_FALSE(k.task_pending(task));
  CHECK(k.pending() == 0);
}

TEST_CASE("a task rewoken from its own callback interleaves with events exactly as events do") {
  // The same schedule twice: once with a self-rescheduling event, once
  // with a task; the orders must match entry for entry.
  auto trace = [](bool use_task) {
    Kernel k;
    RandomStream rng(7, "tasks");
    std::vector<std::uint64_t> order;
    int runs = 0;
    TaskId task;
    std::function<void()> tick = [&] {
      order.push_back(1000 + k.now().ps());
      if (++runs == 200)
        return;
      const SimTime next = k.now() + nanoseconds(rng.uniform_u32(0, 3));
      if (use_task)
        k.wake_task(task, next);
      else
        k.schedule_at(next, tick);
    };
    if (use_task)
      task = k.add_task(tick, "tick");
    for (std::uint64_t i = 0; i < 300; ++i) {
      const SimTime at = nanoseconds(static_cast<std::int64_t>(i % 97));
      k.schedule_at(at, [&order, i] { order.push_back(i); });
    }
    if (use_task)
      k.wake_task(task, SimTime::zero());
    else
      k.schedule_at(SimTime::zero(), tick);
    k.run();
    return order;
  };
  CHECK(trace(true) == trace(false));
}

TEST_CASE("run_until, step and stop treat task wakes as events") {
  Kernel k;
  int runs = 0;
  TaskId task = k.add_task([&] { ++runs; }, "once");
  k.wake_task(task, nanoseconds(20));
  k.run_until(nanoseconds(19));
  CHECK(runs == 0);
  CHECK(k.now() == nanoseconds(19));
  k.run_until(nanoseconds(20));
  CHECK(runs == 1);
  k.wake_task(task, nanoseconds(30));
  CHECK(k.step());
  CHECK(runs == 2);
  CHECK(k.now() == nanoseconds(30));
  CHECK_FALSE(k.step());

  const TaskId stopper = k.add_task([&] { k.stop(); }, "stopper");
  k.wake_task(stopper, nanoseconds(40));
  k.schedule_at(nanoseconds(50), [&] { ++runs; });
  k.run();
  CHECK(k.now() == nanoseconds(40));
  CHECK(runs == 2);
  k.run();
  CHECK(runs == 3);
}

TEST_CASE("removing a task withdraws its wake and it never runs again") {
  Kernel k;
  int runs = 0;
  const TaskId task = k.add_task([&] { ++runs; }, "gone");
  k.wake_task(task, nanoseconds(5));
  CHECK(k.pending() == 1);
  k.remove_task(task);
  CHECK(k.pending() == 0);
  CHECK_FALSE(k.task_pending(task));
  CHECK(k.next_event_time() == SimTime::max());
  k.run();
  CHECK(runs == 0);
  CHECK_THROWS_AS(k.wake_task(task, nanoseconds(6)), std::logic_error);
  k.remove_task(task); // a second removal is harmless
}

TEST_CASE("task misuse is refused with an error naming the task") {
  Kernel k;
  CHECK_THROWS_AS(k.add_task({}, "empty"), std::invalid_argument);
  CHECK_THROWS_AS(k.wake_task(TaskId{}, nanoseconds(1)), std::logic_error);
  CHECK_THROWS_AS(k.wake_task(TaskId{42}, nanoseconds(1)), std::logic_error);
  const TaskId task = k.add_task([] {}, "slices");
  k.wake_task(task, nanoseconds(10));
  try {
    k.wake_task(task, nanoseconds(11));
    FAIL("a second pending wake was accepted");
  } catch (const std::logic_error& e) {
    CHECK(std::string(e.what()).find("'slices'") != std::string::npos);
    CHECK(std::string(e.what()).find("already pending") != std::string::npos);
  }
  k.run();
  try {
    k.wake_task(task, nanoseconds(9));
    FAIL("a wake in the past was accepted");
  } catch (const std::logic_error& e) {
    CHECK(std::string(e.what()).find("in the past") != std::string::npos);
  }
  CHECK(k.pending() == 0);
}

TEST_CASE("a running task's label is the current label") {
  Kernel k;
  std::string seen;
  const TaskId task = k.add_task([&] { seen = std::string(k.current_label()); }, "lanai.slice");
  // Tasks added while one runs leave the running task's label in place.
  k.add_task([] {}, "another");
  k.wake_task(task, SimTime::zero());
  k.run();
  CHECK(seen == "lanai.slice");
  CHECK(k.current_label().empty());
}
