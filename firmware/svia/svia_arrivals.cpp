// Packets from the network: two receive buffers, one armed on the receive
// DMA while the other waits to be delivered. Taking a finished packet and
// re-arming with the spare buffer is all that happens during busy-waits;
// delivering it is left to the main loop.
#include <lanai/register_map.h>

#include "common/sram_placement.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

enum class BufferState : uint8_t {
  free,   // may be armed
  armed,  // the receive DMA fills it with the next packet
  filled, // holds a packet waiting for delivery
};

constexpr uint32_t kBuffers = 2u;
constexpr uint32_t kNone = kBuffers;

VIA_ZEROED_AT_LOAD via::ReceiveBuffer buffers[kBuffers]{};
BufferState states[kBuffers];
Arrival arrivals[kBuffers];
uint32_t armed = kNone;  // the buffer the receive DMA holds
uint32_t filled = kNone; // the buffer to deliver next

// A refused arm leaves the receiver idle; the link then holds packets back
// and the next poll tries again.
void arm(uint32_t index) {
  const uint32_t result =
      via::nrdma_arm(via::sram_address(&buffers[index]), sizeof(via::ReceiveBuffer));
  if (result != LANAI_NRDMA_ACCEPTED) {
    count(svia_nrdma_refusals);
    return;
  }
  states[index] = BufferState::armed;
  armed = index;
}

uint32_t free_buffer() {
  for (uint32_t i = 0u; i < kBuffers; ++i)
    if (states[i] == BufferState::free)
      return i;
  return kNone;
}

} // namespace

void start_receiving() {
  for (uint32_t i = 0u; i < kBuffers; ++i) {
    states[i] = BufferState::free;
    arrivals[i].buffer = &buffers[i];
  }
  arm(0u);
}

void poll_arrivals() {
  if (armed == kNone) {
    const uint32_t spare = free_buffer();
    if (spare != kNone)
      arm(spare);
    return;
  }
  const uint32_t status = via::nrdma_status();
  if ((status & LANAI_NRDMA_STATUS_DONE) == 0u)
    return;
  // Without a spare buffer the packet stays in the receive DMA, unacknowledged,
  // and the network holds the ones behind it: nothing is lost.
  const uint32_t spare = free_buffer();
  if (spare == kNone)
    return;
  Arrival& arrival = arrivals[armed];
  arrival.payload_bytes = via::nrdma_length();
  arrival.source = via::nrdma_source();
  arrival.damage = status & (LANAI_NRDMA_STATUS_BAD_CRC | LANAI_NRDMA_STATUS_TRUNCATED);
  states[armed] = BufferState::filled;
  filled = armed;
  armed = kNone;
  count(svia_packets_received);
  via::nrdma_acknowledge();
  arm(spare);
}

const Arrival* pending_arrival() { return filled == kNone ? nullptr : &arrivals[filled]; }

void release_arrival() {
  if (filled == kNone)
    return;
  states[filled] = BufferState::free;
  filled = kNone;
  if (armed == kNone)
    arm(free_buffer());
}

} // namespace svia
