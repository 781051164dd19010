// The shared blocks: per library, the blocks entered at each address (one per
// body of code seen there, so a few at most), each with the words it was
// built from; a block is handed out only to SRAM that holds those words.
#include "emulator/iss/block_library.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <map>

namespace lanai::iss {

namespace {

std::atomic<bool> sharing_default{true};

// What a block depends on besides its words and entry.
using LibraryKey = std::array<std::uint32_t, 7>;

LibraryKey key_of(std::uint32_t sram_bytes, const CycleCosts& c) {
  return {sram_bytes,
          c.alu_cycles,
          c.load_cycles,
          c.store_cycles,
          c.branch_taken_cycles,
          c.branch_untaken_cycles,
          c.load_use_stall_cycles};
}

} // namespace

BlockLibrary& BlockLibrary::of(std::uint32_t sram_bytes, const CycleCosts& costs) {
  static std::mutex mutex;
  static std::map<LibraryKey, std::unique_ptr<BlockLibrary>> libraries;
  const std::lock_guard lock(mutex);
  std::unique_ptr<BlockLibrary>& library = libraries[key_of(sram_bytes, costs)];
  if (!library)
    library = std::make_unique<BlockLibrary>();
  return *library;
}

void BlockLibrary::set_default_sharing(bool on) { sharing_default = on; }
bool BlockLibrary::default_sharing() { return sharing_default; }

const Block* BlockLibrary::find(std::uint32_t pc, const std::uint8_t* sram) const {
  const std::lock_guard lock(mutex_);
  return find_locked(pc, sram);
}

const Block* BlockLibrary::find_locked(std::uint32_t pc, const std::uint8_t* sram) const {
  const auto at = by_pc_.find(pc);
  if (at == by_pc_.end())
    return nullptr;
  for (const Entry& entry : at->second)
    if (std::memcmp(words_.data() + entry.words_at, sram + pc, 4 * std::size_t{entry.word_count}) ==
        0)
      return entry.block;
  return nullptr;
}

const Block* BlockLibrary::keep(const Block& block, std::span<const BlockOp> ops,
                                std::uint32_t examined_words, const std::uint8_t* sram) {
  const std::lock_guard lock(mutex_);
  // Another core may have kept the same block since this one looked.
  if (const Block* same = find_locked(block.pc, sram))
    return same;
  if (weight_ + ops.size() + 1 > capacity_ || ops.size() > OpChunks::ops_per_chunk)
    return nullptr;
  Block kept = block;
  if (!ops.empty()) {
    BlockOp* room = ops_.place(ops.size());
    std::copy(ops.begin(), ops.end(), room);
    kept.ops = room;
  }
  weight_ += ops.size() + 1;
  blocks_.push_back(kept);
  const std::size_t words_at = words_.size();
  words_.insert(words_.end(), sram + block.pc, sram + block.pc + 4 * std::size_t{examined_words});
  by_pc_[block.pc].push_back(Entry{&blocks_.back(), words_at, examined_words});
  return &blocks_.back();
}

std::size_t BlockLibrary::blocks() const {
  const std::lock_guard lock(mutex_);
  return blocks_.size();
}

std::size_t BlockLibrary::weight() const {
  const std::lock_guard lock(mutex_);
  return weight_;
}

} // namespace lanai::iss
