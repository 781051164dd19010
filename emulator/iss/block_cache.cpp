// Block storage: block records in a deque and their operations in fixed
// chunks, so neither moves once built, found through a per-word entry
// table. Forgotten blocks are only unlinked; their space is reclaimed all at
// once when it outweighs the live blocks'.
#include "emulator/iss/block_cache.hpp"

#include <algorithm>

#include "emulator/iss/block_builder.hpp"

namespace lanai::iss {

namespace {

// Below this many forgotten operations, reclaiming is not worth a rebuild.
constexpr std::size_t min_reclaim_ops = 4096;

// What a block occupies, in operations (its record counts as one).
std::size_t weight(const Block& block) { return block.count + 1; }

} // namespace

BlockCache::BlockCache(std::uint32_t sram_bytes, BlockLibrary* library)
    : library_(library), entry_(zeroed_array<const Block*>(sram_bytes / 4)) {}

// A kept block no longer reachable: its space counts towards a reclaim.
void BlockCache::forgotten(const Block& block) {
  forgotten_ops_ += weight(block);
  live_ops_ -= weight(block);
}

// Stores `block`, whose operations are in scratch_ (if any; if not, they
// stay where block.ops points).
const Block& BlockCache::keep(const Block& block) {
  Block kept = block;
  if (!scratch_.empty()) {
    BlockOp* ops = ops_.place(scratch_.size());
    std::copy(scratch_.begin(), scratch_.end(), ops);
    kept.ops = ops;
  }
  live_ops_ += weight(kept);
  blocks_.push_back(kept);
  return blocks_.back();
}

const Block& BlockCache::build(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                               const CycleCosts& costs) {
  if (forgotten_ops_ >= min_reclaim_ops && forgotten_ops_ > live_ops_)
    forget_all();
  scratch_.clear();
  const Block* shared = library_ != nullptr ? library_->find(pc, sram) : nullptr;
  if (shared == nullptr) {
    std::uint32_t examined = 0;
    const Block built = build_block(pc, sram, sram_bytes, costs, scratch_, &examined);
    if (library_ != nullptr && examined > 0)
      shared = library_->keep(built, scratch_, examined, sram);
    if (shared == nullptr) {
      const Block& block = keep(built);
      entry_[pc >> 2] = &block;
      return block;
    }
  }
  // The record is this cache's; the operations stay in the library.
  scratch_.clear();
  const Block& block = keep(*shared);
  entry_[pc >> 2] = &block;
  return block;
}

const Block& BlockCache::prefix(const Block& block, std::uint32_t count) {
  Prefix& slot = prefixes_[prefix_slot(block.pc, count)];
  if (slot.count != count || slot.pc != block.pc) {
    slot.block = prefix_block(block, count, slot.ops);
    slot.pc = block.pc;
    slot.count = count;
  }
  return slot.block;
}

void BlockCache::forget_prefixes() {
  for (Prefix& slot : prefixes_)
    slot.count = 0;
}

void BlockCache::forget_covering(std::uint32_t word) {
  const std::uint32_t first =
      word >= max_block_instructions - 1 ? word - (max_block_instructions - 1) : 0;
  bool forgot = false;
  for (std::uint32_t entry = first; entry <= word; ++entry) {
    const Block* block = entry_[entry];
    if (block == nullptr || entry + words_covered(*block) <= word)
      continue;
    entry_[entry] = nullptr;
    forgotten(*block);
    forgot = true;
  }
  // A prefix's block may be gone: the prefixes are cut again on use.
  if (forgot) {
    forget_prefixes();
    ++generation_;
  }
}

void BlockCache::forget_all() {
  for (const Block& block : blocks_)
    if (entry_[block.pc >> 2] == &block)
      entry_[block.pc >> 2] = nullptr;
  forget_prefixes();
  blocks_.clear();
  ops_.clear();
  forgotten_ops_ = 0;
  live_ops_ = 0;
  ++generation_;
}

} // namespace lanai::iss
