// Tests of events of reach EventReach::brought_up (a host program's): they
// leave every sleeper where it is unless their callback brings it up, which
// it does at the event's time and lateness, once; afterwards a sleeper
// brought up is asked whether it sleeps on, and one that was not must find
// nothing changed, or the run ends with its error.
#include "emulator/kernel/event_queue.hpp"
#include "tests/kernel/logging_sleeper.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace lanai::kernel;
using lanai::kernel::testing::LoggingSleeper;

TEST_CASE("a host program's event leaves sleepers where they are unless it brings them up") {
  Kernel k;
  LoggingSleeper a(k, k.add_task([] {}, "a"), 100), b(k, k.add_task([] {}, "b"), 100);
  k.add_sleeper(a, k.new_processor_reach());
  k.add_sleeper(b, k.new_processor_reach());
  std::vector<bool> inside;
  k.schedule_at(
      nanoseconds(3),
      [&] {
        inside.push_back(k.deferred_advance() != nullptr);
        k.bring_up(a);
        k.bring_up(a); // once is enough
      },
      "host", EventReach::brought_up);
  k.schedule_at(
      nanoseconds(5), [&] { inside.push_back(k.deferred_advance() != nullptr); }, "host",
      EventReach::brought_up);
  k.schedule_at(nanoseconds(7), [&] { inside.push_back(k.deferred_advance() != nullptr); });
  k.run_until(nanoseconds(8));
  CHECK(inside == std::vector<bool>{true, true, false});
  CHECK(a.advanced == std::vector<std::int64_t>{3, 7});
  CHECK(a.settled == std::vector<bool>{true, false});
  CHECK(a.checks == 2); // after 3 (brought up) and after 7 (reached)
  CHECK(b.advanced == std::vector<std::int64_t>{7});
  CHECK(b.settled == std::vector<bool>{false, false});
  CHECK(b.checks == 1);
  // Outside an event, bringing up does nothing.
  k.bring_up(a);
  CHECK(a.advanced.size() == 2);
}

TEST_CASE("a sleeper brought up by a host program's event comes up at its time and lateness") {
  Kernel k;
  LoggingSleeper s(k, k.add_task([] {}, "core"), 100);
  k.add_sleeper(s, k.new_processor_reach());
  // A late event of 10 ns (what an access starts) schedules a host
  // program's event of the same time: it comes after every processor's
  // instruction of 10 ns too.
  k.schedule_from_access(
      nanoseconds(10), SimTime::zero(),
      [&] {
        k.schedule_at(
            nanoseconds(10), [&] { k.bring_up(s); }, "host", EventReach::brought_up);
      },
      "access", EventReach::not_processors);
  k.schedule_at(
      nanoseconds(12), [&] { k.bring_up(s); }, "host", EventReach::brought_up);
  k.run_until(nanoseconds(12));
  CHECK(s.advanced == std::vector<std::int64_t>{10, 12});
  CHECK(s.through == std::vector<bool>{true, false});
}

TEST_CASE("a sleeper woken after a host program's event leaves the list") {
  Kernel k;
  int runs = 0;
  LoggingSleeper s(k, k.add_task([&] { ++runs; }, "core"), 1);
  k.add_sleeper(s);
  k.schedule_at(
      nanoseconds(2), [] {}, "host", EventReach::brought_up);
  k.schedule_at(
      nanoseconds(4), [&] { k.bring_up(s); }, "host", EventReach::brought_up);
  k.schedule_at(
      nanoseconds(6), [] {}, "host", EventReach::brought_up);
  k.run();
  CHECK(s.settled == std::vector<bool>{false, true}); // not asked after 6 ns
  CHECK(s.woken_at == nanoseconds(4));
  CHECK(runs == 1);
}

TEST_CASE("a change a host program's event made without bringing a sleeper up ends the run") {
  Kernel k;
  LoggingSleeper a(k, k.add_task([] {}, "a"), 100), b(k, k.add_task([] {}, "b"), 100);
  k.add_sleeper(a);
  k.add_sleeper(b);
  k.schedule_at(
      nanoseconds(2), [&] { b.changed = true; }, "host", EventReach::brought_up);
  CHECK_THROWS_WITH_AS(k.run(), "changed without being brought up", std::logic_error);
  CHECK(a.settled == std::vector<bool>{false});
  CHECK(b.settled == std::vector<bool>{false});
  CHECK(k.deferred_advance() == nullptr);
}

TEST_CASE("a host program's event with no sleepers runs as any other") {
  Kernel k;
  bool ran = false;
  k.schedule_at(
      nanoseconds(2), [&] { ran = k.deferred_advance() == nullptr; }, "host",
      EventReach::brought_up);
  k.run();
  CHECK(ran);
}

TEST_CASE("a sleeper changed before a host program's event brings it up refuses to come up") {
  Kernel k;
  LoggingSleeper s(k, k.add_task([] {}, "core"), 100);
  k.add_sleeper(s);
  k.schedule_at(
      nanoseconds(2),
      [&] {
        s.changed = true;
        k.bring_up(s);
      },
      "host", EventReach::brought_up);
  CHECK_THROWS_WITH_AS(k.run(), "changed before being brought up", std::logic_error);
  CHECK(s.advanced.empty());
}

TEST_CASE("after an error in a host program's event, the sleepers it brought up wake") {
  // What the event changed for them is not known; waking is always exact.
  Kernel k;
  int runs = 0;
  LoggingSleeper up(k, k.add_task([&] { ++runs; }, "up"), 100),
      down(k, k.add_task([] {}, "down"), 100);
  k.add_sleeper(up);
  k.add_sleeper(down);
  k.schedule_at(
      nanoseconds(2),
      [&] {
        k.bring_up(up);
        throw std::runtime_error("the program failed");
      },
      "host", EventReach::brought_up);
  CHECK_THROWS_WITH_AS(k.run(), "the program failed", std::runtime_error);
  CHECK(up.woken_at == nanoseconds(2));
  CHECK(down.woken_at == SimTime::max());
  CHECK(k.deferred_advance() == nullptr);
  // The kernel goes on: the woken one runs, the other sleeps on.
  k.schedule_at(nanoseconds(3), [] {});
  k.run();
  CHECK(runs == 1);
  CHECK(down.advanced == std::vector<std::int64_t>{3});
}
