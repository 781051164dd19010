// Exact fast-forward of loops that wait on the cycle counter: a timed wait
// is skipped to the lap that leaves it, a wait that reads the counter's
// high word or does more than add and compare runs as it is, and random
// waits and flag-keeping laps agree both ways.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "emulator/iss/clock_lap.hpp"
#include "emulator/iss/cpu_arithmetic.hpp"
#include "emulator/kernel/random_stream.hpp"
#include "lanai/register_map.h"
#include "tests/iss/fast_forward_runs.hpp"

using namespace lanai::test;

namespace {

constexpr std::uint32_t cycle_lo = 0x1F0000u | (LANAI_REG_CYCLE_LO & 0xFFFFu);

// rd <- a 32-bit constant (two instructions).
std::vector<std::uint32_t> set32(std::uint32_t rd, std::uint32_t value) {
  return {ri(add, rd, r0, value >> 16, false, true), ri(or_, rd, rd, value & 0xFFFFu)};
}

// `start = cycle_lo; while ((int)(cycle_lo - start) < wait) {}`, exit with
// the last difference: the compiled shape of a firmware's timed wait.
std::vector<std::uint32_t> wait_cycles(std::uint32_t wait, std::uint32_t cond = 13 /* lt */) {
  std::vector<std::uint32_t> w = {sls(false, r7, cycle_lo)}; // 0x00 start
  for (const std::uint32_t x : set32(r10, wait))             // 0x04, 0x08
    w.push_back(x);
  for (const std::uint32_t x : {sls(false, r9, cycle_lo),   // 0x0c
                                rr(sub, r9, r9, r7),        // 0x10 r9 = now - start
                                rr(sub, r0, r9, r10, true), // 0x14 compare with the wait
                                br(cond, 0x0c),             // 0x18
                                nop,                        // 0x1c
                                exit_with(r9)})             // 0x20
    w.push_back(x);
  return w;
}

} // namespace

TEST_CASE("a loop that waits on the cycle counter is skipped to the lap that leaves it") {
  for (const std::uint64_t slice : {50'000u, 997u, 70u}) {
    const Snapshot fast = both_ways(wait_cycles(150'000), 200'000, slice);
    CHECK(fast.stop == lanai::iss::StopReason::halted);
    CHECK(fast.regs[r9] >= 150'000u);
    if (slice > 70)
      CHECK(fast.skipped > 140'000);
  }
  // Unsigned (bult) and the deadline form (bmi on now - deadline).
  CHECK(both_ways(wait_cycles(150'000, 4)).skipped > 140'000);
  const std::vector<std::uint32_t> deadline = {ri(add, r10, r0, 60'000),
                                               sls(false, r7, cycle_lo),
                                               rr(add, r7, r7, r10),      // deadline
                                               sls(false, r9, cycle_lo),  // 0x0c
                                               rr(sub, r0, r9, r7, true), // 0x10
                                               br(11, 0x0c),              // 0x14 bmi
                                               nop,
                                               exit_with(r9)};
  const Snapshot fast = both_ways(deadline);
  CHECK(fast.skipped > 50'000);
  CHECK(fast.stop == lanai::iss::StopReason::halted);
}

TEST_CASE("a wait that reads the counter's high word is not skipped past a change of it") {
  // Near 2^32 cycles the high word the lap reads changes: a loop waiting for
  // that change, and cycle_now()'s 64-bit read in a 32-bit wait, started
  // just before the boundary, end as without fast-forward.
  constexpr std::uint32_t cycle_hi = 0x1F0000u | (LANAI_REG_CYCLE_HI & 0xFFFFu);
  const std::vector<std::vector<std::uint32_t>> loops = {
      {sls(false, r9, cycle_lo), sls(false, r10, cycle_hi), // the high word now
       sls(false, r9, cycle_lo), sls(false, r7, cycle_hi),  // 0x08
       rr(sub, r0, r7, r10, true), br(7, 0x08), nop, exit_with(r7)},
      {sls(false, r11, cycle_lo), ri(add, r10, r0, 3, false, true), // wait 0x30000 cycles
       sls(false, r9, cycle_lo), sls(false, r7, cycle_hi),          // 0x08
       rr(sub, r9, r9, r11), rr(sub, r0, r9, r10, true), br(13, 0x08), nop, exit_with(r7)}};
  for (const auto& loop : loops) {
    for (const std::uint64_t slice : {50'000u, 7'777u}) {
      Snapshot both[2];
      std::uint32_t latched[2] = {};
      for (const bool fast : {false, true}) {
        ProgramRun p(loop);
        p.cpu->set_fast_forward(fast);
        p.cpu->add_stall_cycles((std::uint64_t{1} << 32) - 123'457);
        const std::uint64_t end = p.cpu->cycles() + 300'000;
        lanai::iss::StopReason stop = lanai::iss::StopReason::cycle_limit;
        while (stop == lanai::iss::StopReason::cycle_limit && p.cpu->cycles() < end)
          stop = p.cpu->run(std::min(end, p.cpu->cycles() + slice));
        both[fast] = snapshot_of(p, stop, ProgramRun::sram);
        CHECK(p.system->read(LANAI_REG_CYCLE_HI, 0, latched[fast]) == lanai::iss::MmioStatus::ok);
      }
      CHECK(both[1].same_as(both[0]));
      CHECK(latched[1] == latched[0]);
      CHECK(both[0].stop == lanai::iss::StopReason::halted);
      CHECK(both[0].regs[r7] == 1u);
      CHECK(both[1].skipped > 0);
    }
  }
}

TEST_CASE("a loop that does more with the cycle counter than add and compare runs as it is") {
  // The counter masked (its low bits wrap every 64 cycles), a second read
  // of it in the lap, a value that depends on the lap before, and a store
  // of the counter: none can be skipped, all end as without fast-forward.
  const std::vector<std::vector<std::uint32_t>> loops = {
      {sls(false, r9, cycle_lo), ri(and_, r9, r9, 0x3F), ri(sub, r0, r9, 0x3F, true), br(6, 0x00),
       nop, exit_with(r9)},
      {sls(false, r9, cycle_lo), sls(false, r7, cycle_lo), rr(sub, r0, r9, r7, true), br(0, 0x00),
       nop},
      {sls(false, r9, cycle_lo), rr(add, r7, r7, r9), ri(sub, r0, r7, 0, true), br(6, 0x00), nop,
       exit_with(r7)},
      {sls(false, r9, cycle_lo), sls(true, r9, data), ri(sub, r0, r9, 0, true), br(6, 0x00), nop}};
  for (const auto& loop : loops)
    CHECK(both_ways(loop).skipped == 0);
}

TEST_CASE("random waits on the cycle counter agree both ways") {
  // Loops `X = v + offset` (or `offset - v`), compared with a constant by
  // every condition, the offset chosen so that X crosses the points where
  // the flags change (0, 2^31 and where the sum crosses them) within the
  // run; slices of random lengths, with and without blocks; a third of them
  // start just before the counter's low word wraps, some read its high word.
  std::size_t skipping = 0, leaving = 0;
  constexpr std::uint32_t cycle_hi = 0x1F0000u | (LANAI_REG_CYCLE_HI & 0xFFFFu);
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    lanai::kernel::RandomStream rng(seed, "clock-wait");
    const std::uint32_t k = static_cast<std::uint32_t>(rng.next_u64());
    const std::uint32_t cond = rng.uniform_u32(2, 15);
    const bool minus = rng.uniform_u32(0, 1) == 1;    // X = offset - v
    const bool reversed = rng.uniform_u32(0, 1) == 1; // compare k - X
    const std::uint32_t points[4] = {0u, 0x80000000u, 0u - k, 0x80000000u - k};
    const std::uint32_t near = points[rng.uniform_u32(0, 3)] + rng.uniform_u32(0, 4) - 2;
    const std::uint32_t reach = rng.uniform_u32(0, 20'000);
    const std::uint64_t start =
        seed % 3 == 0 ? (std::uint64_t{1} << 32) - rng.uniform_u32(0, 40'000) : 0;
    const auto low = static_cast<std::uint32_t>(start);
    const std::uint32_t offset = minus ? near + reach + low : near - reach - low;
    std::vector<std::uint32_t> w = set32(r10, k);    // 0x00, 0x04
    for (const std::uint32_t x : set32(r11, offset)) // 0x08, 0x0c
      w.push_back(x);
    const std::uint32_t head = static_cast<std::uint32_t>(4 * w.size());
    w.push_back(sls(false, r9, cycle_lo)); // head
    w.push_back(minus ? rr(sub, r9, r11, r9) : rr(add, r9, r9, r11));
    w.push_back(reversed ? rr(sub, r0, r10, r9, true) : rr(sub, r0, r9, r10, true));
    w.push_back(br(cond, head));
    const std::uint32_t slot = rng.uniform_u32(0, 2);
    w.push_back(slot == 0 ? nop : slot == 1 ? ri(add, r12, r0, 5) : sls(false, r12, cycle_hi));
    w.push_back(exit_with(r9));
    const std::uint64_t step = rng.uniform_u32(50, 5'000);
    const Snapshot plain = run_in_steps(w, false, nullptr, step, 30'000, 0x1000, true, start);
    const Snapshot fast = run_in_steps(w, true, nullptr, step, 30'000, 0x1000, true, start);
    const Snapshot stepped = run_in_steps(w, true, nullptr, step, 30'000, 0x1000, false, start);
    CHECK(fast.same_as(plain));
    CHECK(stepped.same_as(fast));
    CHECK(stepped.skipped == fast.skipped);
    if (fast.skipped > 0)
      ++skipping;
    if (plain.stop == lanai::iss::StopReason::halted)
      ++leaving;
  }
  CHECK(skipping > 300);
  CHECK(leaving > 100);
}

TEST_CASE("the laps that keep their flags are counted up to the first point that can change them") {
  // Against the flags themselves, lap by lap, for random operands.
  for (std::uint64_t seed = 0; seed < 3'000; ++seed) {
    lanai::kernel::RandomStream rng(seed, "clock-flags");
    const std::uint32_t other = static_cast<std::uint32_t>(rng.next_u64());
    const std::uint32_t carry = rng.uniform_u32(0, 1);
    const std::uint32_t step = rng.uniform_u32(1, 40);
    const std::int32_t direction = rng.uniform_u32(0, 1) == 1 ? 1 : -1;
    const std::uint32_t points[4] = {0u, 0x80000000u, 0u - other - carry,
                                     0x80000000u - other - carry};
    const std::uint32_t x1 = points[rng.uniform_u32(0, 3)] -
                             static_cast<std::uint32_t>(direction) * rng.uniform_u32(0, 3 * step);
    const std::uint64_t laps = lanai::iss::laps_with_same_flags(x1, direction, step, other, carry);
    auto flags_at = [&](std::uint64_t lap) {
      std::uint8_t f = 0;
      const std::uint32_t x =
          x1 + static_cast<std::uint32_t>(direction) * static_cast<std::uint32_t>((lap - 1) * step);
      (void)lanai::iss::add_setting_flags(x, other, carry, f);
      return f;
    };
    for (std::uint64_t lap = 2; lap <= std::min<std::uint64_t>(laps, 200); ++lap)
      CHECK(flags_at(lap) == flags_at(1));
    // The lap after the count reaches a point (the flags may change there).
    if (laps > 0 && laps < 1'000) {
      const std::uint32_t x =
          x1 + static_cast<std::uint32_t>(direction) * static_cast<std::uint32_t>(laps * step);
      bool at_or_past = false;
      for (const std::uint32_t p : points) {
        const std::uint32_t before = direction > 0 ? p - x1 : x1 - p;
        at_or_past = at_or_past || before <= laps * step;
      }
      CHECK(at_or_past);
      (void)x;
    }
  }
}
