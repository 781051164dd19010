// What a polling lap does with the one device register it reads. A loop
// that waits on some bits of a status word (`while ((status & wanted) ==
// 0)`) reads the whole word every lap, but only the wanted bits decide
// anything: a change of the others (a device finishing work the loop does
// not wait for) leaves the lap repeating exactly as before, except that
// the registers that keep the word as read hold its new value once the
// lap has read it again. The analysis runs the lap's block once over three
// kinds of value: known (the same every lap), the word itself, and values
// computed from the word through masks with known bits. Whatever else the
// lap does with the word (an addition, a shift, an address) makes every
// bit of it relevant, so any change wakes the core as before.
//
// So if only bits outside `relevant` changed, the lap from any point of it
// repeats as it did, with the registers that `holding` names at that point
// holding the word's current value after a whole lap or more.
#pragma once

#include <array>
#include <cstdint>

#include "emulator/iss/block.hpp"

namespace lanai::iss {

struct PolledRegister {
  // The longest lap the analysis looks at, in instructions.
  static constexpr std::uint32_t max_positions = 16;

  bool known = false;           // the analysis succeeded; else every bit is relevant
  std::uint32_t relevant = ~0u; // the bits of the word the lap depends on
  bool reads_memory = true;     // the lap loads from SRAM (other than its code)
  // Registers whose values mask the word (the lap does not write them):
  // their bits are relevant too (with_masks). Whether the analysis used
  // the value of another register (a load's base): without, the result
  // holds for every lap of the same block.
  std::uint32_t mask_registers = 0;
  bool used_values = false;
  std::uint32_t first_pc = 0;  // address of the lap block's first instruction
  std::uint32_t positions = 0; // instructions in the block
  // Bit r: register r holds the word as last read, before the instruction
  // at that position of the block executes.
  std::array<std::uint32_t, max_positions> holding{};

  // The result with the mask registers' bits, as `regs` holds them.
  PolledRegister with_masks(const std::uint32_t* regs) const {
    PolledRegister folded = *this;
    for (std::uint32_t m = mask_registers; m != 0; m &= m - 1)
      folded.relevant |= regs[__builtin_ctz(m)];
    return folded;
  }

  // The analysis is known and `pc` is an instruction of the lap.
  bool covers(std::uint32_t pc) const {
    return known && pc >= first_pc && (pc & 3u) == 0 && (pc - first_pc) / 4 < positions;
  }
  // The registers holding the word when the core stands at `pc`, or false
  // if the lap does not cover `pc`.
  bool holding_at(std::uint32_t pc, std::uint32_t& registers) const {
    if (!covers(pc))
      return false;
    registers = holding[(pc - first_pc) / 4];
    return true;
  }
};

// Analyses the lap made of the block `ops` (`count` instructions and an
// `end`, the lap's backward branch at count - 2 and its delay slot last),
// which reads the device register at `address` and no other, starting from
// the registers `regs`. Loads below `sram_bytes` read memory that stays
// the same (the lap stores nothing). Returns an unknown result for a lap
// it cannot follow; `relevant` leaves the mask registers out.
PolledRegister analyse_polled_register(const BlockOp* ops, std::uint32_t count,
                                       std::uint32_t first_pc, std::uint32_t address,
                                       std::uint32_t sram_bytes, const std::uint32_t* regs);

} // namespace lanai::iss
