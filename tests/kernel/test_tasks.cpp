// Tests of the kernel's recurring tasks: a wake runs after every event of
// its time and before later ones, wakes of one time in task order, in every
// run loop; sleepers are brought up to each event; misuse is refused with
// an error that names the task; removal withdraws a pending wake; a pending
// wake reaches other tasks at its time plus its task's lookahead.
#include "emulator/kernel/event_queue.hpp"
#include "tests/kernel/logging_sleeper.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lanai::kernel;
using lanai::kernel::testing::LoggingSleeper;

TEST_CASE("a task wake runs after every event of its time") {
  Kernel k;
  std::vector<std::string> order;
  auto log = [&](std::string tag) { return [&order, tag] { order.push_back(tag); }; };
  const TaskId task = k.add_task(log("task"), "ticker");
  k.schedule_at(nanoseconds(10), log("e1"));
  k.wake_task(task, nanoseconds(10));
  // Scheduled after the wake, for its time, and from an event of that time:
  // all still before it.
  k.schedule_at(nanoseconds(10), [&] {
    order.push_back("e2");
    k.schedule_at(nanoseconds(10), log("e3"));
  });
  k.schedule_at(nanoseconds(5), log("e0"));
  k.schedule_at(nanoseconds(11), log("e4"));
  CHECK(k.pending() == 5);
  CHECK(k.task_pending(task));
  CHECK(k.next_event_time() == nanoseconds(5));
  k.run();
  CHECK(order == std::vector<std::string>{"e0", "e1", "e2", "e3", "task", "e4"});
  CHECK(k.events_executed() == 6);
  CHECK(k.scheduled_events_executed() == 5);
  CHECK_FALSE(k.task_pending(task));
  CHECK(k.pending() == 0);
}

TEST_CASE("what an access starts at its own time runs after every wake of that time") {
  Kernel k;
  std::vector<std::string> order;
  auto log = [&](std::string tag) { return [&order, tag] { order.push_back(tag); }; };
  const TaskId first = k.add_task(
      [&] {
        order.push_back("first");
        k.schedule_from_access(k.now(), SimTime::zero(), [&] {
          order.push_back("started by first");
          // An event's own events keep the usual order.
          k.schedule_at(k.now(), log("after it"));
        });
        // With a delay, the usual order: before the wakes of its time.
        k.schedule_from_access(k.now(), nanoseconds(1), log("a nanosecond later"));
      },
      "first");
  TaskId second;
  second = k.add_task(
      [&] {
        order.push_back("second");
        if (k.now() == nanoseconds(10))
          k.wake_task(second, nanoseconds(11)); // before e1, which comes after tasks
      },
      "second");
  k.schedule_at(nanoseconds(10), log("e0"));
  k.wake_task(second, nanoseconds(10));
  k.wake_task(first, nanoseconds(10));
  k.schedule_after_tasks(nanoseconds(11), log("e1 after tasks"));
  k.run();
  CHECK(order == std::vector<std::string>{"e0", "first", "second", "started by first", "after it",
                                          "a nanosecond later", "second", "e1 after tasks"});
}

TEST_CASE("wakes of one time run in the order the tasks were added, whenever woken") {
  Kernel k;
  std::vector<int> order;
  const TaskId first = k.add_task([&] { order.push_back(1); }, "first");
  const TaskId second = k.add_task([&] { order.push_back(2); }, "second");
  const TaskId third = k.add_task([&] { order.push_back(3); }, "third");
  k.wake_task(third, nanoseconds(4));
  k.wake_task(second, nanoseconds(4));
  k.wake_task(first, nanoseconds(4));
  SimTime time;
  TaskId next;
  REQUIRE(k.next_wake(time, next));
  CHECK(time == nanoseconds(4));
  CHECK(next.value == first.value);
  CHECK(k.next_scheduled_time() == SimTime::max());
  k.run();
  CHECK(order == std::vector<int>{1, 2, 3});
  CHECK_FALSE(k.next_wake(time, next));
}

TEST_CASE("a sleeper is brought up to each event's time before it, and wakes when told") {
  Kernel k;
  int runs = 0;
  const TaskId task = k.add_task([&] { ++runs; }, "core");
  LoggingSleeper sleeper(k, task, 2);
  k.add_sleeper(sleeper);
  for (int t : {3, 7, 9})
    k.schedule_at(nanoseconds(t), [] {});
  k.run();
  // Up to the second event it sleeps on; the third finds it awake.
  CHECK(sleeper.advanced == std::vector<std::int64_t>{3, 7});
  CHECK(sleeper.checks == 2);
  CHECK(sleeper.woken_at == nanoseconds(7));
  CHECK(runs == 1);
}

TEST_CASE("events that reach no processor leave a sleeper where it is") {
  // A switch's events: the sleeper is neither brought up to their time nor
  // asked after them; the next event that may reach it brings it up to
  // its own time in one go.
  Kernel k;
  const TaskId task = k.add_task([] {}, "core");
  LoggingSleeper sleeper(k, task, 3);
  k.add_sleeper(sleeper);
  std::vector<int> ran;
  k.schedule_at(nanoseconds(3), [&] { ran.push_back(3); });
  k.schedule_at(
      nanoseconds(5), [&] { ran.push_back(5); }, "wire", EventReach::not_processors);
  k.schedule_in(
      nanoseconds(6), [&] { ran.push_back(6); }, "wire", EventReach::not_processors);
  k.schedule_at(nanoseconds(9), [&] { ran.push_back(9); });
  k.schedule_at(nanoseconds(12), [&] { ran.push_back(12); });
  k.run();
  CHECK(ran == std::vector<int>{3, 5, 6, 9, 12});
  CHECK(sleeper.advanced == std::vector<std::int64_t>{3, 9, 12});
  CHECK(sleeper.checks == 3);
  CHECK(sleeper.woken_at == nanoseconds(12));
}

TEST_CASE("one processor's events reach its own sleeper and those without a reach of their own") {
  // Two cards' cores, each with its own reach, and a core with none (which
  // every event that may reach a processor reaches).
  Kernel k;
  LoggingSleeper a(k, k.add_task([] {}, "a"), 100), b(k, k.add_task([] {}, "b"), 100),
      any(k, k.add_task([] {}, "any"), 100);
  const EventReach reach_a = k.new_processor_reach(), reach_b = k.new_processor_reach();
  CHECK(reach_a != reach_b);
  CHECK(reach_a != EventReach::anything);
  CHECK(reach_a != EventReach::not_processors);
  k.add_sleeper(a, reach_a);
  k.add_sleeper(b, reach_b);
  k.add_sleeper(any);
  k.schedule_at(
      nanoseconds(2), [] {}, "a's device", reach_a);
  k.schedule_at(
      nanoseconds(4), [] {}, "b's device", reach_b);
  k.schedule_at(
      nanoseconds(5), [] {}, "switch", EventReach::not_processors);
  k.schedule_from_access(
      nanoseconds(6), SimTime::zero(), [] {}, "a's access", reach_a);
  k.schedule_at(
      nanoseconds(8), [] {}, "host");
  k.schedule_at(
      nanoseconds(9), [] {}, "b's device", reach_b);
  k.run_until(nanoseconds(10));
  CHECK(a.advanced == std::vector<std::int64_t>{2, 6, 8});
  CHECK(a.checks == 3);
  CHECK(b.advanced == std::vector<std::int64_t>{4, 8, 9});
  CHECK(b.checks == 3);
  CHECK(any.advanced == std::vector<std::int64_t>{2, 4, 6, 8, 9});
  CHECK(any.checks == 5);
}

TEST_CASE("an event scheduled by a late event of its time brings sleepers up through that time") {
  // A card's register access at 10 ns starts something after every
  // processor's instruction of 10 ns (a late event) that at once hands
  // another card an event of the same time: that card's processor has run
  // its instruction of 10 ns by then, though the late event did not reach
  // it.
  Kernel k;
  LoggingSleeper a(k, k.add_task([] {}, "a"), 100), b(k, k.add_task([] {}, "b"), 100);
  const EventReach reach_a = k.new_processor_reach(), reach_b = k.new_processor_reach();
  k.add_sleeper(a, reach_a);
  k.add_sleeper(b, reach_b);
  k.schedule_at(
      nanoseconds(4), [] {}, "a's device", reach_a);
  k.schedule_from_access(
      nanoseconds(10), SimTime::zero(),
      [&] {
        k.schedule_at(
            nanoseconds(10), [] {}, "a's port", reach_a);
      },
      "b's access", reach_b);
  k.schedule_at(
      nanoseconds(12), [] {}, "a's device", reach_a);
  k.run_until(nanoseconds(12));
  CHECK(b.advanced == std::vector<std::int64_t>{10});
  CHECK(b.through == std::vector<bool>{true});
  CHECK(a.advanced == std::vector<std::int64_t>{4, 10, 12});
  CHECK(a.through == std::vector<bool>{false, true, false});
}

TEST_CASE("sleepers are woken once nothing else is pending") {
  Kernel k;
  int runs = 0;
  const TaskId task = k.add_task([&] { ++runs; }, "core");
  LoggingSleeper sleeper(k, task, 100);
  k.add_sleeper(sleeper);
  k.schedule_at(nanoseconds(2), [] {});
  k.run();
  CHECK(sleeper.advanced == std::vector<std::int64_t>{2});
  CHECK(sleeper.woken_at == nanoseconds(2));
  CHECK(runs == 1);
  // Removed, a sleeper is asked nothing more.
  LoggingSleeper gone(k, task, 100);
  k.add_sleeper(gone);
  k.remove_sleeper(gone);
  k.schedule_at(nanoseconds(5), [] {});
  k.run();
  CHECK(gone.advanced.empty());
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

TEST_CASE("a pending wake reaches another task's private work at its time plus its lookahead") {
  Kernel k;
  const TaskId a = k.add_task([] {}, "a");
  const TaskId b = k.add_task([] {}, "b");
  const TaskId c = k.add_task([] {}, "c");
  CHECK(k.wake_reach(a) == SimTime::max());
  k.set_task_lookahead(b, nanoseconds(650));
  k.wake_task(b, nanoseconds(100));
  // Through an event, which comes before any task's work of its time.
  CHECK(k.wake_reach(a) == nanoseconds(750));
  CHECK(k.wake_reach(c) == nanoseconds(750));
  // A task without a lookahead reaches at its wake, after the work of that
  // time of the tasks added before it.
  k.wake_task(c, nanoseconds(400));
  CHECK(k.wake_reach(a) == nanoseconds(400) + picoseconds(1));
  CHECK(k.wake_reach(b) == nanoseconds(400) + picoseconds(1));
  // The lookahead a wake carries is the one its task had when woken.
  k.set_task_lookahead(b, SimTime::zero());
  CHECK(k.wake_reach(c) == nanoseconds(750));
  k.run();
  CHECK(k.wake_reach(a) == SimTime::max());
}
