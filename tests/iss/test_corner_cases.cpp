// Directed tests of corner cases of the LANai core: shift counts and flags,
// carry chains, every load width and extension, address write-back, reads
// of %pc, branches in delay slots, sel/scc with every condition, SLS/SLI.
#include <doctest/doctest.h>

#include <cstdint>

#include "emulator/iss/fault.hpp"
#include "tests/iss/lanai_encoding.hpp"
#include "tests/iss/program_runner.hpp"

using namespace lanai::test;
using lanai::iss::FaultKind;
using lanai::iss::StopReason;

namespace {

constexpr std::uint32_t sh_j = 0x10, sha_j = 0x18;

// Runs `words` with r6/r7 preset and returns the finished run.
ProgramRun run_with(const std::vector<std::uint32_t>& words, std::uint32_t r6v, std::uint32_t r7v) {
  ProgramRun p(words);
  p.cpu->set_reg(r6, r6v);
  p.cpu->set_reg(r7, r7v);
  p.run();
  return p;
}

std::uint32_t shift_rr(std::uint32_t value, std::uint32_t count, bool arithmetic) {
  auto p = run_with({rr(shift, r3, r6, r7, false, 0, arithmetic ? sha_j : sh_j), exit_with(r0)},
                    value, count);
  return p.cpu->reg(r3);
}

// Reference for the sub.f conditions, as LLVM's LanaiCondCode.h names them.
bool holds(unsigned cond, std::uint32_t a, std::uint32_t b) {
  const auto sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
  const std::uint32_t r = a - b;
  const bool v = ((a ^ b) & (a ^ r)) >> 31;
  const bool n = r >> 31;
  const bool table[16] = {true, false, a > b, a <= b, a < b,    a >= b,        a != b,  a == b,
                          !v,   v,     !n,    n,      sa >= sb, sa<sb, sa> sb, sa <= sb};
  return table[cond];
}

} // namespace

TEST_CASE("register shift counts 0 and +-31 are exact for sh and sha") {
  const std::uint32_t a = 0x80000011u;
  CHECK(shift_rr(a, 0, false) == a);
  CHECK(shift_rr(a, 0, true) == a);
  CHECK(shift_rr(a, 31, false) == 0x80000000u);
  CHECK(shift_rr(a, 31, true) == 0x80000000u); // sha by a positive count shifts left
  CHECK(shift_rr(a, std::uint32_t(-31), false) == 1u);
  CHECK(shift_rr(a, std::uint32_t(-31), true) == 0xFFFFFFFFu);
  CHECK(shift_rr(0x40000000u, std::uint32_t(-30), true) == 1u);
}

TEST_CASE("shift counts beyond +-31 wrap modulo 32 (as LLVM's Lanai lowering states)") {
  // Not observable from clang-14 code: its 64-bit shift lowering selects
  // away every out-of-range shift result.
  const std::uint32_t a = 0x80000011u;
  CHECK(shift_rr(a, 32, false) == a);
  CHECK(shift_rr(a, 33, false) == 0x00000022u);
  CHECK(shift_rr(a, std::uint32_t(-32), false) == a);
  CHECK(shift_rr(a, std::uint32_t(-33), false) == 0x40000008u);
  CHECK(shift_rr(a, std::uint32_t(-33), true) == 0xC0000008u);
  CHECK(shift_rr(a, 0x7FFFFFFFu, false) == 0x80000000u);
  CHECK(shift_rr(a, 0x80000000u, true) == a);
}

TEST_CASE("sh.f: C is the last bit shifted out to the left, right shifts clear C and V") {
  struct Case {
    std::uint32_t count;
    bool c, n, z;
    std::uint32_t r;
  };
  const Case cases[] = {{1, true, false, false, 0x22u},
                        {31, false, true, false, 0x80000000u}, // bit 1 is the last one out
                        {32, false, true, false, 0x80000011u}, // wraps to no shift
                        {0, false, true, false, 0x80000011u},
                        {std::uint32_t(-1), false, false, false, 0x40000008u},
                        {std::uint32_t(-5), false, false, false, 0x04000000u}};
  for (const auto& c : cases) {
    // add.f first sets C and V, so stale values would show.
    auto p =
        run_with({rr(add, r0, r6, r6, true), rr(shift, r3, r6, r7, true, 0, sh_j), exit_with(r0)},
                 0x80000011u, c.count);
    INFO("count=" << std::int32_t(c.count));
    const auto f = p.cpu->flags();
    CHECK(p.cpu->reg(r3) == c.r);
    CHECK(f.c == c.c);
    CHECK_FALSE(f.v);
    CHECK(f.n == c.n);
    CHECK(f.z == c.z);
  }
}

TEST_CASE("immediate shifts take a sign-extended 16-bit count") {
  auto p = run_with({ri(shift, 20, r6, 31), ri(shift, 21, r6, std::uint32_t(-31)),
                     ri(shift, 22, r6, std::uint32_t(-31), false, true), ri(shift, 23, r6, 0),
                     ri(shift, 24, r6, 0x8000, false, true), exit_with(r0)},
                    0x80000011u, 0);
  CHECK(p.cpu->reg(20) == 0x80000000u);
  CHECK(p.cpu->reg(21) == 1u);
  CHECK(p.cpu->reg(22) == 0xFFFFFFFFu);
  CHECK(p.cpu->reg(23) == 0x80000011u);
  CHECK(p.cpu->reg(24) == 0x80000011u); // -32768 wraps to a zero count
}

TEST_CASE("sub.f sets V on signed overflow and C as not-borrow") {
  struct Case {
    std::uint32_t a, b, r;
    bool c, v, n, z;
  };
  const Case cases[] = {{0x80000000u, 1, 0x7FFFFFFFu, true, true, false, false},
                        {0, 0x80000000u, 0x80000000u, false, true, true, false},
                        {0x7FFFFFFFu, 0xFFFFFFFFu, 0x80000000u, false, true, true, false},
                        {5, 5, 0, true, false, false, true},
                        {3, 5, 0xFFFFFFFEu, false, false, true, false},
                        {0, 0, 0, true, false, false, true}};
  for (const auto& c : cases) {
    auto p = run_with({rr(sub, r3, r6, r7, true), exit_with(r0)}, c.a, c.b);
    INFO("a=" << c.a << " b=" << c.b);
    const auto f = p.cpu->flags();
    CHECK(p.cpu->reg(r3) == c.r);
    CHECK(f.c == c.c);
    CHECK(f.v == c.v);
    CHECK(f.n == c.n);
    CHECK(f.z == c.z);
  }
}

TEST_CASE("addc and subb consume the carry and produce a new one") {
  struct Case {
    Alu op;
    bool carry_in;
    std::uint32_t a, b, r;
    bool c, v, z;
  };
  const Case cases[] = {{addc, true, 0xFFFFFFFFu, 0, 0, true, false, true},
                        {addc, false, 0xFFFFFFFFu, 0, 0xFFFFFFFFu, false, false, false},
                        {addc, true, 0x7FFFFFFFu, 0, 0x80000000u, false, true, false},
                        {subb, true, 5, 3, 2, true, false, false},
                        {subb, false, 5, 3, 1, true, false, false}, // borrow in: 5 - 3 - 1
                        {subb, false, 0, 0, 0xFFFFFFFFu, false, false, false},
                        {subb, false, 0x80000000u, 0, 0x7FFFFFFFu, true, true, false}};
  for (const auto& c : cases) {
    // add.f %r1, 1 sets C; add.f %r0, 0 clears it.
    auto p = run_with({ri(add, r0, c.carry_in ? r1 : r0, c.carry_in ? 1 : 0, true),
                       rr(c.op, r3, r6, r7, true), exit_with(r0)},
                      c.a, c.b);
    INFO("op=" << int(c.op) << " cin=" << c.carry_in << " a=" << c.a << " b=" << c.b);
    const auto f = p.cpu->flags();
    CHECK(p.cpu->reg(r3) == c.r);
    CHECK(f.c == c.c);
    CHECK(f.v == c.v);
    CHECK(f.z == c.z);
  }
}

TEST_CASE("addc and subb without .f use the carry and leave the flags alone") {
  auto p = run_with(
      {ri(add, r0, r1, 1, true), rr(addc, r3, r6, r7), rr(subb, r9, r6, r7), exit_with(r0)}, 10, 3);
  CHECK(p.cpu->reg(r3) == 14u);
  CHECK(p.cpu->reg(r9) == 7u);
  CHECK(p.cpu->flags().c);
  CHECK(p.cpu->flags().z);
}

TEST_CASE("a predicated .f operation whose condition fails sets Z and N from the unchanged Rd") {
  // sub.f 0x80000000 - 1 sets C and V and clears Z, so or.f.eq is skipped;
  // LLVM folds a later compare of Rd with zero into such an instruction.
  ProgramRun q(
      {ri(add, r9, r0, 0), rr(sub, r0, r6, r7, true), rr(or_, r9, r6, r6, true, 7), exit_with(r0)});
  q.cpu->set_reg(r6, 0x80000000u);
  q.cpu->set_reg(r7, 1);
  q.run();
  const auto f = q.cpu->flags();
  CHECK(q.cpu->reg(r9) == 0u);
  CHECK(f.z);
  CHECK_FALSE(f.n);
}

TEST_CASE("sel picks Rs1 exactly when its condition holds, for every condition") {
  const std::uint32_t values[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 77};
  for (std::uint32_t a : values)
    for (std::uint32_t b : values)
      for (unsigned cond = 0; cond < 16; ++cond) {
        ProgramRun p(
            {rr(sub, r0, r6, r7, true), rr(shift, r3, 20, 21, false, cond, 0), exit_with(r0)});
        p.cpu->set_reg(r6, a);
        p.cpu->set_reg(r7, b);
        p.cpu->set_reg(20, 0x1111u);
        p.cpu->set_reg(21, 0x2222u);
        p.run();
        INFO("a=" << a << " b=" << b << " cond=" << cond);
        CHECK(p.cpu->reg(r3) == (holds(cond, a, b) ? 0x1111u : 0x2222u));
      }
}

TEST_CASE("predicated RR ALU and shift operations write Rd exactly when the condition holds") {
  for (unsigned cond = 0; cond < 16; ++cond) {
    ProgramRun p({rr(sub, r0, r6, r7, true), ri(add, r3, r0, 5), ri(add, r9, r0, 5),
                  rr(add, r3, r7, r7, false, cond), rr(shift, r9, r7, r7, false, cond, sh_j),
                  exit_with(r0)});
    p.cpu->set_reg(r6, 1);
    p.cpu->set_reg(r7, 2);
    p.run();
    INFO("cond=" << cond);
    const bool h = holds(cond, 1, 2);
    CHECK(p.cpu->reg(r3) == (h ? 4u : 5u));
    CHECK(p.cpu->reg(r9) == (h ? 8u : 5u));
  }
}

TEST_CASE("every RRM load width and extension, big-endian") {
  struct Case {
    std::uint32_t yl;
    bool e;
    std::uint32_t offset, value;
  };
  const Case cases[] = {
      {1, false, 0, 0x80FF7F01u}, {1, true, 0, 0x80FF7F01u}, // uld of a word is ld
      {0, false, 0, 0xFFFF80FFu}, {0, true, 0, 0x000080FFu},  {0, false, 2, 0x00007F01u},
      {0, true, 2, 0x00007F01u},  {2, false, 0, 0xFFFFFF80u}, {2, true, 0, 0x00000080u},
      {2, false, 1, 0xFFFFFFFFu}, {2, true, 1, 0x000000FFu},  {2, false, 2, 0x0000007Fu},
      {2, true, 3, 0x00000001u}};
  for (const auto& c : cases) {
    ProgramRun p({rrm(false, r3, r6, r7, 2, c.yl, c.e), exit_with(r0)});
    p.cpu->write_word(0x2000, 0x80FF7F01u);
    p.cpu->set_reg(r6, 0x2000);
    p.cpu->set_reg(r7, c.offset);
    p.run();
    INFO("yl=" << c.yl << " e=" << c.e << " offset=" << c.offset);
    CHECK(p.stop == StopReason::halted);
    CHECK(p.cpu->reg(r3) == c.value);
  }
}

TEST_CASE("every SPLS load width and extension, with a negative 10-bit offset") {
  struct Case {
    bool byte, e;
    std::int32_t offset;
    std::uint32_t value;
  };
  const Case cases[] = {{false, false, -4, 0xFFFF80FFu}, {false, true, -4, 0x80FFu},
                        {false, false, -2, 0x7F01u},     {true, false, -3, 0xFFFFFFFFu},
                        {true, true, -3, 0xFFu},         {true, false, -512, 0x12u}};
  for (const auto& c : cases) {
    ProgramRun p({spls(false, c.byte, c.e, r3, r6, 2, c.offset), exit_with(r0)});
    p.cpu->write_word(0x2000 - 4, 0x80FF7F01u);
    p.cpu->write_word(0x2000 - 512, 0x12345678u);
    p.cpu->set_reg(r6, 0x2000);
    p.run();
    INFO("byte=" << c.byte << " e=" << c.e << " offset=" << c.offset);
    CHECK(p.cpu->reg(r3) == c.value);
  }
}

TEST_CASE("part-word stores write only their bytes") {
  ProgramRun p({spls(true, true, false, r9, r6, 2, 1), spls(true, false, false, r9, r6, 2, 6),
                rrm(true, r9, r6, r7, 2, 2, false), rrm(true, r9, r6, r7, 2, 0, false, sub),
                exit_with(r0)});
  p.cpu->set_reg(r6, 0x2000);
  p.cpu->set_reg(r7, 12);
  p.cpu->set_reg(r9, 0xA1B2C3D4u);
  p.cpu->write_word(0x2000, 0x11111111u);
  p.cpu->write_word(0x2004, 0x22222222u);
  p.cpu->write_word(0x200C, 0x33333333u);
  p.cpu->write_word(0x1FF4, 0x44444444u);
  p.run();
  CHECK(p.cpu->read_word(0x2000) == 0x11D41111u);
  CHECK(p.cpu->read_word(0x2004) == 0x2222C3D4u);
  CHECK(p.cpu->read_word(0x200C) == 0xD4333333u);
  CHECK(p.cpu->read_word(0x1FF4) == 0xC3D44444u);
}

TEST_CASE("pre- and post-modify addressing for every width updates the base by the offset") {
  struct Case {
    const char* name;
    std::uint32_t word, width, ea, base_after;
  };
  const Case cases[] = {
      {"ld [--r6]", rm(false, r3, r6, 3, -4), 4, 0x1FFC, 0x1FFC},
      {"ld [r6++]", rm(false, r3, r6, 1, 4), 4, 0x2000, 0x2004},
      {"ld 8[r6]", rm(false, r3, r6, 2, 8), 4, 0x2008, 0x2000},
      {"ld -8[*r6] pre", rm(false, r3, r6, 3, -8), 4, 0x1FF8, 0x1FF8},
      {"uld.h [--r6]", spls(false, false, true, r3, r6, 3, -2), 2, 0x1FFE, 0x1FFE},
      {"uld.h [r6++]", spls(false, false, true, r3, r6, 1, 2), 2, 0x2000, 0x2002},
      {"uld.b [--r6]", spls(false, true, true, r3, r6, 3, -1), 1, 0x1FFF, 0x1FFF},
      {"uld.b [r6++]", spls(false, true, true, r3, r6, 1, 1), 1, 0x2000, 0x2001},
      {"uld.b 9[r6++]", spls(false, true, true, r3, r6, 1, 9), 1, 0x2000, 0x2009},
      {"uld.h [*r6 sub r7] pre", rrm(false, r3, r6, r7, 3, 0, true, sub), 2, 0x1FF8, 0x1FF8},
      {"uld.b [r6 sub r7] post", rrm(false, r3, r6, r7, 1, 2, true, sub), 1, 0x2000, 0x1FF8},
      {"ld [*r6 add r7] pre", rrm(false, r3, r6, r7, 3, 1, false), 4, 0x2008, 0x2008},
  };
  for (const auto& c : cases) {
    ProgramRun p({c.word, exit_with(r0)});
    // Each byte holds the low bits of its own address.
    for (std::uint32_t a = 0x1FF0; a < 0x2010; a += 4)
      p.cpu->write_word(a, (a & 0xFFu) << 24 | ((a + 1) & 0xFFu) << 16 | ((a + 2) & 0xFFu) << 8 |
                               ((a + 3) & 0xFFu));
    p.cpu->set_reg(r6, 0x2000);
    p.cpu->set_reg(r7, 8);
    p.run();
    INFO(c.name);
    REQUIRE(p.stop == StopReason::halted);
    CHECK(p.cpu->reg(r6) == c.base_after);
    std::uint32_t expect = 0;
    for (std::uint32_t i = 0; i < c.width; ++i)
      expect = expect << 8 | ((c.ea + i) & 0xFFu);
    CHECK(p.cpu->reg(r3) == expect);
  }
}

TEST_CASE("RRM address operators and, or, xor and shifts") {
  struct Case {
    Alu op;
    std::uint32_t j;
    std::uint32_t a, b, ea;
  };
  const Case cases[] = {{and_, 0, 0x20FF, 0xFFFFFFF0u, 0x20F0},
                        {or_, 0, 0x2000, 0x0004, 0x2004},
                        {xor_, 0, 0x200C, 0x0004, 0x2008},
                        {shift, sh_j, 0x0400, 3, 0x2000}, // left by a positive count
                        {shift, sh_j, 0x8000, std::uint32_t(-2), 0x2000},
                        {shift, sha_j, 0x8000, std::uint32_t(-2), 0x2000}};
  for (const auto& c : cases) {
    const std::uint32_t word = rrm(false, r3, r6, r7, 2, 1, false, c.op) | c.j << 3;
    ProgramRun p({word, exit_with(r0)});
    for (std::uint32_t a = 0x1F00; a < 0x2100; a += 4)
      p.cpu->write_word(a, a);
    p.cpu->set_reg(r6, c.a);
    p.cpu->set_reg(r7, c.b);
    p.run();
    INFO("op=" << int(c.op) << " j=" << c.j);
    REQUIRE(p.stop == StopReason::halted);
    CHECK(p.cpu->reg(r3) == c.ea);
  }
}

TEST_CASE("reading pc gives the reading instruction's address in stores, loads and delay slots") {
  ProgramRun p(
      {rm(true, pc, r6, 2, 0),              // 0x00 st %pc, 0[%r6]: stores 0x00
       rm(false, 20, pc, 2, 0x40),          // 0x04 ld 0x40[%pc]: loads word 0x44
       rrm(false, 21, pc, r7, 2, 1, false), // 0x08 ld [%pc add %r7]: loads word 0x08 + 0x40
       br(0, 0x20),                         // 0x0c bt 0x20
       ri(add, 22, pc, 0),                  // 0x10 delay slot reads 0x10
       nop, nop, nop,                       // 0x14..0x1c
       ri(add, 23, pc, 0),                  // 0x20 reads 0x20
       exit_with(r0)});
  p.cpu->set_reg(r6, 0x1000);
  p.cpu->set_reg(r7, 0x40);
  p.cpu->write_word(0x1000, 0xDEADBEEFu);
  p.cpu->write_word(0x44, 0x4444u);
  p.cpu->write_word(0x48, 0x4848u);
  p.run();
  CHECK(p.cpu->read_word(0x1000) == 0u);
  CHECK(p.cpu->reg(20) == 0x4444u);
  CHECK(p.cpu->reg(21) == 0x4848u);
  CHECK(p.cpu->reg(22) == 0x10u);
  CHECK(p.cpu->reg(23) == 0x20u);
}

TEST_CASE(
    "a taken branch in a delay slot runs one instruction at the first target, then the second") {
  ProgramRun p({ri(add, r3, r0, 0),    // 0x00
                br(0, 0x40),           // 0x04 bt 0x40
                br(0, 0x80),           // 0x08 bt 0x80 (in the delay slot)
                ri(add, r3, r3, 1000), // 0x0c never
                exit_with(r3)});
  p.cpu->write_word(0x40, ri(add, r3, r3, 1));   // runs
  p.cpu->write_word(0x44, ri(add, r3, r3, 100)); // never
  p.cpu->write_word(0x80, ri(add, r3, r3, 10));
  p.cpu->write_word(0x84, exit_with(r3));
  p.run();
  CHECK(p.exit_code() == 11);
}

TEST_CASE("an untaken branch in a delay slot does not disturb the first branch") {
  ProgramRun p(
      {ri(add, r3, r0, 0), br(0, 0x40), br(1, 0x80), ri(add, r3, r3, 1000), exit_with(r3)});
  p.cpu->write_word(0x40, ri(add, r3, r3, 1));
  p.cpu->write_word(0x44, exit_with(r3));
  p.run();
  CHECK(p.exit_code() == 1);
}

TEST_CASE("a predicated RR jump whose condition fails does not jump") {
  ProgramRun p({ri(add, r3, r0, 0, true),      // 0x00 Z set
                sli(r7, 0x40),                 // 0x04
                rr(or_, pc, r0, r7, false, 6), // 0x08 or.ne %r0, %r7, %pc: not taken
                ri(add, r3, r3, 1),            // 0x0c
                ri(add, r3, r3, 2),            // 0x10
                rr(or_, pc, r0, r7, false, 7), // 0x14 or.eq: taken, one delay slot
                ri(add, r3, r3, 4),            // 0x18 delay slot
                ri(add, r3, r3, 100),          // 0x1c skipped
                exit_with(r0)});
  p.cpu->write_word(0x40, exit_with(r3));
  p.run();
  CHECK(p.exit_code() == 7);
}

TEST_CASE("a return (load into pc) executes both delay slots before the target") {
  // clang's epilogue: ld -4[%fp], %pc; add %fp, 0, %sp; ld -8[%fp], %fp.
  ProgramRun p(
      {rm(false, pc, fp, 2, -4), ri(add, sp, fp, 0), rm(false, fp, fp, 2, -8), exit_with(r0)});
  p.cpu->set_reg(fp, 0x1008);
  p.cpu->write_word(0x1004, 0x40);
  p.cpu->write_word(0x1000, 0x1234);
  p.cpu->write_word(0x40, exit_with(fp));
  p.run();
  CHECK(p.exit_code() == 0x1234);
  CHECK(p.cpu->reg(sp) == 0x1008u);
}

TEST_CASE("SLS sign-extends its 21-bit address, SLI zero-extends its constant") {
  ProgramRun p({sli(r3, 0x1FFFFF), sli(r9, 0x100000), sls(false, r7, 0x100000), exit_with(r0)});
  p.run();
  CHECK(p.cpu->reg(r3) == 0x001FFFFFu);
  CHECK(p.cpu->reg(r9) == 0x00100000u);
  REQUIRE(p.stop == StopReason::fault);
  CHECK(p.cpu->fault().kind == FaultKind::bus_error);
  CHECK(p.cpu->fault().address == 0xFFF00000u);

  ProgramRun q({sls(true, r6, 0x0FFFC), sls(false, r3, 0x0FFFC), exit_with(r0)});
  q.cpu->set_reg(r6, 0xCAFEF00Du);
  q.run();
  CHECK(q.cpu->reg(r3) == 0xCAFEF00Du);
}

TEST_CASE("SLS ignores the two low address bits, as the Lanai formats define") {
  ProgramRun p({sls(false, r3, 0x1002), exit_with(r3)});
  p.cpu->write_word(0x1000, 0x1234);
  p.run();
  CHECK(p.stop == StopReason::halted);
  CHECK(p.exit_code() == 0x1234);
}

TEST_CASE("popc, leadz and trailz at the extremes") {
  ProgramRun p({special(1, 20, r0), special(3, 21, r0), special(1, 22, r1), special(2, 23, r1),
                special(3, 24, r1), special(2, 25, r6), special(3, 26, r6), special(2, 27, r7),
                special(3, 28, r7), exit_with(r0)});
  p.cpu->set_reg(r6, 1);
  p.cpu->set_reg(r7, 0x80000000u);
  p.run();
  CHECK(p.cpu->reg(20) == 0u);
  CHECK(p.cpu->reg(21) == 32u);
  CHECK(p.cpu->reg(22) == 32u);
  CHECK(p.cpu->reg(23) == 0u);
  CHECK(p.cpu->reg(24) == 0u);
  CHECK(p.cpu->reg(25) == 31u);
  CHECK(p.cpu->reg(26) == 0u);
  CHECK(p.cpu->reg(27) == 0u);
  CHECK(p.cpu->reg(28) == 31u);
}

TEST_CASE("RI and/or/xor immediates: and fills the other half with ones") {
  auto p = run_with({ri(and_, 20, r6, 0x00F0), ri(and_, 21, r6, 0x00F0, false, true),
                     ri(or_, 22, r6, 0x00F0, false, true), ri(xor_, 23, r6, 0xFFFF),
                     ri(sub, 24, r6, 1, false, true), exit_with(r0)},
                    0x12345678u, 0);
  CHECK(p.cpu->reg(20) == 0x12340070u);
  CHECK(p.cpu->reg(21) == 0x00305678u);
  CHECK(p.cpu->reg(22) == 0x12F45678u);
  CHECK(p.cpu->reg(23) == 0x1234A987u);
  CHECK(p.cpu->reg(24) == 0x12335678u);
}
