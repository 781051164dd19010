// Storage for blocks' operations in fixed chunks, so that none moves once
// placed (a block points at its operations).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "emulator/iss/block.hpp"

namespace lanai::iss {

class OpChunks {
public:
  // The most operations one place() can hold.
  static constexpr std::size_t ops_per_chunk = 4096;

  // Room for `ops` operations (at most ops_per_chunk), kept until clear().
  BlockOp* place(std::size_t ops) {
    if (chunks_.empty() || used_ + ops > ops_per_chunk) {
      chunks_.push_back(std::make_unique<BlockOp[]>(ops_per_chunk));
      used_ = 0;
    }
    BlockOp* room = chunks_.back().get() + used_;
    used_ += ops;
    return room;
  }
  void clear() {
    chunks_.clear();
    used_ = 0;
  }

private:
  std::vector<std::unique_ptr<BlockOp[]>> chunks_;
  std::size_t used_ = 0; // of the last chunk
};

} // namespace lanai::iss
