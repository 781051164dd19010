// Predecoded blocks shared by every core that runs the same code. A block is
// a function of the words its builder examined (its instructions and the
// word that ended it), its entry address, the SRAM size and the cycle costs,
// and of nothing else. The library keeps each block built with those words,
// and hands it to any core of the same SRAM size and costs whose SRAM holds
// the same words there: the block it would have built itself. So the cards
// of a cluster, and the points of a sweep run in one process, decode each
// firmware once. Points run in parallel share it (its calls lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "emulator/iss/block.hpp"
#include "emulator/iss/cycle_costs.hpp"
#include "emulator/iss/op_chunks.hpp"

namespace lanai::iss {

class BlockLibrary {
public:
  // Above its capacity, a weight in operations (24 bytes each; a block's
  // record counts as one), a library keeps no more blocks: a core running
  // code it never saw (random words, say) cannot make the process's memory
  // grow without bound.
  static constexpr std::size_t default_capacity = std::size_t{1} << 20;
  explicit BlockLibrary(std::size_t capacity = default_capacity) : capacity_(capacity) {}
  BlockLibrary(const BlockLibrary&) = delete;
  BlockLibrary& operator=(const BlockLibrary&) = delete;

  // The process's library for cores of this SRAM size and these costs,
  // made on first use and kept until the process ends.
  static BlockLibrary& of(std::uint32_t sram_bytes, const CycleCosts& costs);

  // Whether cores built from now on share blocks through their library (on
  // by default; results are the same either way, only the host time spent
  // decoding differs). Set before any machine is built.
  static void set_default_sharing(bool on);
  static bool default_sharing();

  // A block built at `pc` from exactly the words `sram` holds there, or
  // nullptr. It and its operations stay where they are for the library's
  // life.
  const Block* find(std::uint32_t pc, const std::uint8_t* sram) const;
  // Keeps a copy of `block` (entered at block.pc, its operations `ops`, an
  // `end` included), built from the first `examined_words` words at its
  // entry in `sram`; returns the copy, or nullptr once the library is full
  // (the caller keeps its own then).
  const Block* keep(const Block& block, std::span<const BlockOp> ops, std::uint32_t examined_words,
                    const std::uint8_t* sram);

  // Blocks kept, and their weight.
  std::size_t blocks() const;
  std::size_t weight() const;

private:
  // A kept block and where the words it was built from are.
  struct Entry {
    const Block* block;
    std::size_t words_at; // in words_, bytes
    std::uint32_t word_count;
  };

  const Block* find_locked(std::uint32_t pc, const std::uint8_t* sram) const;

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint32_t, std::vector<Entry>> by_pc_;
  std::deque<Block> blocks_;
  OpChunks ops_;
  std::size_t weight_ = 0;
  std::vector<std::uint8_t> words_; // the examined words, as SRAM holds them
};

} // namespace lanai::iss
