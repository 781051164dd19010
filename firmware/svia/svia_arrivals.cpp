// Packets from the network: two receive buffers, one armed on the receive
// DMA while the other waits to be delivered. Taking a finished packet and
// re-arming with the spare buffer is all that happens during busy-waits;
// delivering it is left to the main loop.
#include <lanai/register_map.h>

#include "common/sram_placement.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

uint32_t receive_dma_armed = kNoBuffer;
uint32_t arrival_filled = kNoBuffer;

namespace {

enum class BufferState : uint8_t {
  free,   // may be armed
  armed,  // the receive DMA fills it with the next packet
  filled, // holds a packet waiting for delivery
};

constexpr uint32_t kBuffers = 2u;

VIA_ZEROED_AT_LOAD via::ReceiveBuffer buffers[kBuffers]{};
BufferState states[kBuffers];
Arrival arrivals[kBuffers];

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
  receive_dma_armed = index;
}

uint32_t free_buffer() {
  for (uint32_t i = 0u; i < kBuffers; ++i)
    if (states[i] == BufferState::free)
      return i;
  return kNoBuffer;
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
  if (receive_dma_armed == kNoBuffer) {
    const uint32_t spare = free_buffer();
    if (spare != kNoBuffer)
      arm(spare);
    return;
  }
  const uint32_t status = via::nrdma_status();
  if ((status & LANAI_NRDMA_STATUS_DONE) == 0u)
    return;
  // Without a spare buffer the packet stays in the receive DMA, unacknowledged,
  // and the network holds the ones behind it: nothing is lost.
  const uint32_t spare = free_buffer();
  if (spare == kNoBuffer)
    return;
  Arrival& arrival = arrivals[receive_dma_armed];
  arrival.payload_bytes = via::nrdma_length();
  arrival.source = via::nrdma_source();
  arrival.damage = status & (LANAI_NRDMA_STATUS_BAD_CRC | LANAI_NRDMA_STATUS_TRUNCATED);
  states[receive_dma_armed] = BufferState::filled;
  arrival_filled = receive_dma_armed;
  receive_dma_armed = kNoBuffer;
  count(svia_packets_received);
  via::nrdma_acknowledge();
  arm(spare);
}

const Arrival* pending_arrival() {
  return arrival_filled == kNoBuffer ? nullptr : &arrivals[arrival_filled];
}

void release_arrival() {
  if (arrival_filled == kNoBuffer)
    return;
  states[arrival_filled] = BufferState::free;
  arrival_filled = kNoBuffer;
  if (receive_dma_armed == kNoBuffer)
    arm(free_buffer());
}

} // namespace svia
