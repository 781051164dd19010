// Directed tests of the LANai core: delay slots, pc reads and writes,
// flags and conditions, addressing modes, constant registers, shifts,
// self-modifying code and the cycle model.
#include <doctest/doctest.h>

#include <cstdint>

#include "tests/iss/lanai_encoding.hpp"
#include "tests/iss/program_runner.hpp"

using namespace lanai::test;
using lanai::iss::StopReason;

TEST_CASE("a taken branch executes exactly one delay-slot instruction") {
  ProgramRun p({ri(add, r3, r0, 1),   // 0x00
                br(0, 0x10),          // 0x04 bt 0x10
                ri(add, r3, r3, 10),  // 0x08 delay slot: runs
                ri(add, r3, r3, 100), // 0x0c skipped
                exit_with(r3)});      // 0x10
  p.run();
  CHECK(p.stop == StopReason::halted);
  CHECK(p.exit_code() == 11);
}

TEST_CASE("an untaken conditional branch falls through") {
  ProgramRun p({ri(sub, r3, r0, 0, true), // sets Z
                br(6, 0x14),              // bne: not taken
                ri(add, r3, r3, 10), ri(add, r3, r3, 100), exit_with(r3), exit_with(r0)});
  p.run();
  CHECK(p.exit_code() == 110);
}

TEST_CASE("a load into pc has two delay slots") {
  ProgramRun p({sli(r6, 0x100),          // 0x00 r6 <- 0x100 (holds the target)
                ri(add, r3, r0, 0),      // 0x04
                rm(false, pc, r6, 2, 0), // 0x08 ld 0[%r6], %pc
                ri(add, r3, r3, 1),      // 0x0c slot 1
                ri(add, r3, r3, 2),      // 0x10 slot 2
                ri(add, r3, r3, 100),    // 0x14 skipped
                exit_with(r0)});
  p.cpu->write_word(0x100, 0x200);
  p.cpu->write_word(0x200, exit_with(r3));
  p.run();
  CHECK(p.exit_code() == 3);
}

TEST_CASE("an ALU write to pc is a jump with one delay slot, reading pc gives this instruction") {
  ProgramRun p({ri(add, rca, pc, 0x10),          // 0x00 rca <- 0x10
                sli(r7, 0x40),                   // 0x04
                rr(add, pc, r7, r0),             // 0x08 mov %r7, %pc
                ri(add, r3, r0, 5),              // 0x0c delay slot
                exit_with(r0)});                 // 0x10 skipped
  p.cpu->write_word(0x40, rr(add, r3, r3, rca)); // r3 = 5 + 0x10
  p.cpu->write_word(0x44, exit_with(r3));
  p.run();
  CHECK(p.exit_code() == 0x15);
}

TEST_CASE("r0 reads zero and r1 reads all ones whatever is written") {
  ProgramRun p({ri(add, r0, r0, 7), ri(add, r1, r0, 7), rr(add, r3, r0, r1), exit_with(r3)});
  p.run();
  CHECK(static_cast<std::uint32_t>(p.exit_code()) == 0xFFFFFFFFu);
}

namespace {

// Reference condition semantics for sub.f a, b (a - b).
bool expected(unsigned cond, std::uint32_t a, std::uint32_t b) {
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  const std::uint32_t r = a - b;
  const bool v = ((a ^ b) & (a ^ r)) >> 31;
  const bool n = r >> 31;
  switch (cond) {
  case 0:
    return true;
  case 1:
    return false;
  case 2:
    return a > b;
  case 3:
    return a <= b;
  case 4:
    return a < b;
  case 5:
    return a >= b;
  case 6:
    return a != b;
  case 7:
    return a == b;
  case 8:
    return !v;
  case 9:
    return v;
  case 10:
    return !n;
  case 11:
    return n;
  case 12:
    return sa >= sb;
  case 13:
    return sa < sb;
  case 14:
    return sa > sb;
  default:
    return sa <= sb;
  }
}

} // namespace

TEST_CASE("sub.f sets flags so that every condition matches its comparison") {
  const std::uint32_t values[] = {0,          1,          2,     0x7FFFFFFF, 0x80000000,
                                  0x80000001, 0xFFFFFFFF, 12345, 0xFFFF0000};
  for (std::uint32_t a : values)
    for (std::uint32_t b : values)
      for (unsigned cond = 0; cond < 16; ++cond) {
        ProgramRun p(
            {sli(r6, 0), sli(r7, 0), rr(sub, r0, r6, r7, true), scc(cond, r3), exit_with(r3)});
        p.cpu->set_reg(r6, a);
        p.cpu->set_reg(r7, b);
        p.cpu->reset(8);
        p.cpu->set_reg(r6, a);
        p.cpu->set_reg(r7, b);
        p.run();
        INFO("a=" << a << " b=" << b << " cond=" << cond);
        CHECK(p.exit_code() == int(expected(cond, a, b)));
      }
}

TEST_CASE("add.f/addc and sub.f/subb chain carries across 64-bit values") {
  const std::uint64_t pairs[][2] = {{0xFFFFFFFFull, 1},
                                    {0x00000001FFFFFFFFull, 0x00000000FFFFFFFFull},
                                    {0x8000000000000000ull, 0x8000000000000000ull},
                                    {5, 7},
                                    {0, 0xFFFFFFFFFFFFFFFFull}};
  for (const auto& pr : pairs) {
    // r20:r21 = a + b, r22:r23 = a - b (low word first).
    ProgramRun p({rr(add, 20, r6, 18, true), rr(addc, 21, r7, 19), rr(sub, 22, r6, 18, true),
                  rr(subb, 23, r7, 19), exit_with(r0)});
    p.cpu->set_reg(r6, std::uint32_t(pr[0]));
    p.cpu->set_reg(r7, std::uint32_t(pr[0] >> 32));
    p.cpu->set_reg(18, std::uint32_t(pr[1]));
    p.cpu->set_reg(19, std::uint32_t(pr[1] >> 32));
    p.run();
    const std::uint64_t sum = std::uint64_t(p.cpu->reg(21)) << 32 | p.cpu->reg(20);
    const std::uint64_t diff = std::uint64_t(p.cpu->reg(23)) << 32 | p.cpu->reg(22);
    CHECK(sum == pr[0] + pr[1]);
    CHECK(diff == pr[0] - pr[1]);
  }
}

TEST_CASE("add.f sets carry and overflow like two's complement hardware") {
  struct Case {
    std::uint32_t a, b;
    bool c, v, n, z;
  };
  const Case cases[] = {{0x7FFFFFFF, 1, false, true, true, false},
                        {0xFFFFFFFF, 1, true, false, false, true},
                        {0x80000000, 0x80000000, true, true, false, true},
                        {1, 2, false, false, false, false}};
  for (const auto& c : cases) {
    ProgramRun p({rr(add, r3, r6, r7, true), exit_with(r0)});
    p.cpu->set_reg(r6, c.a);
    p.cpu->set_reg(r7, c.b);
    p.run();
    const auto f = p.cpu->flags();
    CHECK(f.c == c.c);
    CHECK(f.v == c.v);
    CHECK(f.n == c.n);
    CHECK(f.z == c.z);
  }
}

TEST_CASE("logic .f forms clear carry and overflow; RR ALU ops obey their predicate") {
  ProgramRun p({rr(add, r3, r6, r6, true), // 0x80000000+0x80000000: C and V set
                rr(or_, r9, r6, r0, true), // N set, C/V cleared
                ri(add, r3, r0, 1),
                rr(add, r3, r3, r3, false, 7), // predicated on eq: Z clear -> skipped
                rr(add, r3, r3, r3, false, 6), // predicated on ne -> runs
                exit_with(r3)});
  p.cpu->set_reg(r6, 0x80000000u);
  p.run();
  const auto f = p.cpu->flags();
  CHECK_FALSE(f.c);
  CHECK_FALSE(f.v);
  CHECK(f.n);
  CHECK(p.exit_code() == 2);
}

TEST_CASE("shifts: positive counts shift left, negative right, sha keeps the sign") {
  ProgramRun p({ri(shift, 20, r6, 4), ri(shift, 21, r6, std::uint32_t(-4)),
                ri(shift, 22, r6, std::uint32_t(-4), false, true),
                rr(shift, 23, r6, r7, false, 0, 0x18), exit_with(r0)});
  p.cpu->set_reg(r6, 0x80000010u);
  p.cpu->set_reg(r7, std::uint32_t(-31));
  p.run();
  CHECK(p.cpu->reg(20) == 0x00000100u);
  CHECK(p.cpu->reg(21) == 0x08000001u);
  CHECK(p.cpu->reg(22) == 0xF8000001u);
  CHECK(p.cpu->reg(23) == 0xFFFFFFFFu);
}

TEST_CASE("sel picks by condition and popc/leadz/trailz count bits") {
  ProgramRun p({rr(sub, r0, r6, r7, true), rr(shift, 20, r6, r7, false, 13, 0), // sel.lt
                special(1, 21, r6), special(2, 22, r6), special(3, 23, r6), special(2, 24, r0),
                exit_with(r0)});
  p.cpu->set_reg(r6, 0x00F00000u);
  p.cpu->set_reg(r7, 0x10000000u);
  p.run();
  CHECK(p.cpu->reg(20) == 0x00F00000u);
  CHECK(p.cpu->reg(21) == 4u);
  CHECK(p.cpu->reg(22) == 8u);
  CHECK(p.cpu->reg(23) == 20u);
  CHECK(p.cpu->reg(24) == 32u);
}

TEST_CASE("pre/post increment and register+register addressing, big-endian part words") {
  ProgramRun p({rm(true, r6, sp, 3, -4),                 // st %r6, [--%sp]
                rm(false, 20, sp, 1, 4),                 // ld [%sp++], %r20
                spls(false, true, false, 21, r7, 2, 1),  // ld.b 1[%r7] (sign-extended)
                spls(false, true, true, 22, r7, 2, 1),   // uld.b 1[%r7]
                spls(false, false, false, 23, r7, 2, 2), // ld.h 2[%r7]
                rrm(false, 24, r7, r9, 2, 0, true),      // uld.h [%r7 add %r9]
                rrm(true, r6, r7, r9, 3, 2, false),      // st.b [*%r7 add %r9], r7 += r9
                exit_with(r0)});
  p.cpu->set_reg(sp, 0x1000);
  p.cpu->set_reg(r6, 0x11223344u);
  p.cpu->set_reg(r7, 0x2000);
  p.cpu->set_reg(r9, 2);
  p.cpu->write_word(0x2000, 0x0180F00Du);
  p.run();
  CHECK(p.cpu->reg(sp) == 0x1000u);
  CHECK(p.cpu->reg(20) == 0x11223344u);
  CHECK(p.cpu->read_word(0xFFC) == 0x11223344u);
  CHECK(p.cpu->reg(21) == 0xFFFFFF80u);
  CHECK(p.cpu->reg(22) == 0x80u);
  CHECK(p.cpu->reg(23) == 0xFFFFF00Du);
  CHECK(p.cpu->reg(24) == 0xF00Du);
  CHECK(p.cpu->reg(r7) == 0x2002u);
  CHECK(p.cpu->read_word(0x2000) == 0x0180440Du);
}

TEST_CASE("a store over code is seen by the next fetch of that word") {
  // r7 <- encoding of "add %r3, 40, %r3"
  const std::uint32_t patched = ri(add, r3, r3, 40);
  ProgramRun q({ri(add, r3, r0, 1), sli(r6, 0x24), ri(add, r7, r0, patched >> 16, false, true),
                ri(or_, r7, r7, patched & 0xFFFF), rm(true, r7, r6, 2, 0), nop, nop, nop, nop,
                ri(add, r3, r3, 1), exit_with(r3)});
  q.run();
  CHECK(q.exit_code() == 41);
}

TEST_CASE("cycle model charges each class, taken branches and the load-use interlock") {
  lanai::iss::CycleCosts costs{2, 3, 5, 7, 11, 13, 17};
  ProgramRun p({ri(add, r3, r0, 1),         // alu 2
                rm(false, r6, r0, 2, 0x40), // load 3
                ri(add, r6, r6, 1),         // alu 2 + stall 17 (reads r6)
                rm(true, r6, r0, 2, 0x40),  // store 5
                br(1, 0x100),               // bf: untaken 11
                br(0, 0x1c),                // bt: taken 7
                nop,                        // delay slot alu 2
                exit_with(r3)},             // mmio 13
               costs);
  p.run();
  CHECK(p.stop == StopReason::halted);
  CHECK(p.cpu->instructions() == 8);
  CHECK(p.cpu->cycles() == 2 + 3 + 2 + 17 + 5 + 11 + 7 + 2 + 13);
}

TEST_CASE("the load-use interlock counts reads of the loaded register, not overwrites") {
  lanai::iss::CycleCosts costs{1, 1, 1, 1, 1, 1, 10};
  ProgramRun overwrite({rm(false, r6, r0, 2, 0x40), ri(add, r6, r0, 5), exit_with(r6)}, costs);
  overwrite.run();
  CHECK(overwrite.cpu->cycles() == 3);
  ProgramRun store_data({rm(false, r6, r0, 2, 0x40), rm(true, r6, r0, 2, 0x44), exit_with(r0)},
                        costs);
  store_data.run();
  CHECK(store_data.cpu->cycles() == 13);
}
