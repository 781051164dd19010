// A min-heap of VI numbers, each keyed by the stamp of its oldest waiting
// work (ties broken by a card-wide serial number in arrival order): the VI
// the scheduler serves first is on top. Adding a VI, taking the top away or
// growing the top's key walks the heap's height, not its size, so the cost
// of choosing grows with the logarithm of the VIs waiting.
//
// Each slot holds its VI's key beside the VI's number: a comparison reads
// the two keys at fixed offsets from their slots instead of looking each
// key up by VI number, and the entry being placed stays in registers while
// the walk moves the others. A slot is 16 bytes, so finding one is a shift.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/scheduler.h"

namespace via {

class ViHeap {
public:
  bool empty() const { return size_ == 0u; }
  // The VI served first; the heap must not be empty.
  uint32_t top() const { return heap_[0].vi; }
  void clear() { size_ = 0u; }

  // `vi`, not in the heap, joins with key (stamp, serial).
  void push(uint32_t vi, Stamp stamp, uint32_t serial) { sift_up(size_++, {stamp, serial, vi}); }
  // The top's key grew to (stamp, serial) (its next work is later).
  void top_grew(Stamp stamp, uint32_t serial) { sift_down({stamp, serial, heap_[0].vi}); }
  // The top leaves.
  void pop() {
    const uint32_t last = --size_;
    if (last != 0u)
      sift_down(heap_[last]);
  }

private:
  struct Entry {
    Stamp stamp;
    uint32_t serial;
    uint32_t vi;
  };
  static_assert(sizeof(Entry) == 16u, "a slot is found by shifting its index");

  static bool before(const Entry& a, const Entry& b) {
    return stamped_first(a.stamp, a.serial, b.stamp, b.serial);
  }
  // Places `entry` at `at` or above it.
  void sift_up(uint32_t at, const Entry entry) {
    while (at != 0u) {
      const uint32_t parent = (at - 1u) / 2u;
      if (!before(entry, heap_[parent]))
        break;
      heap_[at] = heap_[parent];
      at = parent;
    }
    heap_[at] = entry;
  }
  // Places `entry` at the top or below it.
  void sift_down(const Entry entry) {
    const uint32_t size = size_;
    uint32_t at = 0u;
    for (uint32_t child = 1u; child < size; child = 2u * at + 1u) {
      const Entry* first = &heap_[child];
      if (child + 1u < size && before(first[1], first[0])) {
        ++child;
        ++first;
      }
      if (!before(*first, entry))
        break;
      heap_[at] = *first;
      at = child;
    }
    heap_[at] = entry;
  }

  Entry heap_[VIA_MAX_VI] = {};
  uint32_t size_ = 0u;
};

} // namespace via
