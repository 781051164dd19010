// What the fast-forward tests share: a program run in slices, with or
// without fast-forward, and the state it ends in, compared whole.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/iss/lanai_encoding.hpp"
#include "tests/iss/program_runner.hpp"

namespace lanai::test {

inline constexpr std::uint32_t data = 0x1000; // a word the loops read or write

struct Snapshot {
  lanai::iss::StopReason stop;
  std::uint64_t cycles, instructions;
  std::uint32_t pc;
  std::array<std::uint32_t, 32> regs;
  std::vector<std::uint8_t> sram;
  std::string console;
  std::uint64_t skipped;

  bool same_as(const Snapshot& o) const {
    return stop == o.stop && cycles == o.cycles && instructions == o.instructions && pc == o.pc &&
           regs == o.regs && sram == o.sram && console == o.console;
  }
};

inline Snapshot snapshot_of(const ProgramRun& p, lanai::iss::StopReason stop,
                            std::uint32_t sram_bytes) {
  Snapshot s{stop, p.cpu->cycles(),     p.cpu->instructions(),  p.cpu->pc(), {},
             {},   p.system->console(), p.cpu->skipped_cycles()};
  for (unsigned r = 0; r < 32; ++r)
    s.regs[r] = p.cpu->reg(r);
  s.sram.resize(sram_bytes);
  p.cpu->read_sram(0, s.sram);
  return s;
}

// Runs `words` to `limit` in slices of `slice` cycles (as the card's core
// does between events); `between` runs between slices.
template <typename Between>
Snapshot run(const std::vector<std::uint32_t>& words, bool fast_forward, std::uint64_t limit,
             std::uint64_t slice, Between between, lanai::iss::CycleCosts costs = {}) {
  ProgramRun p(words, costs);
  p.cpu->set_fast_forward(fast_forward);
  lanai::iss::StopReason stop = lanai::iss::StopReason::cycle_limit;
  while (stop == lanai::iss::StopReason::cycle_limit && p.cpu->cycles() < limit) {
    stop = p.cpu->run(std::min(limit, p.cpu->cycles() + slice));
    between(*p.cpu);
  }
  return snapshot_of(p, stop, ProgramRun::sram);
}

// Runs `words` (with registers from r3 up set from `regs`, when given) to
// `end` cycles in runs of `step` cycles, with or without predecoded blocks;
// the state and the first `sram_bytes` of SRAM.
inline Snapshot run_in_steps(const std::vector<std::uint32_t>& words, bool fast_forward,
                             const std::array<std::uint32_t, 32>* regs, std::uint64_t step,
                             std::uint64_t end, std::uint32_t sram_bytes, bool blocks = true,
                             std::uint64_t start = 0) {
  ProgramRun p(words);
  p.cpu->set_fast_forward(fast_forward);
  p.cpu->set_blocks(blocks);
  p.cpu->add_stall_cycles(start); // the run starts `start` cycles on
  if (regs)
    for (unsigned r = 3; r < 32; ++r)
      p.cpu->set_reg(r, (*regs)[r]);
  lanai::iss::StopReason stop = lanai::iss::StopReason::cycle_limit;
  for (std::uint64_t limit = start + step;
       stop == lanai::iss::StopReason::cycle_limit && limit < start + end; limit += step)
    stop = p.cpu->run(limit);
  return snapshot_of(p, stop, sram_bytes);
}

inline Snapshot run(const std::vector<std::uint32_t>& words, bool fast_forward,
                    std::uint64_t limit = 200'000, std::uint64_t slice = 50'000) {
  return run(words, fast_forward, limit, slice, [](lanai::iss::Cpu&) {});
}

// Both ways; the states must agree. Returns the fast-forwarded run.
inline Snapshot both_ways(const std::vector<std::uint32_t>& words, std::uint64_t limit = 200'000,
                          std::uint64_t slice = 50'000) {
  const Snapshot plain = run(words, false, limit, slice);
  const Snapshot fast = run(words, true, limit, slice);
  CHECK(plain.skipped == 0);
  CHECK(fast.same_as(plain));
  return fast;
}

// `while (mem[data] == 0) {}` then exit with the word read.
inline std::vector<std::uint32_t> wait_for_word() {
  return {sls(false, r6, data),     // 0x00 ld [data], r6
          ri(sub, r0, r6, 0, true), // 0x04 sub.f r6, 0, r0
          br(7, 0x00),              // 0x08 beq 0x00
          nop,                      // 0x0c
          exit_with(r6)};           // 0x10
}

} // namespace lanai::test
