// A min-heap of VI numbers, each keyed by the stamp of its oldest waiting
// work (ties broken by a card-wide serial number in arrival order): the VI
// the scheduler serves first is on top. Adding a VI, taking the top away or
// growing the top's key walks the heap's height, not its size, so the cost
// of choosing grows with the logarithm of the VIs waiting.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/scheduler.h"

namespace via {

class ViHeap {
public:
  bool empty() const { return size_ == 0u; }
  // The VI served first; the heap must not be empty.
  uint32_t top() const { return heap_[0]; }
  void clear() { size_ = 0u; }

  // `vi`, not in the heap, joins with key (stamp, serial).
  void push(uint32_t vi, Stamp stamp, uint32_t serial) {
    keys_[vi] = {stamp, serial};
    sift_up(size_++, vi);
  }
  // The top's key grew to (stamp, serial) (its next work is later).
  void top_grew(Stamp stamp, uint32_t serial) {
    const uint32_t vi = heap_[0];
    keys_[vi] = {stamp, serial};
    sift_down(0u, vi);
  }
  // The top leaves.
  void pop() {
    const uint32_t last = heap_[--size_];
    if (size_ != 0u)
      sift_down(0u, last);
  }

private:
  struct Key {
    Stamp stamp;
    uint32_t serial;
  };

  bool before(uint32_t a, uint32_t b) const {
    return stamped_first(keys_[a].stamp, keys_[a].serial, keys_[b].stamp, keys_[b].serial);
  }
  // Places `vi` at `at` or above it.
  void sift_up(uint32_t at, uint32_t vi) {
    while (at != 0u) {
      const uint32_t parent = (at - 1u) / 2u;
      if (!before(vi, heap_[parent]))
        break;
      heap_[at] = heap_[parent];
      at = parent;
    }
    heap_[at] = static_cast<uint8_t>(vi);
  }
  // Places `vi` at `at` or below it.
  void sift_down(uint32_t at, uint32_t vi) {
    for (;;) {
      uint32_t child = 2u * at + 1u;
      if (child >= size_)
        break;
      if (child + 1u < size_ && before(heap_[child + 1u], heap_[child]))
        ++child;
      if (!before(heap_[child], vi))
        break;
      heap_[at] = heap_[child];
      at = child;
    }
    heap_[at] = static_cast<uint8_t>(vi);
  }

  static_assert(VIA_MAX_VI <= 256, "a heap slot holds a VI number in a byte");
  Key keys_[VIA_MAX_VI] = {};
  uint8_t heap_[VIA_MAX_VI] = {};
  uint32_t size_ = 0u;
};

} // namespace via
