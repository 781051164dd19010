// Directed tests of predecoded blocks against the reference path: stores
// into the running block (by the program, a device or the host), runs that
// end at every cycle inside a block, device accesses, wait states and
// yields in the middle of one, load-use interlocks across block boundaries,
// blocks forgotten by the thousand, and accesses held back by an access
// limit. Each program runs both ways with
// identical results, and gives the result worked out by hand.
#include <doctest/doctest.h>

#include "emulator/iss/block_builder.hpp"
#include "emulator/iss/block_cache.hpp"
#include "tests/iss/block_twin.hpp"
#include "tests/iss/lanai_encoding.hpp"

using namespace lanai::test;

namespace {

constexpr std::uint32_t new_add = ri(add, r3, r3, 100); // what the programs write over code

// Runs to the end, checking the two agree after every run of `slice` cycles
// (and that runs long enough for blocks did run some).
void run_both(BlockTwin& twin, std::uint64_t slice = 100'000, std::uint64_t end = 1'000'000) {
  while (twin.reference().cycles() < end && twin.run(twin.reference().cycles() + slice)) {
    REQUIRE(twin.difference().empty());
  }
  REQUIRE(twin.difference().empty());
  if (slice >= 16)
    CHECK(twin.blocks().block_instructions() > 0);
  CHECK(twin.reference().block_instructions() == 0);
}

// The value of the last write to the exit register.
std::uint32_t exit_value(const BlockTwin& twin) {
  const auto& log = twin.blocks_bus().log;
  REQUIRE(!log.empty());
  REQUIRE(log.back().address == TwinBus::exit);
  return log.back().value;
}

} // namespace

TEST_CASE("a store into the running block changes the instructions after it") {
  BlockTwin twin({ri(add, r3, r0, 1),        // 0x00
                  rm(true, r9, r0, 2, 0x10), // 0x04 st r9, [0x10]
                  ri(add, r3, r3, 2),        // 0x08
                  ri(add, r3, r3, 4),        // 0x0c
                  ri(add, r3, r3, 8),        // 0x10 becomes add r3, r3, 100
                  exit_with(r3)});
  twin.blocks().set_reg(r9, new_add);
  twin.reference().set_reg(r9, new_add);
  run_both(twin);
  CHECK(exit_value(twin) == 107u);
}

TEST_CASE("a device writing the running block's code changes the instructions after it") {
  BlockTwin twin({ri(add, r3, r0, 1),       // 0x00
                  sli(r6, 0x18),            // 0x04
                  sls(true, r6, 0x1F0014u), // 0x08 poke address <- 0x18
                  sls(true, r9, 0x1F0018u), // 0x0c poke data <- r9: [0x18] = r9
                  ri(add, r3, r3, 2),       // 0x10
                  ri(add, r3, r3, 4),       // 0x14
                  ri(add, r3, r3, 8),       // 0x18 becomes add r3, r3, 100
                  exit_with(r3)});
  twin.blocks().set_reg(r9, new_add);
  twin.reference().set_reg(r9, new_add);
  run_both(twin);
  CHECK(exit_value(twin) == 107u);
}

TEST_CASE("a host write into cached code between runs is executed") {
  // for (;;) r3 += 1 -- until the host turns the increment into += 100.
  const std::vector<std::uint32_t> loop = {ri(add, r3, r3, 1), br(0, 0x00), nop};
  BlockTwin twin(loop);
  twin.run(1'000);
  REQUIRE(twin.difference().empty());
  const std::uint32_t before = twin.reference().reg(r3);
  twin.blocks().write_word(0x00, new_add);
  twin.reference().write_word(0x00, new_add);
  twin.run(2'000);
  REQUIRE(twin.difference().empty());
  const std::uint32_t laps = (twin.reference().reg(r3) - before) / 100;
  CHECK(laps > 200);
  CHECK(twin.reference().reg(r3) == before + 100 * laps);
}

TEST_CASE("a run may end before any instruction of a block, at any cycle") {
  // A short loop with interlocks, part-word accesses and a device read;
  // every cycle limit from 1 on, fresh and in runs of that many cycles.
  lanai::iss::CycleCosts costs;
  costs.load_cycles = 2;
  costs.store_cycles = 3;
  costs.load_use_stall_cycles = 2;
  costs.mmio_cycles = 4;
  const std::vector<std::uint32_t> words = {sli(r6, 0x800),          // 0x00
                                            sli(r12, 3),             // 0x04 laps
                                            rm(false, r7, r6, 2, 4), // 0x08 the loop
                                            ri(add, r7, r7, 1),      // 0x0c interlock
                                            rm(true, r7, r6, 2, 8),  // 0x10
                                            spls(false, true, false, r9, r6, 2, 8), // 0x14 ld.b
                                            rr(add, r3, r9, r7),                    // 0x18
                                            sls(false, r10, 0x1F0008u), // 0x1c the cycle counter
                                            ri(shift, r3, r3, 2),       // 0x20
                                            ri(sub, r12, r12, 1, true), // 0x24
                                            br(6, 0x08),                // 0x28 bne
                                            scc(4, r11),                // 0x2c
                                            exit_with(r3)};
  for (std::uint64_t limit = 1; limit < 60; ++limit) {
    BlockTwin once(words, costs);
    once.run(limit);
    INFO("limit " << limit);
    REQUIRE(once.difference().empty());
    BlockTwin sliced(words, costs);
    run_both(sliced, limit, 500);
  }
}

TEST_CASE("a store of its own updated base register stores the old base, a load into it wins") {
  BlockTwin twin({sli(r6, 0x800),         // 0x00
                  rm(true, r6, r6, 1, 4), // 0x04 st r6, [r6++]: stores 0x800
                  rm(true, r6, r6, 3, 4), // 0x08 st r6, [++r6]: stores 0x804 at 0x808
                  spls(false, false, true, r6, r6, 3, -8), // 0x0c uld.h [r6 -= 8]: r6 <- [0x800].h
                  rr(add, r3, r6, r0),                     // 0x10
                  exit_with(r3)});
  run_both(twin);
  CHECK(twin.blocks().read_word(0x800) == 0x800u);
  CHECK(twin.blocks().read_word(0x808) == 0x804u);
  CHECK(exit_value(twin) == 0u); // the high half of 0x00000800
}

TEST_CASE("a load into the pc runs its two delay slots, device accesses in them included") {
  // A return through the stack, with a device access in one slot or the
  // other, stopped at every cycle and run whole.
  for (const bool device_first : {false, true}) {
    const std::uint32_t access = sls(true, r9, 0x1F000Cu); // 3 wait states
    const std::vector<std::uint32_t> words = {
        sli(sp, 0x2000),                            // 0x00
        sli(r6, 0x24),                              // 0x04 the return address
        rm(true, r6, sp, 2, -4),                    // 0x08 st r6, -4[sp]
        ri(add, r9, r0, 3),                         // 0x0c
        rm(false, pc, sp, 2, -4),                   // 0x10 ld -4[sp], pc
        device_first ? access : ri(add, r3, r3, 1), // 0x14 slot 1
        device_first ? ri(add, r3, r3, 1) : access, // 0x18 slot 2
        ri(add, r3, r3, 100),                       // 0x1c skipped
        ri(add, r3, r3, 100),                       // 0x20 skipped
        ri(add, r3, r3, 2),                         // 0x24 the return address
        exit_with(r3)};
    for (std::uint64_t limit = 1; limit < 30; ++limit) {
      BlockTwin twin(words);
      INFO("limit " << limit << (device_first ? ", device access in slot 1" : ", in slot 2"));
      run_both(twin, limit);
      CHECK(exit_value(twin) == 3u);
    }
  }
}

TEST_CASE("a device read inside a block sees the cycle of its own instruction") {
  lanai::iss::CycleCosts costs;
  costs.alu_cycles = 1;
  costs.load_cycles = 2;
  costs.load_use_stall_cycles = 1;
  costs.mmio_cycles = 3;
  BlockTwin twin({ri(add, r6, r0, 0x800),    // 0x00 starts at 0 (1 cycle)
                  rm(false, r7, r6, 2, 0),   // 0x04 at 1 (2)
                  ri(add, r7, r7, 1),        // 0x08 at 3 (1 + interlock 1)
                  sls(false, r3, 0x1F0008u), // 0x0c at 5: reads the cycle counter
                  exit_with(r3)},
                 costs);
  run_both(twin);
  CHECK(exit_value(twin) == 5u);
}

TEST_CASE("a block's first instructions as a block of their own end where the next one starts") {
  lanai::iss::CycleCosts costs;
  costs.alu_cycles = 1;
  costs.load_cycles = 2;
  costs.load_use_stall_cycles = 3;
  const std::uint32_t words[] = {ri(add, r6, r0, 0x800),  // 0x00 at 0
                                 rm(false, r7, r6, 2, 0), // 0x04 at 1: a load into r7
                                 ri(add, r7, r7, 1),      // 0x08 at 3, then an interlock
                                 ri(add, r3, r7, 2),      // 0x0c at 7
                                 br(0, 0x40),             // 0x10 at 8: a branch
                                 nop};                    // 0x14 its delay slot
  std::vector<std::uint8_t> sram(0x100);
  for (std::size_t i = 0; i < std::size(words); ++i)
    for (int b = 0; b < 4; ++b)
      sram[4 * i + b] = static_cast<std::uint8_t>(words[i] >> (24 - 8 * b));
  std::vector<lanai::iss::BlockOp> ops, prefix_ops;
  lanai::iss::Block block = lanai::iss::build_block(0, sram.data(), 0x100, costs, ops);
  block.ops = ops.data();
  REQUIRE(block.count == 6);
  const lanai::iss::Block prefix = lanai::iss::prefix_block(block, 2, prefix_ops);
  CHECK(prefix.ops == prefix_ops.data());
  CHECK(prefix_ops.size() == 3);
  CHECK(prefix_ops.back().kind == lanai::iss::OpKind::end);
  CHECK(prefix.count == 2);
  CHECK(prefix.end_pc == 0x08u);
  CHECK(prefix.last_pc == 0x04u);
  CHECK(prefix.cycles == 3u);       // the third instruction's start, before its interlock
  CHECK(prefix.loaded_after == r7); // which the stepper then charges
  CHECK(prefix.max_start == 1u);
  CHECK(prefix.delay_slots == 0u);
  CHECK(prefix.first_reads == block.first_reads);
}

TEST_CASE("a block's prefix is built once, and built again once its code changed") {
  lanai::iss::CycleCosts costs;
  std::vector<std::uint8_t> sram(0x100);
  auto put = [&](std::uint32_t at, std::uint32_t word) {
    for (int b = 0; b < 4; ++b)
      sram[at + b] = static_cast<std::uint8_t>(word >> (24 - 8 * b));
  };
  const std::uint32_t words[] = {ri(add, r3, r3, 1), ri(add, r6, r6, 2), ri(add, r7, r7, 3),
                                 br(0, 0x40), nop};
  for (std::uint32_t i = 0; i < std::size(words); ++i)
    put(4 * i, words[i]);
  lanai::iss::BlockCache cache(0x100);
  const lanai::iss::Block& block = cache.build(0, sram.data(), 0x100, costs);
  REQUIRE(block.count == 5);
  const lanai::iss::Block& two = cache.prefix(block, 2);
  CHECK(&cache.prefix(block, 2) == &two); // kept, not built again
  const lanai::iss::Block& one = cache.prefix(block, 1);
  CHECK(&one != &two);
  CHECK(one.count == 1);
  CHECK(two.count == 2);
  CHECK(two.ops[1].imm == 2u);
  CHECK(two.ops[2].kind == lanai::iss::OpKind::end);
  // The second instruction changes: the block and its prefixes are dropped.
  put(4, ri(add, r6, r6, 7));
  cache.forget_covering(1);
  CHECK(cache.entries()[0] == nullptr);
  const lanai::iss::Block& rebuilt = cache.build(0, sram.data(), 0x100, costs);
  const lanai::iss::Block& two_again = cache.prefix(rebuilt, 2);
  CHECK(two_again.ops[1].imm == 7u);
  CHECK(two_again.count == 2);
}

TEST_CASE("staging registers are written and direct registers read in place, as stepped") {
  lanai::iss::CycleCosts costs;
  costs.mmio_cycles = 3;
  costs.store_cycles = 1;
  BlockTwin twin(
      {ri(add, r6, r0, 0x1234),   // 0x00
       sls(true, r6, 0x1F001Cu),  // 0x04 staging <- r6 (in place)
       sls(false, r3, 0x1F0020u), // 0x08 the direct register (in place)
       sls(false, r7, 0x1F001Cu), // 0x0c the staging register, through the bus
       sls(false, r9, 0x1F0008u), // 0x10 the cycle: the accesses cost what they do stepped
       ri(add, r3, r3, 0),        // 0x14
       exit_with(r3)},
      costs);
  run_both(twin);
  CHECK(exit_value(twin) == 0x1234u * 2654435761u + 1u);
  CHECK(twin.blocks_bus().staged == 0x1234u);
  CHECK(twin.blocks().reg(r7) == 0x1234u);
  CHECK(twin.blocks().reg(r9) == twin.reference().reg(r9));
  // The core running blocks never called the bus for them; the stepped one did.
  CHECK(twin.blocks_bus().bus_staging_writes == 0);
  CHECK(twin.blocks_bus().bus_direct_reads == 0);
  CHECK(twin.reference_bus().bus_staging_writes == 1);
  CHECK(twin.reference_bus().bus_direct_reads == 1);
}

TEST_CASE("wait states and a yield requested by a device mid-block land where they do stepped") {
  BlockTwin twin({ri(add, r6, r0, 5),       // 0x00
                  sls(true, r6, 0x1F000Cu), // 0x04 stall 5 cycles
                  ri(add, r3, r0, 1),       // 0x08
                  ri(add, r3, r3, 2),       // 0x0c
                  sls(true, r3, 0x1F0010u), // 0x10 yield: the run ends after it
                  ri(add, r3, r3, 4),       // 0x14
                  exit_with(r3)});
  twin.run(1'000);
  REQUIRE(twin.difference().empty());
  CHECK(twin.blocks().pc() == 0x14u);
  CHECK(twin.blocks().cycles() == 3u * 1u + 2u * 3u + 5u); // 3 ALU, 2 device accesses, 5 waits
  run_both(twin);
  CHECK(exit_value(twin) == 7u);
}

TEST_CASE("a yield the driver finds harmless lets the block and the run go on") {
  // A driver whose limits an access cannot move (Cpu::set_yield_check)
  // has the run go on after the yield, to the same state the reference
  // path reaches in the runs that follow; one that refuses ends it there.
  for (const bool harmless : {true, false}) {
    CAPTURE(harmless);
    BlockTwin twin({ri(add, r3, r0, 1),       // 0x00
                    sls(true, r3, 0x1F0010u), // 0x04 yield
                    ri(add, r3, r3, 2),       // 0x08
                    ri(add, r3, r3, 4),       // 0x0c
                    exit_with(r3)});
    int asked = 0;
    struct Driver {
      int* asked;
      bool answer;
    } driver{&asked, harmless};
    twin.blocks().set_yield_check(
        [](void* d) {
          auto& self = *static_cast<Driver*>(d);
          ++*self.asked;
          return self.answer;
        },
        &driver);
    twin.blocks().run(1'000);
    CHECK(asked == 1);
    if (harmless) {
      CHECK(twin.blocks().state() == lanai::iss::StopReason::halted); // ran to the exit
    } else {
      CHECK(twin.blocks().state() == lanai::iss::StopReason::cycle_limit);
      CHECK(twin.blocks().pc() == 0x08u); // the run ended after the access
    }
    while (twin.reference().run(1'000) == lanai::iss::StopReason::cycle_limit &&
           twin.reference().cycles() < 1'000) {
    }
    while (twin.blocks().run(1'000) == lanai::iss::StopReason::cycle_limit &&
           twin.blocks().cycles() < 1'000) {
    }
    CHECK(twin.difference().empty());
    CHECK(exit_value(twin) == 7u);
  }
}

TEST_CASE("a load-use interlock across a taken branch and into a block's first instruction") {
  lanai::iss::CycleCosts costs;
  costs.load_use_stall_cycles = 3;
  BlockTwin twin({sli(r6, 0x800),          // 0x00
                  br(0, 0x10),             // 0x04 bt 0x10
                  rm(false, r7, r6, 2, 0), // 0x08 delay slot loads r7
                  nop,                     // 0x0c
                  ri(add, r3, r7, 9),      // 0x10 uses r7 at once: interlock
                  exit_with(r3)},
                 costs);
  twin.blocks().write_word(0x800, 33);
  twin.reference().write_word(0x800, 33);
  run_both(twin);
  CHECK(exit_value(twin) == 42u);
  // sli, bt (taken), ld, add + interlock, then the exit register.
  CHECK(twin.blocks().cycles() == 1u + 2u + 1u + (1u + 3u) + 3u);
}

TEST_CASE("a load into the pc right after a load of its base jumps without an interlock") {
  lanai::iss::CycleCosts costs;
  costs.load_use_stall_cycles = 3;
  BlockTwin twin({sli(r6, 0x800),          // 0x00
                  br(0, 0x10),             // 0x04 bt 0x10
                  rm(false, r7, r6, 2, 0), // 0x08 delay slot: r7 <- 0x900
                  nop,                     // 0x0c
                  rm(false, pc, r7, 2, 0), // 0x10 ld 0[r7], pc: a jump, no interlock
                  ri(add, r3, r0, 5),      // 0x14 slot 1
                  nop,                     // 0x18 slot 2
                  ri(add, r3, r3, 100),    // 0x1c skipped
                  exit_with(r3)},          // 0x20
                 costs);
  twin.write_word(0x800, 0x900);
  twin.write_word(0x900, 0x20);
  run_both(twin);
  CHECK(exit_value(twin) == 5u);
  // sli, bt (taken), ld, ld into pc (as a taken branch), add, nop, the exit register.
  CHECK(twin.blocks().cycles() == 1u + 2u + 1u + 2u + 1u + 1u + 3u);
}

TEST_CASE("blocks forgotten by the thousand are reclaimed and rebuilt right") {
  // A 40-instruction loop body whose last store flips its first instruction
  // between two increments every lap: each lap drops the block.
  std::vector<std::uint32_t> words = {sli(r9, 0), sli(r10, 300)};
  const std::uint32_t head = 4 * static_cast<std::uint32_t>(words.size());
  words.push_back(ri(add, r3, r3, 1)); // rewritten every lap
  for (int i = 0; i < 36; ++i)
    words.push_back(ri(add, r11, r11, 1));
  words.push_back(rr(xor_, r12, r12, r13)); // r12 flips between the two words
  words.push_back(rm(true, r12, r0, 2, static_cast<std::int32_t>(head)));
  words.push_back(ri(sub, r10, r10, 1, true));
  words.push_back(br(6, head)); // bne
  words.push_back(nop);
  words.push_back(exit_with(r3));
  BlockTwin twin(words);
  for (auto* cpu : {&twin.blocks(), &twin.reference()}) {
    cpu->set_reg(r12, ri(add, r3, r3, 1));
    cpu->set_reg(r13, ri(add, r3, r3, 1) ^ ri(add, r3, r3, 1000));
  }
  run_both(twin, 997);
  // Laps alternate +1 and +1000: 150 of each.
  CHECK(exit_value(twin) == 150u * 1u + 150u * 1000u);
}

TEST_CASE("an access past the access limit is not made: the run stops before it, as stepped") {
  // Private work, a device write at 0x0c, more private work and a read of
  // the cycle counter at 0x18: with the access limit at every cycle, both
  // ways stop at the same instruction, the access unmade, and then go on.
  const std::vector<std::uint32_t> words = {ri(add, r6, r0, 5),        // 0x00
                                            ri(add, r6, r6, 1),        // 0x04
                                            ri(add, r6, r6, 1),        // 0x08
                                            sls(true, r6, 0x1F0000u),  // 0x0c console
                                            ri(add, r7, r6, 1),        // 0x10
                                            ri(add, r7, r7, 1),        // 0x14
                                            sls(false, r3, 0x1F0008u), // 0x18 cycle counter
                                            ri(add, r3, r3, 0),        // 0x1c
                                            exit_with(r3)};
  for (std::uint64_t limit = 0; limit < 20; ++limit) {
    CAPTURE(limit);
    BlockTwin twin(words);
    twin.blocks().set_access_limit(limit);
    twin.reference().set_access_limit(limit);
    twin.run(1'000);
    REQUIRE(twin.difference().empty());
    const std::uint64_t stopped = twin.reference().cycles();
    CHECK((stopped >= limit || twin.reference().state() == lanai::iss::StopReason::halted));
    if (limit <= 3) {
      CHECK(twin.reference().pc() == 0x0cu);
      CHECK(twin.blocks_bus().log.empty());
    } else if (limit <= 3 + 3 + 2) {
      // The console write (a 3-cycle access at cycle 3) was made.
      CHECK(twin.reference().pc() == 0x18u);
      CHECK(twin.blocks_bus().log.size() == 1u);
    }
    twin.blocks().set_access_limit(~std::uint64_t{0});
    twin.reference().set_access_limit(~std::uint64_t{0});
    run_both(twin);
    // The cycle read sees its own instruction's cycle, limit or not.
    CHECK(exit_value(twin) == 3u + 3u + 2u);
  }
}
