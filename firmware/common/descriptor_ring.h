// A small software ring of posted descriptors, one per VI queue on the NIC:
// doorbells append, the firmware consumes in posting order. VIA_QUEUE_DEPTH
// entries, which the host library never exceeds.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/descriptor.h"

namespace via {

class DescriptorRing {
public:
  static constexpr uint32_t kCapacity = VIA_QUEUE_DEPTH;
  static_assert((kCapacity & (kCapacity - 1u)) == 0u, "indices wrap by masking");

  bool empty() const { return head_ == tail_; }
  bool full() const { return tail_ - head_ == kCapacity; }
  uint32_t size() const { return tail_ - head_; }

  bool push(const PostedDescriptor& posted) {
    if (full())
      return false;
    entries_[tail_ & (kCapacity - 1u)] = posted;
    ++tail_;
    return true;
  }

  bool pop(PostedDescriptor& out) {
    if (empty())
      return false;
    out = entries_[head_ & (kCapacity - 1u)];
    ++head_;
    return true;
  }

private:
  // Free-running counts: their difference is the fill level even after
  // they wrap.
  uint32_t head_ = 0u;
  uint32_t tail_ = 0u;
  PostedDescriptor entries_[kCapacity] = {};
};

} // namespace via
