// The LANai on the event kernel: virtual time follows the cycle count,
// other events interleave at the right cycle, and the core needs far fewer
// kernel events than cycles; cores that share a kernel keep in step.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "tests/iss/lanai_encoding.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "tests/iss/program_runner.hpp"

using namespace lanai::test;

namespace {

// A counting loop of `n` iterations, then exit.
std::vector<std::uint32_t> counting_loop(std::uint32_t n) {
  return {sli(r6, n),               // 0x00
          ri(sub, r6, r6, 1, true), // 0x04
          br(6, 0x04),              // 0x08 bne 0x04
          nop,                      // 0x0c
          exit_with(r0)};           // 0x10
}

} // namespace

TEST_CASE("virtual time at exit equals cycles at the LANai clock, with few kernel events") {
  ProgramRun p(counting_loop(100000));
  lanai::kernel::Kernel kernel;
  const auto clock = lanai::kernel::Frequency::megahertz(33.0);
  lanai::machine::ClockedCore core(kernel, *p.cpu, clock, 10'000);
  lanai::iss::StopReason stop{};
  lanai::kernel::SimTime stopped_at{};
  core.start(1'000'000'000, [&](lanai::iss::StopReason r) {
    stop = r;
    stopped_at = kernel.now();
  });
  kernel.run();
  CHECK(stop == lanai::iss::StopReason::halted);
  CHECK(stopped_at == clock.cycles_to_time_ceil(p.cpu->cycles()));
  CHECK(p.cpu->cycles() > 300000);
  CHECK(kernel.events_executed() < p.cpu->cycles() / 5000);
}

TEST_CASE("an event scheduled by another component sees the core at that cycle") {
  ProgramRun p(counting_loop(100000));
  lanai::kernel::Kernel kernel;
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  lanai::machine::ClockedCore core(kernel, *p.cpu, clock);
  std::uint64_t seen_cycles = 0;
  const auto when = lanai::kernel::microseconds(100);
  kernel.schedule_at(when, [&] { seen_cycles = p.cpu->cycles(); });
  core.start(1'000'000'000, [&](lanai::iss::StopReason) {});
  kernel.run();
  const std::uint64_t expected = clock.time_to_cycles(when);
  CHECK(seen_cycles >= expected);
  CHECK(seen_cycles <= expected + 2); // at most one instruction past
}

TEST_CASE("the same program gives bit-identical cycle counts and end times") {
  auto run_once = [] {
    ProgramRun p(counting_loop(5000));
    lanai::kernel::Kernel kernel;
    lanai::machine::ClockedCore core(kernel, *p.cpu, lanai::kernel::Frequency::megahertz(66.0),
                                     777);
    core.start(1'000'000'000, [](lanai::iss::StopReason) {});
    kernel.run();
    return std::make_pair(p.cpu->cycles(), kernel.now().ps());
  };
  CHECK(run_once() == run_once());
}

TEST_CASE("two cores on one kernel run in lockstep, each at most one slice ahead") {
  ProgramRun a(counting_loop(3000));
  ProgramRun b(counting_loop(3000));
  lanai::kernel::Kernel kernel;
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  lanai::machine::ClockedCore core_a(kernel, *a.cpu, clock);
  lanai::machine::ClockedCore core_b(kernel, *b.cpu, clock);
  std::uint64_t widest_gap = 0;
  // Another component samples both cores' clocks now and then.
  std::function<void()> sample = [&] {
    const auto ta = core_a.local_time(), tb = core_b.local_time();
    widest_gap = std::max<std::uint64_t>(widest_gap, (ta > tb ? ta - tb : tb - ta).ps());
    if (kernel.now() < lanai::kernel::microseconds(100))
      kernel.schedule_in(lanai::kernel::nanoseconds(333), sample);
  };
  kernel.schedule_at(lanai::kernel::SimTime::zero(), sample);
  core_a.start(1'000'000'000, [](lanai::iss::StopReason) {});
  core_b.start(1'000'000'000, [](lanai::iss::StopReason) {});
  kernel.run();
  CHECK(a.cpu->cycles() == b.cpu->cycles());
  // One instruction of one cycle apart at most.
  CHECK(widest_gap <= clock.cycles_to_time_ceil(1).ps());
  CHECK(core_a.slices() > a.cpu->cycles() / 2);
}

TEST_CASE("a core destroyed with a slice pending leaves nothing behind in the kernel") {
  ProgramRun p(counting_loop(1000));
  lanai::kernel::Kernel kernel;
  {
    lanai::machine::ClockedCore core(kernel, *p.cpu, lanai::kernel::Frequency::megahertz(66.0));
    core.start(1'000'000'000, [](lanai::iss::StopReason) {});
    CHECK(kernel.pending() == 1);
  }
  CHECK(kernel.pending() == 0);
  kernel.run();
  CHECK(p.cpu->cycles() == 0);
}
