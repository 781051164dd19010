// The host CPU on a bare kernel: compute spends exactly the time asked,
// wait checks at once and again after each notify (paying the poll cost),
// deadlines end waits, notifications coalesce, failures and stops are
// reported, and two hosts interleave by virtual time alone.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "emulator/host/host_cpu.hpp"
#include "emulator/kernel/event_queue.hpp"

using namespace lanai;
using host::HostCpu;
using host::HostState;
using kernel::microseconds;
using kernel::nanoseconds;
using kernel::SimTime;

TEST_CASE("compute advances the program's clock by exactly the time charged") {
  kernel::Kernel k;
  HostCpu cpu(k, 3);
  std::vector<SimTime> seen;
  cpu.start([&] {
    seen.push_back(k.now());
    cpu.compute(microseconds(5));
    seen.push_back(k.now());
    cpu.compute(nanoseconds(250));
    seen.push_back(k.now());
    cpu.compute(SimTime::zero());
    seen.push_back(k.now());
    return 7;
  });
  CHECK(cpu.state() == HostState::computing);
  k.run();
  CHECK(seen == std::vector<SimTime>{SimTime::zero(), microseconds(5),
                                     microseconds(5) + nanoseconds(250),
                                     microseconds(5) + nanoseconds(250)});
  CHECK(cpu.state() == HostState::finished);
  CHECK(cpu.exit_code() == 7);
  CHECK(cpu.busy_time() == microseconds(5) + nanoseconds(250));
  CHECK(cpu.finished_at() == microseconds(5) + nanoseconds(250));
  CHECK(cpu.node() == 3);
}

TEST_CASE("current() is the host whose program runs") {
  kernel::Kernel k;
  HostCpu a(k, 0);
  HostCpu b(k, 1);
  std::vector<HostCpu*> seen;
  a.start([&] {
    seen.push_back(HostCpu::current());
    a.compute(microseconds(2));
    seen.push_back(HostCpu::current());
    return 0;
  });
  b.start([&] {
    b.compute(microseconds(1));
    seen.push_back(HostCpu::current());
    return 0;
  });
  k.run();
  CHECK(seen == std::vector<HostCpu*>{&a, &b, &a});
  CHECK(HostCpu::current() == nullptr);
}

TEST_CASE("a wait that is already satisfied costs nothing") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool result = false;
  cpu.start([&] {
    result = cpu.wait([] { return true; }, std::nullopt, "nothing", nanoseconds(100));
    return 0;
  });
  k.run();
  CHECK(result);
  CHECK(cpu.finished_at() == SimTime::zero());
}

TEST_CASE("notify wakes a waiting program, which pays the poll cost to look") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool flag = false;
  int checks = 0;
  SimTime woke{};
  cpu.start([&] {
    const bool ok = cpu.wait(
        [&] {
          ++checks;
          return flag;
        },
        std::nullopt, "the flag", nanoseconds(100));
    woke = k.now();
    return ok ? 0 : 1;
  });
  // A notification with nothing changed: one more check, then sleep again.
  k.schedule_at(microseconds(2), [&] {
    CHECK(cpu.state() == HostState::waiting);
    CHECK(cpu.waiting_without_deadline());
    CHECK(cpu.waiting_on() == "the flag");
    CHECK(cpu.waiting_since() == SimTime::zero());
    cpu.notify();
  });
  k.schedule_at(microseconds(5), [&] {
    flag = true;
    cpu.notify();
  });
  k.run();
  CHECK(cpu.exit_code() == 0);
  CHECK(woke == microseconds(5) + nanoseconds(100));
  CHECK(checks == 3);
  CHECK(cpu.busy_time() == nanoseconds(200));
  CHECK(cpu.waiting_on().empty());
}

TEST_CASE("several notifications before the program runs make one check") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool flag = false;
  int checks = 0;
  cpu.start([&] {
    cpu.wait(
        [&] {
          ++checks;
          return flag;
        },
        std::nullopt, "the flag", nanoseconds(50));
    return 0;
  });
  k.schedule_at(microseconds(1), [&] {
    flag = true;
    cpu.notify();
    cpu.notify();
    cpu.notify();
  });
  k.run();
  CHECK(checks == 2);
}

TEST_CASE("a change notified during the poll cost is seen by that look") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  int stage = 0;
  int checks = 0;
  SimTime woke{};
  cpu.start([&] {
    cpu.wait(
        [&] {
          ++checks;
          return stage == 2;
        },
        std::nullopt, "stage 2", nanoseconds(100));
    woke = k.now();
    return 0;
  });
  k.schedule_at(microseconds(1), [&] {
    stage = 1;
    cpu.notify();
  });
  // Lands while the program is paying for its look at stage 1.
  k.schedule_at(microseconds(1) + nanoseconds(50), [&] {
    stage = 2;
    cpu.notify();
  });
  k.run();
  CHECK(checks == 2);
  CHECK(woke == microseconds(1) + nanoseconds(100));
}

TEST_CASE("a deadline ends the wait with false, after one last look") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool result = true;
  SimTime returned{};
  cpu.start([&] {
    cpu.compute(microseconds(1));
    result = cpu.wait([] { return false; }, microseconds(10), "never", nanoseconds(100));
    returned = k.now();
    return 0;
  });
  k.schedule_at(microseconds(3), [&] {
    CHECK(cpu.state() == HostState::waiting);
    CHECK_FALSE(cpu.waiting_without_deadline());
  });
  k.run();
  CHECK_FALSE(result);
  CHECK(returned == microseconds(10) + nanoseconds(100));
  CHECK(k.pending() == 0);
}

TEST_CASE("a deadline already passed fails at once") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool result = true;
  cpu.start([&] {
    cpu.compute(microseconds(4));
    result = cpu.wait([] { return false; }, microseconds(4), "never", nanoseconds(100));
    return 0;
  });
  k.run();
  CHECK_FALSE(result);
  CHECK(cpu.finished_at() == microseconds(4));
}

TEST_CASE("an exception from the program is its failure, with exit code 1") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  cpu.start([&]() -> int {
    cpu.compute(microseconds(1));
    throw std::runtime_error("lost the plot");
  });
  k.run();
  CHECK(cpu.state() == HostState::finished);
  CHECK(cpu.exit_code() == 1);
  CHECK(cpu.failure() == "lost the plot");
}

TEST_CASE("stop_program unwinds a blocked program without moving time") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  bool unwound = false;
  bool returned = false;
  struct Flag {
    bool& set;
    ~Flag() { set = true; }
  };
  cpu.start([&] {
    Flag flag{unwound};
    cpu.wait([] { return false; }, std::nullopt, "forever", nanoseconds(100));
    returned = true;
    return 0;
  });
  k.run_until(microseconds(3));
  CHECK(cpu.waiting_without_deadline());
  cpu.stop_program();
  CHECK(unwound);
  CHECK_FALSE(returned);
  CHECK(cpu.state() == HostState::finished);
  CHECK(cpu.exit_code() == 1);
  CHECK_FALSE(cpu.failure().empty());
  CHECK(k.now() == microseconds(3));
  CHECK(k.pending() == 0);
}

TEST_CASE("on_finish runs once, in the event where the program returns") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  int calls = 0;
  SimTime at{};
  cpu.set_on_finish([&] {
    ++calls;
    at = k.now();
  });
  cpu.start([&] {
    cpu.compute(microseconds(6));
    return 0;
  });
  k.run();
  CHECK(calls == 1);
  CHECK(at == microseconds(6));
}

TEST_CASE("compute and wait belong to the program: calling them from outside is refused") {
  kernel::Kernel k;
  HostCpu cpu(k, 0);
  CHECK_THROWS_AS(cpu.compute(microseconds(1)), std::logic_error);
  CHECK_THROWS_AS(cpu.wait([] { return false; }, std::nullopt, "x", SimTime::zero()),
                  std::logic_error);
  cpu.start([] { return 0; });
  CHECK_THROWS_AS(cpu.start([] { return 0; }), std::logic_error);
  k.run();
}

TEST_CASE("two hosts interleave by virtual time, the same way every run") {
  const auto run_once = [] {
    kernel::Kernel k;
    HostCpu a(k, 0);
    HostCpu b(k, 1);
    std::vector<std::string> log;
    a.start([&] {
      for (int i = 0; i < 4; ++i) {
        log.push_back("a" + std::to_string(i) + "@" + std::to_string(k.now().ps()));
        a.compute(nanoseconds(300));
      }
      return 0;
    });
    b.start([&] {
      for (int i = 0; i < 3; ++i) {
        log.push_back("b" + std::to_string(i) + "@" + std::to_string(k.now().ps()));
        b.compute(nanoseconds(400));
      }
      return 0;
    });
    k.run();
    return log;
  };
  const auto first = run_once();
  CHECK(first == std::vector<std::string>{"a0@0", "b0@0", "a1@300000", "b1@400000", "a2@600000",
                                          "b2@800000", "a3@900000"});
  CHECK(run_once() == first);
}

TEST_CASE("looks cost their time in place until something is due, and see what sleeping would") {
  struct Seen {
    int looks = 0;
    SimTime flag_seen_at{}, finished_at{}, busy{};
    std::uint64_t wakeups = 0, in_place = 0;
  };
  auto run = [](bool fast_forward, SimTime limit) {
    kernel::Kernel k;
    HostCpu cpu(k, 0);
    cpu.set_fast_forward(fast_forward);
    bool flag = false;
    k.schedule_at(microseconds(10), [&] { flag = true; });
    Seen seen;
    cpu.start([&] {
      while (!flag) {
        cpu.look(microseconds(1));
        ++seen.looks;
      }
      seen.flag_seen_at = cpu.time();
      cpu.look(nanoseconds(300)); // owed at the end: paid before the program finishes
      return 0;
    });
    if (limit == SimTime::max())
      k.run();
    else
      k.run_until(limit);
    seen.finished_at = cpu.finished_at();
    seen.busy = cpu.busy_time();
    seen.wakeups = cpu.wakeups();
    seen.in_place = cpu.looks_in_place();
    return seen;
  };
  const Seen slept = run(false, SimTime::max());
  const Seen in_place = run(true, SimTime::max());
  CHECK(slept.looks == 10);
  CHECK(slept.flag_seen_at == microseconds(10));
  CHECK(slept.finished_at == microseconds(10) + nanoseconds(300));
  CHECK(slept.in_place == 0);
  CHECK(slept.wakeups == 12);
  // The same program, seen the same way at the same times: the looks before
  // the event stay in the program, the one reaching it and the last one
  // (nothing left to wait for) too, and the program's end pays it all.
  CHECK(in_place.looks == slept.looks);
  CHECK(in_place.flag_seen_at == slept.flag_seen_at);
  CHECK(in_place.finished_at == slept.finished_at);
  CHECK(in_place.busy == slept.busy);
  CHECK(in_place.in_place == 10);
  CHECK(in_place.wakeups == 3);
  // A run that stops early stops the program where sleeping would have.
  const Seen cut = run(true, microseconds(4) + nanoseconds(500));
  CHECK(cut.looks == 4);
  CHECK(cut.busy == microseconds(5));
}
