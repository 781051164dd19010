// Random programs give the same results whether the core runs predecoded
// blocks or steps every instruction: programs drawn from every instruction
// format (branches into them, delay slots, pc reads, returns through loads
// into the pc, loads and stores of every width and mode, device registers
// with side effects, stores into the program itself), random cycle costs,
// and runs cut into slices of one cycle, of just enough cycles for blocks,
// of random lengths and of random instruction counts.
#include <doctest/doctest.h>

#include "tests/iss/block_twin.hpp"
#include "emulator/kernel/random_stream.hpp"
#include "tests/iss/lanai_encoding.hpp"

using namespace lanai::test;

namespace {

constexpr std::uint32_t words_in_program = 96;

// BRR: relative conditional branch (offset from the branch itself).
std::uint32_t brr(std::uint32_t cond, std::int32_t offset) {
  return 0xEu << 28 | (cond >> 1) << 25 | 1u << 24 |
         (static_cast<std::uint32_t>(offset) & 0xFFFCu) | 2u | (cond & 1u);
}

// Registers: r3-r15 values, r16-r21 data pointers, r22 a code pointer
// (stores through it rewrite the program), r23 a device pointer, r24-r27
// small word offsets, r28-r31 instruction words worth storing into code.
struct Generator {
  lanai::kernel::RandomStream rng;

  std::uint32_t pick(std::initializer_list<std::uint32_t> set) {
    return *(set.begin() + rng.uniform_u32(0, static_cast<std::uint32_t>(set.size() - 1)));
  }
  bool one_in(std::uint32_t n) { return rng.uniform_u32(1, n) == 1; }
  // Mostly value registers; now and then r0, r1 or the pc.
  std::uint32_t value() { return one_in(12) ? rng.uniform_u32(0, 2) : rng.uniform_u32(3, 15); }
  // A destination: the pc (a jump or a return) or a pointer only rarely.
  std::uint32_t dest() { return one_in(60) ? 2u : one_in(60) ? rng.uniform_u32(16, 23) : value(); }
  std::uint32_t base() { return one_in(20) ? value() : one_in(15) ? 23 : rng.uniform_u32(16, 22); }
  std::uint32_t index() { return one_in(10) ? value() : rng.uniform_u32(24, 27); }
  std::uint32_t data_source() {
    return one_in(4) ? rng.uniform_u32(28, 31) : one_in(6) ? rng.uniform_u32(16, 22) : value();
  }
  std::uint32_t target() { return 4 * rng.uniform_u32(0, words_in_program - 1); }
  std::uint32_t device() {
    return pick({0x1F0000, 0x1F0008, 0x1F0008, 0x1F000C, 0x1F0010, 0x1F0014, 0x1F0018, 0x1F0020});
  }
  bool store() { return one_in(2); }
  std::uint32_t mode() { return rng.uniform_u32(0, 3); }

  std::uint32_t memory() {
    const bool st = store();
    switch (rng.uniform_u32(0, 3)) {
    case 0:
      return rm(st, st ? data_source() : dest(), base(), mode(),
                4 * static_cast<std::int32_t>(rng.uniform_u32(0, 8)) - 16);
    case 1: {
      const std::uint32_t yl = one_in(30) ? 3 : pick({0, 1, 2});
      return rrm(st, st ? data_source() : dest(), base(), index(), mode(), yl, !st && one_in(2),
                 static_cast<Alu>(one_in(4) ? rng.uniform_u32(0, 7) : pick({add, sub})));
    }
    case 2: {
      const bool byte = one_in(2);
      return spls(st, byte, !st && one_in(2), st ? data_source() : dest(), base(), mode(),
                  (byte ? 1 : 2) * (static_cast<std::int32_t>(rng.uniform_u32(0, 8)) - 4));
    }
    default:
      return sls(st, st ? data_source() : dest(),
                 one_in(2) ? device() : 0x800 + 4 * rng.uniform_u32(0, 64));
    }
  }

  std::uint32_t instruction(std::uint32_t at) {
    const auto alu = static_cast<Alu>(rng.uniform_u32(0, 6));
    const bool f = one_in(2);
    switch (rng.uniform_u32(0, 19)) {
    case 0:
    case 1:
    case 2:
      return ri(alu, dest(), value(), rng.uniform_u32(0, 0xFFFF), f, one_in(4));
    case 3:
      return ri(shift, dest(), value(), rng.uniform_u32(0, 0xFFFF), f, one_in(2));
    case 4:
    case 5:
      return rr(alu, dest(), value(), value(), f, one_in(3) ? rng.uniform_u32(0, 15) : 0);
    case 6:
      return rr(shift, dest(), value(), value(), f, rng.uniform_u32(0, 15), pick({0x10, 0x18}));
    case 7:
      return rr(shift, dest(), value(), value(), false, rng.uniform_u32(0, 15), 0); // sel
    case 8:
    case 9:
    case 10:
    case 11:
      return memory();
    case 12:
      return sli(dest(), rng.uniform_u32(0, 0x1FFFFF));
    case 13:
    case 14:
      return br(rng.uniform_u32(0, 15), target());
    case 15:
      return brr(rng.uniform_u32(0, 15),
                 static_cast<std::int32_t>(target()) - static_cast<std::int32_t>(at));
    case 16:
      return scc(rng.uniform_u32(0, 15), dest());
    case 17:
      return special(rng.uniform_u32(1, 3), dest(), value());
    case 18:
      return one_in(10) ? static_cast<std::uint32_t>(rng.next_u64()) : nop; // often undefined
    default:
      return nop;
    }
  }

  std::array<std::uint32_t, 32> registers() {
    std::array<std::uint32_t, 32> r{};
    for (unsigned i = 3; i < 16; ++i)
      r[i] = one_in(2) ? rng.uniform_u32(0, 40) : static_cast<std::uint32_t>(rng.next_u64());
    for (unsigned i = 16; i < 22; ++i)
      r[i] = 0x1000 + 4 * rng.uniform_u32(0, 512);
    r[22] = target();
    r[23] = LANAI_MMIO_BASE + 4 * rng.uniform_u32(0, 8);
    for (unsigned i = 24; i < 28; ++i)
      r[i] = 4 * rng.uniform_u32(0, 16);
    for (unsigned i = 28; i < 32; ++i)
      r[i] = instruction(4 * rng.uniform_u32(0, words_in_program - 1));
    return r;
  }

  lanai::iss::CycleCosts costs() {
    lanai::iss::CycleCosts c;
    c.alu_cycles = rng.uniform_u32(0, 2);
    c.load_cycles = rng.uniform_u32(0, 3);
    c.store_cycles = rng.uniform_u32(0, 3);
    c.branch_taken_cycles = rng.uniform_u32(1, 4); // every loop costs cycles
    c.branch_untaken_cycles = rng.uniform_u32(0, 3);
    c.mmio_cycles = rng.uniform_u32(0, 5);
    c.load_use_stall_cycles = rng.uniform_u32(0, 3);
    return c;
  }
};

struct Tally {
  std::uint64_t instructions = 0, in_blocks = 0, faults = 0, halts = 0, limits = 0;
};

template <typename Schedule>
void check_program(std::uint64_t seed, Tally& tally, Schedule next_limits) {
  Generator g{lanai::kernel::RandomStream(seed, "block-program")};
  std::vector<std::uint32_t> words(words_in_program);
  for (std::uint32_t i = 0; i < words_in_program; ++i)
    words[i] = g.instruction(4 * i);
  words.push_back(br(0, 0)); // from the end back to the start
  words.push_back(nop);
  const std::array<std::uint32_t, 32> regs = g.registers();
  BlockTwin twin(words, g.costs(), &regs, g.rng.uniform_u32(0, 1) == 1);
  // The data the pointers start in: half of it addresses in the program,
  // for loads into the pc to return to.
  for (std::uint32_t a = 0x1000; a < 0x1800; a += 4)
    twin.write_word(a, g.one_in(2) ? g.target() : static_cast<std::uint32_t>(g.rng.next_u64()));
  for (int slice = 0; slice < 400; ++slice) {
    const auto [cycles, instructions] = next_limits(g.rng, twin.reference());
    const bool going = twin.run(cycles, instructions);
    const std::string difference = twin.difference();
    INFO("seed " << seed << " slice " << slice << ": " << difference);
    REQUIRE(difference.empty());
    if (!going || twin.reference().cycles() > 20000)
      break;
  }
  tally.instructions += twin.blocks().instructions();
  tally.in_blocks += twin.blocks().block_instructions();
  const auto stop = twin.blocks().state();
  ++(stop == lanai::iss::StopReason::fault    ? tally.faults
     : stop == lanai::iss::StopReason::halted ? tally.halts
                                              : tally.limits);
}

void report(const Tally& t) {
  MESSAGE(t.instructions << " instructions, " << t.in_blocks << " in blocks; " << t.faults
                         << " faulted, " << t.halts << " halted, " << t.limits << " ran on");
}

} // namespace

TEST_CASE("random programs agree with and without blocks in long runs") {
  Tally tally;
  for (std::uint64_t seed = 0; seed < 300; ++seed)
    check_program(seed, tally, [](lanai::kernel::RandomStream&, const lanai::iss::Cpu& cpu) {
      return std::pair<std::uint64_t, std::uint64_t>{cpu.cycles() + 2000, ~std::uint64_t{0}};
    });
  report(tally);
}

TEST_CASE("random programs agree with and without blocks in one-cycle and short slices") {
  // Runs this short end inside a block: the instructions of it that fit run
  // as a block of their own, the rest in the next runs.
  Tally tally;
  for (std::uint64_t seed = 1000; seed < 1100; ++seed)
    check_program(seed, tally, [&](lanai::kernel::RandomStream& rng, const lanai::iss::Cpu& cpu) {
      const std::uint64_t slice = seed % 2 ? 1 : rng.uniform_u32(8, 16);
      return std::pair<std::uint64_t, std::uint64_t>{cpu.cycles() + slice, ~std::uint64_t{0}};
    });
  report(tally);
}

TEST_CASE("random programs agree with and without blocks in slices of random lengths and counts") {
  Tally tally;
  for (std::uint64_t seed = 2000; seed < 2300; ++seed)
    check_program(seed, tally, [](lanai::kernel::RandomStream& rng, const lanai::iss::Cpu& cpu) {
      const std::uint64_t cycles = cpu.cycles() + rng.uniform_u32(1, 120);
      const std::uint64_t instructions =
          rng.uniform_u32(0, 2) ? ~std::uint64_t{0} : cpu.instructions() + rng.uniform_u32(1, 40);
      return std::pair<std::uint64_t, std::uint64_t>{cycles, instructions};
    });
  report(tally);
}

TEST_CASE("random programs with random access limits agree both ways and end as unlimited runs") {
  // Runs cut at random cycle limits, with an access limit at a random cycle
  // at or after the run's start: blocks and stepping hold back the same
  // access; and once both run on without limits, a core held back ends in
  // the state, memory and device accesses of one never held back.
  std::uint64_t short_runs = 0;
  for (std::uint64_t seed = 5000; seed < 5600; ++seed) {
    Generator g{lanai::kernel::RandomStream(seed, "block-program")};
    std::vector<std::uint32_t> words(words_in_program);
    for (std::uint32_t i = 0; i < words_in_program; ++i)
      words[i] = g.instruction(4 * i);
    words.push_back(br(0, 0));
    words.push_back(nop);
    const std::array<std::uint32_t, 32> regs = g.registers();
    const lanai::iss::CycleCosts costs = g.costs();
    // Skipped laps make no device accesses: the logs compare without it.
    const bool fast_forward = seed % 2 == 1;
    BlockTwin limited(words, costs, &regs, fast_forward);
    BlockTwin unlimited(words, costs, &regs, fast_forward);
    for (std::uint32_t a = 0x1000; a < 0x1800; a += 4) {
      const std::uint32_t v =
          g.one_in(2) ? g.target() : static_cast<std::uint32_t>(g.rng.next_u64());
      limited.write_word(a, v);
      unlimited.write_word(a, v);
    }
    constexpr std::uint64_t end = 6000, none = ~std::uint64_t{0};
    INFO("seed " << seed);
    for (int slice = 0; slice < 2000; ++slice) {
      const std::uint64_t now = limited.reference().cycles();
      const std::uint64_t cycles = now + g.rng.uniform_u32(1, 120);
      const std::uint64_t access = g.one_in(4) ? none : now + g.rng.uniform_u32(0, 120);
      limited.blocks().set_access_limit(access);
      limited.reference().set_access_limit(access);
      const bool going = limited.run(cycles);
      short_runs += limited.reference().cycles() < cycles;
      limited.blocks().set_access_limit(none);
      limited.reference().set_access_limit(none);
      INFO("slice " << slice);
      REQUIRE(limited.difference().empty());
      if (!going || limited.reference().cycles() >= end)
        break;
    }
    // Yields end runs early: run on to the same cycle.
    for (BlockTwin* twin : {&limited, &unlimited})
      while (twin->reference().cycles() < end + 1000 && twin->run(end + 1000)) {
      }
    REQUIRE(limited.difference().empty());
    const lanai::iss::Cpu& x = limited.reference();
    const lanai::iss::Cpu& y = unlimited.reference();
    CHECK(x.state() == y.state());
    CHECK(x.cycles() == y.cycles());
    CHECK(x.instructions() == y.instructions());
    CHECK(x.pc() == y.pc());
    for (unsigned r = 0; r < 32; ++r)
      CHECK(x.reg(r) == y.reg(r));
    if (!fast_forward)
      CHECK(limited.blocks_bus().log == unlimited.blocks_bus().log);
    std::vector<std::uint8_t> mx(BlockTwin::sram), my(BlockTwin::sram);
    x.read_sram(0, mx);
    y.read_sram(0, my);
    CHECK(mx == my);
  }
  CHECK(short_runs > 1000);
}
