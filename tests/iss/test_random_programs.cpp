// Arbitrary code never makes the emulator misbehave: random instruction
// words with random registers run until they fault, halt or reach the cycle
// limit, with no undefined behaviour in the emulator (this suite runs under
// AddressSanitizer and UBSan in CI) and bit-identical results when repeated.
#include <doctest/doctest.h>

#include <array>

#include "emulator/kernel/random_stream.hpp"
#include "tests/iss/program_runner.hpp"

namespace {

struct Outcome {
  lanai::iss::StopReason stop;
  std::uint64_t cycles, instructions;
  std::uint32_t pc;
  std::array<std::uint32_t, 32> regs;
  lanai::iss::FaultKind fault;
};

Outcome run_random(std::uint64_t seed) {
  lanai::kernel::RandomStream rng(seed, "random-program");
  std::vector<std::uint32_t> words(256);
  for (auto& w : words) {
    w = static_cast<std::uint32_t>(rng.next_u64());
    // Bias a quarter of the words towards branches and memory operations,
    // which random bits rarely form with useful operands.
    if (rng.uniform_u32(0, 3) == 0)
      w = (w & 0x0FFFFFFFu) | (rng.uniform_u32(8, 15) << 28);
  }
  lanai::test::ProgramRun p(words);
  for (unsigned r = 3; r < 32; ++r) {
    const std::uint32_t v = static_cast<std::uint32_t>(rng.next_u64());
    // Keep some registers pointing into SRAM so memory operations land.
    p.cpu->set_reg(r, (r % 3 == 0) ? (v % lanai::test::ProgramRun::sram) : v);
  }
  p.run(5000);
  Outcome o{p.stop, p.cpu->cycles(), p.cpu->instructions(), p.cpu->pc(), {}, p.cpu->fault().kind};
  for (unsigned r = 0; r < 32; ++r)
    o.regs[r] = p.cpu->reg(r);
  return o;
}

} // namespace

TEST_CASE("random instruction streams stop cleanly and deterministically") {
  std::size_t faults = 0, halts = 0, limits = 0;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    const Outcome a = run_random(seed);
    const Outcome b = run_random(seed);
    CHECK(a.stop == b.stop);
    CHECK(a.cycles == b.cycles);
    CHECK(a.instructions == b.instructions);
    CHECK(a.pc == b.pc);
    CHECK(a.regs == b.regs);
    CHECK(a.regs[0] == 0u);
    CHECK(a.regs[1] == 0xFFFFFFFFu);
    if (a.stop == lanai::iss::StopReason::fault)
      ++faults;
    else if (a.stop == lanai::iss::StopReason::halted)
      ++halts;
    else
      ++limits;
  }
  MESSAGE("random programs: " << faults << " faulted, " << halts << " halted, " << limits
                              << " reached the cycle limit");
  CHECK(faults > 0);
}
