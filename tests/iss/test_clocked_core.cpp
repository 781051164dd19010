// The LANai on the event kernel: virtual time follows the cycle count,
// other events interleave at the right cycle, and the core needs far fewer
// kernel events than cycles.
#include <doctest/doctest.h>

#include "lanai_encoding.hpp"
#include "machine/clocked_core.hpp"
#include "program_runner.hpp"

using namespace lanai::test;

namespace {

// A counting loop of `n` iterations, then exit.
std::vector<std::uint32_t> counting_loop(std::uint32_t n) {
  return {sli(r6, n),                    // 0x00
          ri(sub, r6, r6, 1, true),      // 0x04
          br(6, 0x04),                   // 0x08 bne 0x04
          nop,                           // 0x0c
          exit_with(r0)};                // 0x10
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
    lanai::machine::ClockedCore core(kernel, *p.cpu, lanai::kernel::Frequency::megahertz(66.0), 777);
    core.start(1'000'000'000, [](lanai::iss::StopReason) {});
    kernel.run();
    return std::make_pair(p.cpu->cycles(), kernel.now().ps());
  };
  CHECK(run_once() == run_once());
}
