// The binary heap both kernel queues keep their work in, earliest first:
// entries with a `time` and a `sequence` (the order they were made in,
// which breaks ties), and perhaps a `late()` mark. Sifted by hand: the moving entry stays in registers
// instead of being stored and read back at once, as push_heap and pop_heap
// do.
#pragma once

#include <cstddef>
#include <vector>

namespace lanai::kernel {

// True if `a` comes after `b`. Entries with a `late` mark come after the
// unmarked ones of their time.
template <class Entry>
bool later(const Entry& a, const Entry& b) {
  if (a.time != b.time)
    return a.time > b.time;
  if constexpr (requires { a.late(); }) {
    if (a.late() != b.late())
      return a.late();
  }
  return a.sequence > b.sequence;
}

template <class Entry>
void timed_heap_push(std::vector<Entry>& heap, const Entry entry) {
  std::size_t hole = heap.size();
  heap.emplace_back();
  while (hole > 0) {
    const std::size_t parent = (hole - 1) / 2;
    if (!later(heap[parent], entry))
      break;
    heap[hole] = heap[parent];
    hole = parent;
  }
  heap[hole] = entry;
}

// Removes the earliest entry (the heap must not be empty).
template <class Entry>
void timed_heap_pop(std::vector<Entry>& heap) {
  const Entry last = heap.back();
  heap.pop_back();
  const std::size_t n = heap.size();
  if (n == 0)
    return;
  std::size_t hole = 0;
  for (;;) {
    std::size_t child = 2 * hole + 1;
    if (child >= n)
      break;
    if (child + 1 < n && later(heap[child], heap[child + 1]))
      ++child;
    if (!later(last, heap[child]))
      break;
    heap[hole] = heap[child];
    hole = child;
  }
  heap[hole] = last;
}

} // namespace lanai::kernel
