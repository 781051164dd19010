// Exact fast-forward of idle loops: a loop that only polls stable registers
// and unchanged memory is skipped to the end of the run, and a loop that
// looks idle but is not (a store that sticks, a device write, a register
// that drifts, an unstable register, an event mid-loop, a limit inside the
// next lap) runs exactly as without fast-forward; the watch finds the loop
// it should follow. Every case runs both ways and compares the whole
// processor state and SRAM; the random ones also run without predecoded
// blocks and must skip exactly the same laps. Waits on the cycle counter:
// test_fast_forward_clock.cpp.
#include <doctest/doctest.h>

#include <array>
#include <initializer_list>
#include <cstdint>
#include <vector>

#include "emulator/kernel/random_stream.hpp"
#include "lanai/register_map.h"
#include "tests/iss/fast_forward_runs.hpp"

using namespace lanai::test;

TEST_CASE("a loop polling unchanged memory is skipped to the end of each slice") {
  const Snapshot fast = both_ways(wait_for_word());
  CHECK(fast.stop == lanai::iss::StopReason::cycle_limit);
  CHECK(fast.cycles >= 200'000);
  CHECK(fast.cycles <= 200'002);
  CHECK(fast.skipped > 190'000);
}

TEST_CASE("a loop polling stable device registers is skipped") {
  // while (sram_size_register != 0) {} -- the register never changes.
  const std::vector<std::uint32_t> words = {
      sls(false, r6, 0x1F0000u | (LANAI_REG_SRAM_SIZE & 0xFFFFu)), // 0x00
      ri(sub, r0, r6, 0, true),                                    // 0x04
      br(6, 0x00),                                                 // 0x08 bne
      nop,                                                         // 0x0c
      exit_with(r6)};
  CHECK(both_ways(words).skipped > 190'000);
}

TEST_CASE("a store that sticks, a drifting register and a device write are not idle") {
  // A counter kept in memory: the loop's store changes it every lap.
  const std::vector<std::uint32_t> store_loop = {sls(false, r6, data), ri(add, r6, r6, 1),
                                                 sls(true, r6, data), br(0, 0x00), nop};
  CHECK(both_ways(store_loop).skipped == 0);
  // A register that drifts, with no memory access at all.
  const std::vector<std::uint32_t> drift = {ri(add, r7, r7, 1), br(0, 0x00), nop};
  CHECK(both_ways(drift).skipped == 0);
  // A console write each lap (a device write, not idle however constant).
  const std::vector<std::uint32_t> console = {ri(or_, r6, r0, 'x'), sls(true, r6, 0x1F0000u),
                                              br(0, 0x00), nop};
  const Snapshot s = both_ways(console, 3'000, 1'000);
  CHECK(s.skipped == 0);
  CHECK(s.console.size() > 100);
}

TEST_CASE("a store undone within the lap keeps the loop idle") {
  // Saves r6 to the stack and restores it, as a call's prologue would.
  const std::vector<std::uint32_t> words = {sli(sp, 0x2000),          // 0x00
                                            rm(true, fp, sp, 2, -4),  // 0x04 st fp, -4[sp]
                                            ri(add, fp, r0, 77),      // 0x08 fp = 77
                                            rm(false, fp, sp, 2, -4), // 0x0c ld -4[sp], fp
                                            sls(false, r6, data),     // 0x10
                                            ri(sub, r0, r6, 0, true), // 0x14
                                            br(7, 0x04),              // 0x18 beq 0x04
                                            nop,
                                            exit_with(r6)};
  CHECK(both_ways(words).skipped > 150'000);
}

TEST_CASE("a word changed between slices ends the skip at the right lap") {
  // The memory the loop polls changes between two slices, as a DMA
  // completion event would change it: both runs leave the loop at the same
  // cycle and exit with the same value.
  for (const std::uint64_t slice : {7u, 1'000u, 33'333u}) {
    auto poke = [](lanai::iss::Cpu& cpu) {
      if (cpu.cycles() >= 100'000 && cpu.read_word(data) == 0)
        cpu.write_word(data, 42);
    };
    const Snapshot plain = run(wait_for_word(), false, 1'000'000, slice, poke);
    const Snapshot fast = run(wait_for_word(), true, 1'000'000, slice, poke);
    CHECK(fast.same_as(plain));
    CHECK(plain.stop == lanai::iss::StopReason::halted);
    CHECK(plain.regs[r6] == 42u);
  }
}

TEST_CASE("the skip stops short of a cycle or instruction limit inside the next lap") {
  // Limits that fall inside a lap and at its end, with costly branches.
  lanai::iss::CycleCosts costs;
  costs.branch_taken_cycles = 3;
  costs.load_cycles = 2;
  for (std::uint64_t limit = 1'000; limit < 1'012; ++limit) {
    const Snapshot plain = run(
        wait_for_word(), false, limit, limit, [](lanai::iss::Cpu&) {}, costs);
    const Snapshot fast = run(
        wait_for_word(), true, limit, limit, [](lanai::iss::Cpu&) {}, costs);
    CHECK(fast.same_as(plain));
  }
  for (std::uint64_t n = 100; n < 110; ++n) {
    ProgramRun a(wait_for_word()), b(wait_for_word());
    a.cpu->set_fast_forward(false);
    a.cpu->run(1'000'000, n);
    b.cpu->run(1'000'000, n);
    CHECK(a.cpu->instructions() == n);
    CHECK(b.cpu->instructions() == n);
    CHECK(a.cpu->cycles() == b.cpu->cycles());
    CHECK(a.cpu->pc() == b.cpu->pc());
  }
}

TEST_CASE("an outer idle loop is found behind an inner loop") {
  // for (;;) { for (i = 3; i; --i) {} if (mem[data]) exit; }
  const std::vector<std::uint32_t> words = {ri(add, r7, r0, 3),       // 0x00
                                            ri(sub, r7, r7, 1, true), // 0x04
                                            br(6, 0x04),              // 0x08 bne 0x04 (inner)
                                            nop,                      // 0x0c
                                            sls(false, r6, data),     // 0x10
                                            ri(sub, r0, r6, 0, true), // 0x14
                                            br(7, 0x00),              // 0x18 beq 0x00 (outer)
                                            nop,
                                            exit_with(r6)};
  CHECK(both_ways(words).skipped > 150'000);
}

TEST_CASE("a lap that repeated is skipped at once in the next slice") {
  // Slices just long enough to watch a lap: without the lap kept from the
  // last slice each would execute two laps before skipping.
  const Snapshot fast = both_ways(wait_for_word(), 20'000, 70);
  CHECK(fast.skipped > 17'000);
}

TEST_CASE("a kept lap is not skipped once its inputs change between slices") {
  // A word written from outside, a register set from outside, and a stable
  // device register that changes, each between two slices, as an event
  // would change them: both ways leave the loop at the same cycle.
  for (const std::uint64_t slice : {70u, 101u, 1'000u}) {
    auto poke = [](lanai::iss::Cpu& cpu) {
      if (cpu.cycles() >= 10'000 && cpu.read_word(data) == 0)
        cpu.write_word(data, 42);
    };
    const Snapshot plain = run(wait_for_word(), false, 100'000, slice, poke);
    const Snapshot fast = run(wait_for_word(), true, 100'000, slice, poke);
    CHECK(fast.same_as(plain));
    CHECK(plain.regs[r6] == 42u);
    CHECK(fast.skipped > 0);

    // while (r7 == 0) {} then exit with r7.
    const std::vector<std::uint32_t> spin = {ri(sub, r0, r7, 0, true), br(7, 0x00), nop,
                                             exit_with(r7)};
    auto set = [](lanai::iss::Cpu& cpu) {
      if (cpu.cycles() >= 10'000 && cpu.reg(r7) == 0)
        cpu.set_reg(r7, 5);
    };
    const Snapshot plain_reg = run(spin, false, 100'000, slice, set);
    const Snapshot fast_reg = run(spin, true, 100'000, slice, set);
    CHECK(fast_reg.same_as(plain_reg));
    CHECK(plain_reg.stop == lanai::iss::StopReason::halted);

    // while (mailbox == 0) {} then exit with it; the mailbox is stable
    // between changes, as the card's event word is.
    struct Mailbox : lanai::iss::MmioBus {
      std::uint32_t value = 0;
      std::uint32_t exit = 0;
      lanai::iss::MmioStatus read(std::uint32_t, std::uint64_t, std::uint32_t& v) override {
        v = value;
        return lanai::iss::MmioStatus::ok;
      }
      lanai::iss::MmioStatus write(std::uint32_t, std::uint64_t, std::uint32_t v) override {
        exit = v;
        return lanai::iss::MmioStatus::halt;
      }
      bool stable_read(std::uint32_t) const override { return true; }
    };
    const std::vector<std::uint32_t> poll = {sls(false, r6, 0x1F0000u), ri(sub, r0, r6, 0, true),
                                             br(7, 0x00), nop, exit_with(r6)};
    std::uint64_t skipped[2] = {};
    std::uint64_t cycles[2] = {};
    std::uint32_t exits[2] = {};
    for (const bool ff : {false, true}) {
      Mailbox bus;
      lanai::iss::Cpu cpu(ProgramRun::sram, {}, &bus);
      for (std::size_t i = 0; i < poll.size(); ++i)
        cpu.write_word(static_cast<std::uint32_t>(4 * i), poll[i]);
      cpu.reset(0);
      cpu.set_fast_forward(ff);
      while (cpu.run(cpu.cycles() + slice) == lanai::iss::StopReason::cycle_limit &&
             cpu.cycles() < 100'000)
        if (cpu.cycles() >= 10'000)
          bus.value = 9;
      skipped[ff] = cpu.skipped_cycles();
      cycles[ff] = cpu.cycles();
      exits[ff] = bus.exit;
    }
    CHECK(cycles[0] == cycles[1]);
    CHECK(exits[0] == 9u);
    CHECK(exits[1] == 9u);
    CHECK(skipped[0] == 0);
    CHECK(skipped[1] > 0);
  }
}

TEST_CASE("a polling loop reached after a branch taken once is still skipped") {
  // A backward branch taken once (the watch starts there), then a polling
  // loop elsewhere that the watch must move to within the same run.
  const std::vector<std::uint32_t> words = {ri(add, r7, r0, 2),       // 0x00
                                            ri(sub, r7, r7, 1, true), // 0x04
                                            br(6, 0x04),              // 0x08 bne 0x04: taken once
                                            nop,                      // 0x0c
                                            sls(false, r6, data),     // 0x10
                                            ri(sub, r0, r6, 0, true), // 0x14
                                            br(7, 0x10),              // 0x18 beq 0x10
                                            nop,
                                            exit_with(r6)};
  CHECK(both_ways(words, 200'000, 200'000).skipped > 190'000);
}

TEST_CASE(
    "a polling lap through two backward branches is skipped after the watch used up its switches") {
  // Six loops taken once each use up the run's switches of the watch, which
  // stays on the last; then a polling lap that passes two backward
  // branches. The watch must move to a branch the lap comes round to, not
  // stay on one left behind.
  std::vector<std::uint32_t> words;
  for (std::uint32_t loop = 0; loop < 6; ++loop) {
    const auto at = static_cast<std::uint32_t>(4 * words.size());
    words.insert(words.end(), {ri(add, r7, r0, 2), ri(sub, r7, r7, 1, true), br(6, at + 4), nop});
  }
  const auto lap = static_cast<std::uint32_t>(4 * words.size()); // 0x60
  words.insert(words.end(), {sls(false, r6, data),               // lap:      ld [data], r6
                             br(0, lap + 0x20),                  // lap+0x04: bt lap+0x20
                             nop,                                //
                             ri(sub, r0, r6, 0, true),           // lap+0x0c: sub.f r6, 0, r0
                             br(7, lap),                         // lap+0x10: beq lap (backward)
                             nop,                                //
                             exit_with(r6),                      // lap+0x18
                             nop,                                //
                             br(0, lap + 0x0c),                  // lap+0x20: bt lap+0x0c (backward)
                             nop});
  // One run, so that no new run gives the watch its switches back.
  CHECK(both_ways(words, 200'000, 200'000).skipped > 190'000);
}

TEST_CASE("random instruction streams give the same state with and without fast-forward") {
  std::size_t skipping = 0;
  for (std::uint64_t seed = 0; seed < 1500; ++seed) {
    lanai::kernel::RandomStream rng(seed, "fast-forward-program");
    std::vector<std::uint32_t> words(64);
    for (auto& w : words) {
      w = static_cast<std::uint32_t>(rng.next_u64());
      // Many backward branches into the program, and loads and stores.
      const std::uint32_t kind = rng.uniform_u32(0, 5);
      if (kind == 0)
        w = br(rng.uniform_u32(0, 15), 4 * rng.uniform_u32(0, 63));
      else if (kind == 1)
        w = (w & 0x0FFFFFFFu) | (rng.uniform_u32(8, 11) << 28);
    }
    std::array<std::uint32_t, 32> regs{};
    for (unsigned r = 3; r < 32; ++r) {
      const std::uint32_t v = static_cast<std::uint32_t>(rng.next_u64());
      regs[r] = (r % 2 == 0) ? (0x400 + v % 0x1000) & ~3u : v % 8;
    }
    const Snapshot plain = run_in_steps(words, false, &regs, 997, 20'000, 0x2000);
    const Snapshot fast = run_in_steps(words, true, &regs, 997, 20'000, 0x2000);
    const Snapshot stepped = run_in_steps(words, true, &regs, 997, 20'000, 0x2000, false);
    CHECK(fast.same_as(plain));
    // Blocks or not, the watch sees the same laps and skips the same ones.
    CHECK(stepped.same_as(fast));
    CHECK(stepped.skipped == fast.skipped);
    if (fast.skipped > 0)
      ++skipping;
  }
  CHECK(skipping > 0);
}

TEST_CASE("random loops of loads, stores, arithmetic and register reads agree both ways") {
  // Loop bodies drawn from what polling loops do: arithmetic on loop
  // registers, loads and stores near a base, stable and unstable register
  // reads; some repeat their state (and are skipped), some drift.
  std::size_t skipping = 0, drifting = 0;
  for (std::uint64_t seed = 0; seed < 800; ++seed) {
    lanai::kernel::RandomStream rng(seed, "fast-forward-loop");
    auto pick = [&](std::initializer_list<std::uint32_t> set) {
      return *(set.begin() + rng.uniform_u32(0, static_cast<std::uint32_t>(set.size() - 1)));
    };
    std::vector<std::uint32_t> words;
    for (std::uint32_t r = 16; r <= 18; ++r)
      words.push_back(sli(r, 0x800 + 0x40 * (r - 16)));
    words.push_back(sli(19, rng.uniform_u32(0, 3)));
    const std::uint32_t head = static_cast<std::uint32_t>(4 * words.size());
    const std::uint32_t body = rng.uniform_u32(2, 10);
    for (std::uint32_t i = 0; i < body; ++i) {
      const std::uint32_t rd = pick({9, 10, 11, 12});
      switch (rng.uniform_u32(0, 9)) {
      case 0:
      case 1:
      case 2:
        words.push_back(rr(static_cast<Alu>(rng.uniform_u32(0, 6)), rd, pick({9, 10, 16, 19}),
                           pick({11, 12, 17, 19}), rng.uniform_u32(0, 1) == 1));
        break;
      case 3:
        words.push_back(ri(static_cast<Alu>(rng.uniform_u32(0, 6)), rd, pick({9, 19}),
                           rng.uniform_u32(0, 3), true));
        break;
      case 4:
      case 5:
        words.push_back(rm(false, rd, pick({16, 17, 18}), 2, 4 * rng.uniform_u32(0, 3)));
        break;
      case 6:
      case 7:
        words.push_back(
            rm(true, pick({9, 10, 19}), pick({16, 17, 18}), 2, 4 * rng.uniform_u32(0, 3)));
        break;
      case 8:
        words.push_back(sls(false, rd, 0x1F0000u | (LANAI_REG_SRAM_SIZE & 0xFFFFu)));
        break;
      default:
        words.push_back(sls(false, rd, 0x1F0000u | (LANAI_REG_CYCLE_LO & 0xFFFFu)));
        break;
      }
    }
    words.push_back(rr(sub, r0, pick({9, 10, 11}), pick({0, 12, 19}), true));
    words.push_back(br(pick({0, 2, 3, 4, 5, 6, 7, 10, 11}), head));
    words.push_back(nop);
    words.push_back(exit_with(r9));
    const Snapshot plain = run_in_steps(words, false, nullptr, 1'009, 30'000, 0x1000);
    const Snapshot fast = run_in_steps(words, true, nullptr, 1'009, 30'000, 0x1000);
    const Snapshot stepped = run_in_steps(words, true, nullptr, 1'009, 30'000, 0x1000, false);
    CHECK(fast.same_as(plain));
    CHECK(stepped.same_as(fast));
    CHECK(stepped.skipped == fast.skipped);
    if (fast.skipped > 0)
      ++skipping;
    else if (plain.stop == lanai::iss::StopReason::cycle_limit)
      ++drifting;
  }
  // Both kinds must be common, or the test checks little.
  CHECK(skipping > 100);
  CHECK(drifting > 100);
}
