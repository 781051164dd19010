// Block storage: block records in a deque and their operations in fixed
// chunks, so neither moves once built, found through a per-word entry
// table. Forgotten blocks are only unlinked; their space is reclaimed all at
// once when it outweighs the live blocks'.
#include "emulator/iss/block_cache.hpp"

#include <algorithm>

#include "emulator/iss/block_builder.hpp"

namespace lanai::iss {

namespace {

constexpr std::size_t ops_per_chunk = 4096;
// Below this many forgotten operations, reclaiming is not worth a rebuild.
constexpr std::size_t min_reclaim_ops = 4096;

// What a block occupies, in operations (its record counts as one).
std::size_t weight(const Block& block) { return block.count + 1; }

} // namespace

BlockCache::BlockCache(std::uint32_t sram_bytes)
    : entry_(zeroed_array<const Block*>(sram_bytes / 4)) {}

BlockOp* BlockCache::room_for(std::size_t ops) {
  if (chunks_.empty() || chunk_used_ + ops > ops_per_chunk) {
    chunks_.push_back(std::make_unique<BlockOp[]>(ops_per_chunk));
    chunk_used_ = 0;
  }
  BlockOp* room = chunks_.back().get() + chunk_used_;
  chunk_used_ += ops;
  return room;
}

// A kept block no longer reachable: its space counts towards a reclaim.
void BlockCache::forgotten(const Block& block) {
  forgotten_ops_ += weight(block);
  live_ops_ -= weight(block);
}

// Stores `block`, whose operations are in scratch_ (if any).
const Block& BlockCache::keep(const Block& block) {
  Block kept = block;
  if (!scratch_.empty()) {
    BlockOp* ops = room_for(scratch_.size());
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
  const Block& block = keep(build_block(pc, sram, sram_bytes, costs, scratch_));
  entry_[pc >> 2] = &block;
  return block;
}

const Block& BlockCache::prefix(const Block& block, std::uint32_t count) {
  // No reclaiming here, which would free `block` itself: a replaced prefix's
  // space is reclaimed by a later build().
  Prefix* const slot = &prefixes_[prefix_slot(block.pc, count)];
  if (slot->count == count && slot->pc == block.pc)
    return *slot->block;
  if (slot->count != 0) { // replaced
    forgotten(*slot->block);
  }
  const Block& kept = keep(prefix_block(block, count, scratch_));
  *slot = Prefix{block.pc, count, &kept};
  return kept;
}

void BlockCache::forget_prefixes() {
  for (Prefix& slot : prefixes_)
    if (slot.count != 0) {
      forgotten(*slot.block);
      slot = Prefix{};
    }
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
  std::fill(prefixes_.begin(), prefixes_.end(), Prefix{});
  blocks_.clear();
  chunks_.clear();
  chunk_used_ = 0;
  forgotten_ops_ = 0;
  live_ops_ = 0;
  ++generation_;
}

} // namespace lanai::iss
