// The LANai on the event kernel: virtual time follows the cycle count,
// other events interleave at the right cycle, and the core needs far fewer
// kernel events than cycles; cores that share a kernel keep in step, and a
// core idle in a polling loop sleeps without changing anything it does.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "tests/iss/lanai_encoding.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/machine/system_registers.hpp"
#include "lanai/register_map.h"
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

constexpr std::uint32_t flag = 0x1000; // a word a polling loop waits on

// `while (mem[flag] == 0) {}`, then counts `n` down and exits with the word.
std::vector<std::uint32_t> wait_then_count(std::uint32_t n) {
  return {sls(false, r6, flag),     // 0x00 ld [flag], r6
          ri(sub, r0, r6, 0, true), // 0x04 sub.f r6, 0, r0
          br(7, 0x00),              // 0x08 beq 0x00
          nop,                      // 0x0c
          sli(r7, n),               // 0x10
          ri(sub, r7, r7, 1, true), // 0x14
          br(6, 0x14),              // 0x18 bne 0x14
          nop,                      // 0x1c
          exit_with(r6)};           // 0x20
}

// What a run of several cores left behind.
struct CoresRun {
  std::vector<std::uint64_t> cycles, slices, skipped;
  std::vector<std::int64_t> stopped_ps;
  std::vector<std::uint64_t> seen; // cycles of core 0 each event saw

  bool same_as(const CoresRun& o) const {
    return cycles == o.cycles && stopped_ps == o.stopped_ps && seen == o.seen;
  }
};

// Core 0 waits for its flag, set from outside by an event at 40 us, and
// exits; cores 1 and 2 count, one of them after its own wait (set at 25 us). Events at
// odd times sample core 0 in between.
CoresRun three_cores(bool fast_forward) {
  std::vector<ProgramRun> programs;
  programs.emplace_back(wait_then_count(1));
  programs.emplace_back(counting_loop(20000));
  programs.emplace_back(wait_then_count(5000));
  lanai::kernel::Kernel kernel;
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  std::vector<std::unique_ptr<lanai::machine::ClockedCore>> cores;
  CoresRun result;
  result.stopped_ps.assign(programs.size(), -1);
  for (auto& p : programs) {
    p.cpu->set_fast_forward(fast_forward);
    cores.push_back(std::make_unique<lanai::machine::ClockedCore>(kernel, *p.cpu, clock));
  }
  for (std::size_t i = 0; i < cores.size(); ++i)
    cores[i]->start(1'000'000'000, [&result, &kernel, i](lanai::iss::StopReason) {
      result.stopped_ps[i] = kernel.now().ps();
    });
  kernel.schedule_at(lanai::kernel::microseconds(25),
                     [&] { programs[2].cpu->write_word(flag, 2); });
  kernel.schedule_at(lanai::kernel::microseconds(40),
                     [&] { programs[0].cpu->write_word(flag, 1); });
  for (int ns : {3001, 17333, 39999, 40001, 41234})
    kernel.schedule_at(lanai::kernel::nanoseconds(ns),
                       [&] { result.seen.push_back(programs[0].cpu->cycles()); });
  kernel.run();
  for (std::size_t i = 0; i < cores.size(); ++i) {
    result.cycles.push_back(programs[i].cpu->cycles());
    result.slices.push_back(cores[i]->slices());
    result.skipped.push_back(programs[i].cpu->skipped_cycles());
  }
  return result;
}

// A bus whose console register, written, has an event change another
// core's memory at the very time of the write (as a receive DMA's GO frees
// another card's link at once).
class ReachingBus final : public lanai::machine::SystemRegisters {
public:
  ReachingBus(lanai::kernel::Kernel& kernel, std::function<void()> reach,
              lanai::kernel::SimTime delay = lanai::kernel::SimTime::zero())
      : SystemRegisters(ProgramRun::sram), kernel_(kernel), reach_(std::move(reach)),
        delay_(delay) {}
  void attach(lanai::machine::ClockedCore& core, lanai::iss::Cpu& cpu) {
    core_ = &core;
    cpu_ = &cpu;
  }
  lanai::iss::MmioStatus write(std::uint32_t address, std::uint64_t cycle,
                               std::uint32_t value) override {
    if (address == LANAI_REG_CONSOLE) {
      kernel_.schedule_from_access(core_->time_at(cycle), delay_, reach_);
      cpu_->request_yield();
      return lanai::iss::MmioStatus::ok;
    }
    return SystemRegisters::write(address, cycle, value);
  }

private:
  lanai::kernel::Kernel& kernel_;
  std::function<void()> reach_;
  lanai::kernel::SimTime delay_;
  lanai::machine::ClockedCore* core_ = nullptr;
  lanai::iss::Cpu* cpu_ = nullptr;
};

// One core waits for its flag; another, built after it (or before, if
// `writer_first`), runs `pad` no-ops, counts 300 down and then writes its
// console, which sets the flag `delay` later (at that very time by
// default). Both cores have `lookahead`. The waiting core's cycles when it
// exited.
// With `yield_checked` false the writer's run always ends at its write
// (no Cpu::set_yield_check). With `writer_waits` the writer, after the
// write, waits for the same change to its own memory, counts 100 down and
// exits at the cycle it leaves in `*writer_end`.
std::uint64_t reached_at_once(std::uint32_t pad, bool writer_first, bool fast_forward,
                              lanai::kernel::SimTime delay = lanai::kernel::SimTime::zero(),
                              lanai::kernel::SimTime lookahead = lanai::kernel::SimTime::zero(),
                              bool yield_checked = true, bool writer_waits = false,
                              std::uint64_t* writer_end = nullptr) {
  lanai::kernel::Kernel kernel;
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  ProgramRun waiter(wait_then_count(1));
  lanai::iss::Cpu* writer_cpu = nullptr;
  ReachingBus bus(
      kernel,
      [&] {
        waiter.cpu->write_word(flag, 1);
        writer_cpu->write_word(flag, 1);
      },
      delay);
  std::vector<std::uint32_t> words(pad, nop);
  const std::uint32_t loop = 4 * pad + 4;
  for (const std::uint32_t w : {sli(r6, 300), ri(sub, r6, r6, 1, true), br(6, loop), nop,
                                sls(true, r6, 0x1F0000u | (LANAI_REG_CONSOLE & 0xFFFFu))})
    words.push_back(w);
  if (writer_waits) {
    const std::uint32_t wait = 4 * static_cast<std::uint32_t>(words.size());
    for (const std::uint32_t w : {sls(false, r7, flag), ri(sub, r0, r7, 0, true), br(7, wait), nop,
                                  sli(r7, 100), ri(sub, r7, r7, 1, true), br(6, wait + 20), nop})
      words.push_back(w);
  }
  words.push_back(exit_with(r0));
  lanai::iss::Cpu writer(ProgramRun::sram, {}, &bus);
  writer_cpu = &writer;
  for (std::size_t i = 0; i < words.size(); ++i)
    writer.write_word(static_cast<std::uint32_t>(4 * i), words[i]);
  writer.reset(0);
  waiter.cpu->set_fast_forward(fast_forward);
  writer.set_fast_forward(fast_forward);
  std::unique_ptr<lanai::machine::ClockedCore> waiting, writing;
  if (writer_first)
    writing = std::make_unique<lanai::machine::ClockedCore>(kernel, writer, clock);
  waiting = std::make_unique<lanai::machine::ClockedCore>(kernel, *waiter.cpu, clock);
  if (!writer_first)
    writing = std::make_unique<lanai::machine::ClockedCore>(kernel, writer, clock);
  bus.attach(*writing, writer);
  if (!yield_checked)
    writer.set_yield_check(nullptr, nullptr);
  waiting->set_lookahead(lookahead);
  writing->set_lookahead(lookahead);
  // Something pending all along, so that the waiting core may sleep.
  kernel.schedule_at(lanai::kernel::milliseconds(1), [] {});
  waiting->start(1'000'000'000, [](lanai::iss::StopReason) {});
  writing->start(1'000'000'000, [](lanai::iss::StopReason) {});
  kernel.run();
  if (writer_end != nullptr)
    *writer_end = writer.cycles();
  return waiter.cpu->cycles();
}

} // namespace

TEST_CASE("a core waiting in a polling loop sleeps, and every event sees it where it would be") {
  const CoresRun plain = three_cores(false);
  const CoresRun fast = three_cores(true);
  CHECK(fast.same_as(plain));
  for (std::int64_t ps : plain.stopped_ps)
    CHECK(ps > 0);
  // Each event saw core 0 at the first cycle at or after its time.
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  const int times[] = {3001, 17333, 39999, 40001, 41234};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::uint64_t c = plain.seen[i];
    const auto at = lanai::kernel::nanoseconds(times[i]);
    CHECK(clock.cycles_to_time_ceil(c) >= at);
    CHECK(clock.cycles_to_time_ceil(c - 3) < at); // within one lap of three instructions
  }
  // The wait cost core 0 a handful of slices instead of one per
  // instruction, and core 2 fewer; the counting core kept slicing.
  CHECK(plain.slices[0] > 1000);
  CHECK(fast.slices[0] < plain.slices[0] / 20);
  CHECK(fast.slices[2] < plain.slices[2]);
  CHECK(fast.skipped[0] > 0);
  CHECK(plain.skipped[0] == 0);
}

TEST_CASE("events that change nothing a polling core reads do not keep it from sleeping") {
  // The core waits for its flag while something else happens every 150 ns
  // (a host polling its queues, say: about ten cycles apart, too close for
  // two laps in one run); the flag is set at 40 us.
  struct Run {
    std::uint64_t cycles = 0, slices = 0, skipped = 0;
    std::int64_t stopped_ps = -1;
  };
  auto run = [](bool fast_forward) {
    ProgramRun p(wait_then_count(3));
    p.cpu->set_fast_forward(fast_forward);
    lanai::kernel::Kernel kernel;
    lanai::machine::ClockedCore core(kernel, *p.cpu, lanai::kernel::Frequency::megahertz(66.0));
    Run r;
    core.start(1'000'000'000, [&](lanai::iss::StopReason) { r.stopped_ps = kernel.now().ps(); });
    for (int i = 1; i * 150 < 50'000; ++i)
      kernel.schedule_at(lanai::kernel::nanoseconds(150 * i), [] {});
    kernel.schedule_at(lanai::kernel::microseconds(40), [&] { p.cpu->write_word(flag, 9); });
    kernel.run();
    r.cycles = p.cpu->cycles();
    r.slices = core.slices();
    r.skipped = p.cpu->skipped_cycles();
    return r;
  };
  const Run plain = run(false);
  const Run fast = run(true);
  CHECK(plain.stopped_ps > lanai::kernel::microseconds(40).ps());
  CHECK(fast.stopped_ps == plain.stopped_ps);
  CHECK(fast.cycles == plain.cycles);
  CHECK(plain.skipped == 0);
  CHECK(fast.skipped > plain.cycles / 2);
  CHECK(fast.slices < plain.slices / 20);
}

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

TEST_CASE("what a core starts at the very time of an access reaches a sleeping core in order") {
  // Whatever the phase of the waiting core's lap at the write, it exits at
  // the same cycle asleep or not: its instruction of the write's time comes
  // before the change, whether it was built before the writer or after.
  for (const bool writer_first : {false, true})
    for (std::uint32_t pad = 0; pad < 8; ++pad)
      CHECK(reached_at_once(pad, writer_first, true) == reached_at_once(pad, writer_first, false));
}

TEST_CASE(
    "cores with a lookahead run ahead between accesses and end where they would in lockstep") {
  // The waiting core polls memory, not a register: its private work runs
  // ahead of the writer's time, by no more than the write takes to reach it.
  const auto ns = [](std::int64_t n) { return lanai::kernel::nanoseconds(n); };
  for (const bool writer_first : {false, true})
    for (std::uint32_t pad = 0; pad < 8; ++pad)
      for (const std::int64_t delay : {15, 650}) {
        CAPTURE(writer_first);
        CAPTURE(pad);
        CAPTURE(delay);
        const std::uint64_t lockstep = reached_at_once(pad, writer_first, false, ns(delay));
        CHECK(reached_at_once(pad, writer_first, false, ns(delay), ns(delay)) == lockstep);
        CHECK(reached_at_once(pad, writer_first, true, ns(delay), ns(delay)) == lockstep);
      }
}

TEST_CASE("a write that starts work past the run's limits lets the run go on, with the same end") {
  // The writer's run goes on after its write when what the write scheduled
  // comes after the limits the run has (ClockedCore answers the core's
  // yield check); the waiting core exits at the same cycle as when every
  // such write ends the run, whatever the delay, phase and lookahead (none,
  // or as long as the delay: no more than the write takes to reach).
  const auto ns = [](std::int64_t n) { return lanai::kernel::nanoseconds(n); };
  for (const bool writer_first : {false, true})
    for (std::uint32_t pad = 0; pad < 4; ++pad)
      for (const std::int64_t delay : {0, 15, 650, 20000})
        for (const std::int64_t lookahead : {std::int64_t{0}, delay}) {
          CAPTURE(writer_first);
          CAPTURE(pad);
          CAPTURE(delay);
          CAPTURE(lookahead);
          std::uint64_t writer_ends_run = 0, writer_goes_on = 0, writer_stepped = 0;
          const std::uint64_t ends_run = reached_at_once(
              pad, writer_first, true, ns(delay), ns(lookahead), false, true, &writer_ends_run);
          CHECK(reached_at_once(pad, writer_first, true, ns(delay), ns(lookahead), true, true,
                                &writer_goes_on) == ends_run);
          CHECK(writer_goes_on == writer_ends_run);
          CHECK(reached_at_once(pad, writer_first, false, ns(delay), ns(lookahead), true, true,
                                &writer_stepped) == ends_run);
          CHECK(writer_stepped == writer_ends_run);
        }
}

TEST_CASE("two busy cores with a lookahead take far fewer slices and end at the same times") {
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  std::vector<std::int64_t> ends[2];
  std::uint64_t slices[2] = {};
  for (const int ahead : {0, 1}) {
    lanai::kernel::Kernel kernel;
    ProgramRun a(counting_loop(20000)), b(counting_loop(15000));
    lanai::machine::ClockedCore core_a(kernel, *a.cpu, clock);
    lanai::machine::ClockedCore core_b(kernel, *b.cpu, clock);
    if (ahead != 0) {
      core_a.set_lookahead(lanai::kernel::microseconds(1));
      core_b.set_lookahead(lanai::kernel::microseconds(1));
    }
    for (auto* core : {&core_a, &core_b})
      core->start(1'000'000'000, [&ends, &kernel, ahead](lanai::iss::StopReason) {
        ends[ahead].push_back(kernel.now().ps());
      });
    kernel.run();
    slices[ahead] = core_a.slices() + core_b.slices();
    CHECK(a.exit_code() == 0);
  }
  CHECK(ends[0] == ends[1]);
  // In lockstep about one slice per instruction; ahead, one per microsecond.
  CHECK(slices[0] > 20000u);
  CHECK(slices[1] < slices[0] / 20);
}

TEST_CASE("a core stepped for an observer, with a lookahead, observes each instruction once") {
  // A step observer makes the core run one instruction per run; with a
  // lookahead, an access past the access limit is held back, the run ends
  // with nothing executed, and the instruction must be neither reported
  // nor retried within the same slice (it would be, forever).
  const auto clock = lanai::kernel::Frequency::megahertz(66.0);
  lanai::kernel::Kernel kernel;
  ProgramRun a({sli(r6, 10),                                              // 0x00
                ri(sub, r6, r6, 1, true),                                 // 0x04
                br(6, 0x04),                                              // 0x08 bne 0x04
                nop,                                                      // 0x0c
                sls(true, r6, 0x1F0000u | (LANAI_REG_CONSOLE & 0xFFFFu)), // 0x10 console
                exit_with(r0)});                                          // 0x14
  ProgramRun b(counting_loop(2000));
  lanai::machine::ClockedCore core_a(kernel, *a.cpu, clock);
  lanai::machine::ClockedCore core_b(kernel, *b.cpu, clock);
  core_a.set_lookahead(lanai::kernel::microseconds(1));
  core_b.set_lookahead(lanai::kernel::microseconds(1));
  std::uint64_t observed = 0;
  std::uint32_t last_pc = ~0u;
  std::uint64_t last_cycle = ~std::uint64_t{0};
  core_a.set_step_observer([&](std::uint32_t pc, std::uint64_t cycle) {
    if (pc == last_pc && cycle == last_cycle)
      throw std::runtime_error("the same instruction observed twice at the same cycle");
    last_pc = pc;
    last_cycle = cycle;
    ++observed;
  });
  core_a.start(1'000'000'000, [](lanai::iss::StopReason) {});
  core_b.start(1'000'000'000, [](lanai::iss::StopReason) {});
  CHECK_NOTHROW(kernel.run());
  CHECK(a.exit_code() == 0);
  CHECK(observed == a.cpu->instructions());
}
