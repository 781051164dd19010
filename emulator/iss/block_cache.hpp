// The predecoded blocks of one core, found by their entry address. A block
// stays valid while the words it covers keep their contents: the core
// reports every write to a covered word (forget_covering), and the blocks
// over it are dropped and rebuilt from the new words when next entered.
// The prefixes of blocks that runs cut short are kept too, so that the
// same cut is made once. With a library (block_library.hpp), a block another
// core built from the same words is taken from there instead of built.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "emulator/iss/block.hpp"
#include "emulator/iss/block_library.hpp"
#include "emulator/iss/op_chunks.hpp"
#include "emulator/iss/cycle_costs.hpp"
#include "emulator/iss/zeroed_array.hpp"

namespace lanai::iss {

class BlockCache {
public:
  explicit BlockCache(std::uint32_t sram_bytes, BlockLibrary* library = nullptr);

  // Per SRAM word, the block entered there (nullptr: none cached). Blocks
  // and their operations stay where they are until build() reclaims space.
  const Block* const* entries() const { return entry_.get(); }

  // Builds and caches the block entered at `pc` (word aligned, inside the
  // SRAM). May first drop every block to reclaim the space of forgotten
  // ones: no block may be executing.
  const Block& build(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                     const CycleCosts& costs);
  // Words a block depends on, from its entry (a block of no instructions
  // still stands for the word at its entry).
  static std::uint32_t words_covered(const Block& block) { return block.count ? block.count : 1; }

  // The first `count` instructions of the cached `block` as a block of
  // their own (prefix_block), built on first use and kept while the block
  // is, or until a prefix that shares its place in the table replaces it
  // (after the run of the block in progress).
  const Block& prefix(const Block& block, std::uint32_t count);

  // The word at index `word` changed: forgets every block covering it.
  // A block being executed stays readable until the next build().
  void forget_covering(std::uint32_t word);

  // Changes whenever a block is forgotten: while it stays the same, the
  // block at an entry is the one that was there.
  std::uint64_t generation() const { return generation_; }

private:
  // A kept prefix, found by its block's entry and length in a small table
  // (a prefix that collides replaces the one there, in the same space:
  // prefixes are cut often, and never make the blocks be reclaimed).
  struct Prefix {
    std::uint32_t pc = 0;
    std::uint32_t count = 0; // 0: empty
    Block block;
    std::vector<BlockOp> ops;
  };
  static constexpr std::size_t prefix_slots = 256;
  static std::size_t prefix_slot(std::uint32_t pc, std::uint32_t count) {
    return (((pc >> 2) ^ count << 16) * 0x9E3779B1u) >> 24 & (prefix_slots - 1);
  }

  void forget_all();
  void forget_prefixes();
  void forgotten(const Block& block);
  const Block& keep(const Block& block);

  BlockLibrary* library_;
  ZeroedArray<const Block*> entry_;
  std::deque<Block> blocks_;
  OpChunks ops_;
  std::vector<BlockOp> scratch_; // a block's operations while it is built
  std::vector<Prefix> prefixes_ = std::vector<Prefix>(prefix_slots);
  std::size_t forgotten_ops_ = 0; // of blocks no longer reachable
  std::size_t live_ops_ = 0;
  std::uint64_t generation_ = 0;
};

} // namespace lanai::iss
