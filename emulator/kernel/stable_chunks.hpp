// A growing array whose elements never move: they live in fixed chunks of
// a power-of-two size, so an index finds its element with a shift and a
// mask (std::deque divides by its block's element count), and a reference
// stays valid while more elements are added.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace lanai::kernel {

template <class T, unsigned ChunkBits = 6>
class StableChunks {
public:
  static constexpr std::size_t chunk_size = std::size_t{1} << ChunkBits;

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return chunks_[i >> ChunkBits][i & (chunk_size - 1)]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> ChunkBits][i & (chunk_size - 1)]; }
  // Adds a value-initialised element at the end.
  T& emplace_back() {
    if ((size_ & (chunk_size - 1)) == 0)
      chunks_.push_back(std::make_unique<T[]>(chunk_size));
    return (*this)[size_++];
  }

private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

} // namespace lanai::kernel
