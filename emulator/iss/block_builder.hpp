// Translation of a straight run of Lanai instructions into a predecoded
// block: where a block ends, which specialised operation each instruction
// becomes, and the cycles the run costs under the cycle model, load-use
// interlocks inside the block included.
#pragma once

#include <cstdint>
#include <vector>

#include "emulator/iss/block.hpp"
#include "emulator/iss/cycle_costs.hpp"

namespace lanai::iss {

// The longest block, in instructions (a store into code looks this far back
// for the blocks it changes).
inline constexpr std::uint32_t max_block_instructions = 64;

// Whether blocks can carry these costs: each at most 2^24 cycles, so that a
// block's sum fits its fields. The core steps every instruction otherwise.
bool block_costs_supported(const CycleCosts& costs);

// Appends the operations of the block entered at `pc` (word aligned, inside
// the SRAM of `sram_bytes` bytes at `sram`) to `ops`, followed by an `end`,
// and describes it (all but where its operations will be kept). A block of
// no instructions (the one at `pc` must be stepped) appends nothing.
// `examined`, if given, receives how many words from `pc` on were read: the
// block's own and the one that ended it, which together decide the block.
Block build_block(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                  const CycleCosts& costs, std::vector<BlockOp>& ops,
                  std::uint32_t* examined = nullptr);

// The first `count` instructions of `block` (0 < count < block.count, all
// before its jump, whose delay slots they cannot leave out) as a block of
// their own, its operations copied into `ops` (replacing what was there,
// followed by an `end`): what runs of a block that does not fit before a
// run's limits. It ends as the stepper finds the core before the next
// instruction: that one's start, and the register loaded just before it.
Block prefix_block(const Block& block, std::uint32_t count, std::vector<BlockOp>& ops);

} // namespace lanai::iss
