// The predecoded blocks of one core, found by their entry address. A block
// stays valid while the words it covers keep their contents: the core
// reports every write to a covered word (forget_covering), and the blocks
// over it are dropped and rebuilt from the new words when next entered.
#pragma once

#include <cstdint>
#include <vector>

#include "iss/block.hpp"
#include "iss/cycle_costs.hpp"
#include "iss/zeroed_array.hpp"

namespace lanai::iss {

class BlockCache {
public:
  explicit BlockCache(std::uint32_t sram_bytes);

  // The block entered at `pc` (word aligned, inside SRAM), if one is cached.
  const Block* find(std::uint32_t pc) const {
    const std::uint32_t index = entry_[pc >> 2];
    return index ? &blocks_[index - 1] : nullptr;
  }
  const BlockOp* ops(const Block& block) const { return ops_.data() + block.first_op; }

  // Builds and caches the block entered at `pc`. May drop every block first
  // (to reclaim the space of forgotten ones): no block may be executing.
  const Block& build(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                     const CycleCosts& costs);
  // Words a block depends on, from its entry (a block of no instructions
  // still stands for the word at its entry).
  static std::uint32_t words_covered(const Block& block) { return block.count ? block.count : 1; }

  // The word at index `word` changed: forgets every block covering it.
  // The operations of a block being executed stay readable until the next
  // build().
  void forget_covering(std::uint32_t word);

private:
  void forget_all();

  ZeroedArray<std::uint32_t> entry_; // per SRAM word: 1 + index into blocks_, 0: none
  std::vector<Block> blocks_;
  std::vector<BlockOp> ops_;
  std::size_t forgotten_ops_ = 0; // operations of blocks no longer reachable
};

} // namespace lanai::iss
