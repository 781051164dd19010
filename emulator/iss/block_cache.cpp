// Block storage: blocks and their operations are appended to two vectors
// and found through a per-word entry table; forgotten blocks are only
// unlinked, and their space is reclaimed all at once when it outweighs the
// live blocks'.
#include "iss/block_cache.hpp"

#include <algorithm>

#include "iss/block_builder.hpp"

namespace lanai::iss {

namespace {

// Below this many forgotten operations, reclaiming is not worth a rebuild.
constexpr std::size_t min_reclaim_ops = 4096;

} // namespace

BlockCache::BlockCache(std::uint32_t sram_bytes) : entry_(zeroed_array<std::uint32_t>(sram_bytes / 4)) {}

const Block& BlockCache::build(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                               const CycleCosts& costs) {
  if (forgotten_ops_ >= min_reclaim_ops && 2 * forgotten_ops_ > ops_.size()) forget_all();
  blocks_.push_back(build_block(pc, sram, sram_bytes, costs, ops_));
  entry_[pc >> 2] = static_cast<std::uint32_t>(blocks_.size());
  return blocks_.back();
}

void BlockCache::forget_covering(std::uint32_t word) {
  const std::uint32_t first = word >= max_block_instructions - 1 ? word - (max_block_instructions - 1) : 0;
  for (std::uint32_t entry = first; entry <= word; ++entry) {
    const std::uint32_t index = entry_[entry];
    if (index == 0) continue;
    const Block& block = blocks_[index - 1];
    if (entry + words_covered(block) <= word) continue;
    entry_[entry] = 0;
    forgotten_ops_ += block.count ? block.count + 1 : 0;
  }
}

void BlockCache::forget_all() {
  for (std::size_t i = 0; i < blocks_.size(); ++i)
    if (entry_[blocks_[i].pc >> 2] == i + 1) entry_[blocks_[i].pc >> 2] = 0;
  blocks_.clear();
  ops_.clear();
  forgotten_ops_ = 0;
}

} // namespace lanai::iss
