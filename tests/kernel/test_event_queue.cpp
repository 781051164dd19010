// Tests of the event scheduler: (time, insertion) ordering, cancellation,
// the run_until boundary, stop(), and rejection of scheduling in the past.
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/random_stream.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace lanai::kernel;

TEST_CASE("events run in time order and equal times run in insertion order") {
  Kernel k;
  std::vector<std::string> order;
  auto log = [&](std::string tag) { return [&order, tag] { order.push_back(tag); }; };
  k.schedule_at(nanoseconds(30), log("c"));
  k.schedule_at(nanoseconds(10), log("a1"));
  k.schedule_at(nanoseconds(20), log("b"));
  k.schedule_at(nanoseconds(10), log("a2"));
  k.schedule_at(nanoseconds(10), log("a3"));
  CHECK(k.pending() == 5);
  k.run();
  CHECK(order == std::vector<std::string>{"a1", "a2", "a3", "b", "c"});
  CHECK(k.now() == nanoseconds(30));
  CHECK(k.pending() == 0);
  CHECK(k.events_executed() == 5);
}

TEST_CASE("an event scheduled for now from a callback runs after those already queued") {
  Kernel k;
  std::vector<int> order;
  k.schedule_at(nanoseconds(5), [&] {
    order.push_back(1);
    CHECK(k.now() == nanoseconds(5));
    k.schedule_in(SimTime::zero(), [&] { order.push_back(3); });
  });
  k.schedule_at(nanoseconds(5), [&] { order.push_back(2); });
  k.schedule_at(nanoseconds(6), [&] { order.push_back(4); });
  k.run();
  CHECK(order == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("random schedules execute in (time, sequence) order") {
  Kernel k;
  RandomStream rng(7, "kernel.order");
  struct Seen {
    SimTime time;
    int index;
  };
  std::vector<Seen> seen;
  std::vector<EventId> ids;
  for (int i = 0; i < 20'000; ++i) {
    const SimTime t = picoseconds(rng.uniform_u32(0, 500));
    ids.push_back(k.schedule_at(t, [&seen, &k, i] { seen.push_back({k.now(), i}); }));
  }
  std::size_t cancelled = 0;
  for (std::size_t i = 0; i < ids.size(); i += 7)
    if (k.cancel(ids[i]))
      ++cancelled;
  CHECK(cancelled == (20'000 + 6) / 7);
  k.run();
  REQUIRE(seen.size() == 20'000 - cancelled);
  CHECK(k.events_executed() == seen.size());
  for (std::size_t i = 1; i < seen.size(); ++i) {
    const bool ordered = seen[i - 1].time < seen[i].time ||
                         (seen[i - 1].time == seen[i].time && seen[i - 1].index < seen[i].index);
    REQUIRE(ordered);
  }
  for (const Seen& s : seen)
    CHECK(s.index % 7 != 0);
}

TEST_CASE("cancel withdraws pending events only") {
  Kernel k;
  std::vector<int> ran;
  const EventId a = k.schedule_at(nanoseconds(1), [&] { ran.push_back(1); });
  const EventId b = k.schedule_at(nanoseconds(2), [&] { ran.push_back(2); });
  const EventId c = k.schedule_at(nanoseconds(3), [&] { ran.push_back(3); });
  CHECK(a.valid());
  CHECK(a != b);
  CHECK(k.is_pending(b));
  CHECK(k.cancel(b));
  CHECK_FALSE(k.is_pending(b));
  CHECK_FALSE(k.cancel(b));
  CHECK_FALSE(k.cancel(EventId{}));
  CHECK(k.pending() == 2);
  CHECK(k.step());
  CHECK_FALSE(k.cancel(a)); // already ran
  k.run();
  CHECK(ran == std::vector<int>{1, 3});
  CHECK(k.events_executed() == 2);
  CHECK_FALSE(k.cancel(c));
  CHECK_FALSE(k.step());
}

TEST_CASE("an id whose slot went to a later event names nothing") {
  Kernel k;
  bool later_ran = false;
  const EventId first = k.schedule_at(nanoseconds(1), [] {});
  REQUIRE(k.cancel(first));
  const EventId later = k.schedule_at(nanoseconds(2), [&] { later_ran = true; });
  CHECK(later.slot == first.slot); // the freed slot is taken again
  CHECK(later != first);
  CHECK_FALSE(k.is_pending(first));
  CHECK_FALSE(k.cancel(first)); // does not withdraw the later event
  CHECK(k.is_pending(later));
  // An id a kernel never handed out: a slot it does not have.
  CHECK_FALSE(k.cancel(EventId{later.sequence, later.slot + 1}));
  k.run();
  CHECK(later_ran);
}

TEST_CASE("a callback can cancel a later event at the same time") {
  Kernel k;
  bool victim_ran = false;
  EventId victim;
  k.schedule_at(nanoseconds(4), [&] { CHECK(k.cancel(victim)); });
  victim = k.schedule_at(nanoseconds(4), [&] { victim_ran = true; });
  k.run();
  CHECK_FALSE(victim_ran);
  CHECK(k.events_executed() == 1);
}

TEST_CASE("run_until includes events at the limit and leaves now() at the limit") {
  Kernel k;
  std::vector<std::int64_t> times;
  for (const std::int64_t t : {10, 20, 30})
    k.schedule_at(nanoseconds(t), [&] { times.push_back(k.now().ps()); });

  k.run_until(nanoseconds(20));
  CHECK(times == std::vector<std::int64_t>{10'000, 20'000});
  CHECK(k.now() == nanoseconds(20));
  CHECK(k.pending() == 1);
  CHECK(k.next_event_time() == nanoseconds(30));

  k.run_until(nanoseconds(25)); // nothing due: time still advances
  CHECK(k.now() == nanoseconds(25));
  CHECK(times.size() == 2);

  k.run_until(nanoseconds(100)); // queue drains early: time goes to the limit
  CHECK(times.size() == 3);
  CHECK(k.now() == nanoseconds(100));
  CHECK(k.next_event_time() == SimTime::max());

  CHECK_THROWS_AS(k.run_until(nanoseconds(99)), std::logic_error);
  k.run_until(nanoseconds(100)); // a zero-length run is allowed
  CHECK(k.now() == nanoseconds(100));
}

TEST_CASE("stop() ends the current run after the calling callback") {
  Kernel k;
  std::vector<int> ran;
  k.schedule_at(nanoseconds(1), [&] { ran.push_back(1); });
  k.schedule_at(nanoseconds(2), [&] {
    ran.push_back(2);
    k.stop();
  });
  k.schedule_at(nanoseconds(2), [&] { ran.push_back(3); });
  k.schedule_at(nanoseconds(9), [&] { ran.push_back(4); });

  k.run();
  CHECK(ran == std::vector<int>{1, 2});
  CHECK(k.now() == nanoseconds(2));
  CHECK(k.pending() == 2);

  k.run_until(nanoseconds(5));
  CHECK(ran == std::vector<int>{1, 2, 3});
  CHECK(k.now() == nanoseconds(5));

  k.stop(); // outside a run: must not cut the next run short
  k.run();
  CHECK(ran == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("stop() inside run_until leaves time at the stopping event") {
  Kernel k;
  k.schedule_at(nanoseconds(3), [&] { k.stop(); });
  k.schedule_at(nanoseconds(4), [] {});
  k.run_until(nanoseconds(10));
  CHECK(k.now() == nanoseconds(3));
  CHECK(k.pending() == 1);
}

TEST_CASE("scheduling in the past is an error") {
  Kernel k;
  k.schedule_at(nanoseconds(50), [] {});
  k.run();
  REQUIRE(k.now() == nanoseconds(50));
  CHECK_THROWS_WITH_AS(k.schedule_at(
                           nanoseconds(40), [] {}, "dma.done"),
                       doctest::Contains("in the past"), std::logic_error);
  CHECK_THROWS_WITH_AS(k.schedule_at(
                           nanoseconds(40), [] {}, "dma.done"),
                       doctest::Contains("dma.done"), std::logic_error);
  CHECK_THROWS_AS(k.schedule_in(picoseconds(-1), [] {}), std::logic_error);
  CHECK_THROWS_AS(k.schedule_at(nanoseconds(60), Callback{}), std::invalid_argument);
  CHECK(k.pending() == 0);
  // Exactly now is not the past.
  CHECK_NOTHROW(k.schedule_at(nanoseconds(50), [] {}));
}

TEST_CASE("labels, re-entrancy and exceptions from callbacks") {
  Kernel k;
  std::string seen_label;
  k.schedule_in(
      nanoseconds(1), [&] { seen_label = std::string(k.current_label()); }, "link.rx");
  k.run();
  CHECK(seen_label == "link.rx");
  CHECK(k.current_label().empty());

  bool nested_threw = false;
  k.schedule_in(nanoseconds(1), [&] {
    try {
      k.run();
    } catch (const std::logic_error&) {
      nested_threw = true;
    }
  });
  k.run();
  CHECK(nested_threw);

  k.schedule_in(nanoseconds(1), [] { throw std::runtime_error("device fault"); });
  k.schedule_in(nanoseconds(2), [] {});
  CHECK_THROWS_AS(k.run(), std::runtime_error);
  CHECK(k.pending() == 1);
  CHECK_NOTHROW(k.run()); // still usable after a callback threw
  CHECK(k.pending() == 0);
}
