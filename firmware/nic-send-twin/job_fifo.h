// A FIFO of jobs in SRAM: one job is a message number with its class in the
// top bits. Fixed capacity; push reports an overflow instead of wrapping.
// The FIFO itself (its indices and where its slots are) is small and lies
// low in SRAM, where one instruction reaches each word; the slots, large,
// live in large data (sram_placement.h).
#pragma once

#include <stdint.h>

namespace twin {

enum JobClass : uint32_t { kDoorbell = 0, kDescriptor = 1, kData = 2 };

constexpr uint32_t job(JobClass c, uint32_t message) { return c << 30 | (message & 0x3FFFFFFFu); }
constexpr JobClass job_class(uint32_t j) { return static_cast<JobClass>(j >> 30); }
constexpr uint32_t job_message(uint32_t j) { return j & 0x3FFFFFFFu; }

template <uint32_t kCapacity>
struct JobFifo {
  static_assert((kCapacity & (kCapacity - 1)) == 0, "a power of two");
  uint32_t* slots; // kCapacity of them
  uint32_t head;   // next to pop
  uint32_t tail;   // next free

  bool empty() const { return head == tail; }
  uint32_t front() const { return slots[head & (kCapacity - 1)]; }
  uint32_t pop() { return slots[head++ & (kCapacity - 1)]; }
  bool push(uint32_t j) {
    if (tail - head == kCapacity)
      return false;
    slots[tail++ & (kCapacity - 1)] = j;
    return true;
  }
};

} // namespace twin
