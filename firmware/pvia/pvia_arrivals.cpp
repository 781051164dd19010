// The network receive DMA as PVIA drives it: a small ring of receive
// buffers, one armed while the others hold packets being delivered, so the
// next packet can land while the previous one is scattered to the host. A
// buffer is re-armed as soon as the receive engine releases it.
#include <lanai/register_map.h>

#include "common/sram_placement.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

uint32_t receive_dma_armed = kUnarmed;
uint32_t arrivals_head;
uint32_t arrivals_tail;

namespace {

enum class BufferState : uint8_t {
  free,   // may be armed
  armed,  // the receive DMA fills it with the next packet
  filled, // holds a packet the receive engine has not finished with
};

constexpr uint32_t kBuffers = 4u;
constexpr uint32_t kOrder = 8u; // at least kBuffers
static_assert((kOrder & (kOrder - 1u)) == 0u && kOrder >= kBuffers, "indices wrap by masking");

VIA_ZEROED_AT_LOAD via::ReceiveBuffer buffers[kBuffers]{};
BufferState states[kBuffers];
Arrival arrivals[kBuffers];
// Filled buffers not yet taken by the receive engine, in arrival order.
uint8_t waiting[kOrder];

void arm_free_buffer() {
  for (uint32_t i = 0u; i < kBuffers; ++i) {
    if (states[i] != BufferState::free)
      continue;
    const uint32_t result =
        via::nrdma_arm(via::sram_address(&buffers[i]), sizeof(via::ReceiveBuffer));
    if (result != LANAI_NRDMA_ACCEPTED) {
      count(pvia_nrdma_refusals);
      return;
    }
    states[i] = BufferState::armed;
    receive_dma_armed = i;
    return;
  }
}

// Takes the finished packet out of the receive DMA, if there is one.
void take_packet() {
  const uint32_t status = via::nrdma_status();
  if ((status & LANAI_NRDMA_STATUS_DONE) == 0u)
    return;
  Arrival& arrival = arrivals[receive_dma_armed];
  arrival.payload_bytes = via::nrdma_length();
  arrival.source = via::nrdma_source();
  arrival.damage = status & (LANAI_NRDMA_STATUS_BAD_CRC | LANAI_NRDMA_STATUS_TRUNCATED);
  arrival.arrived_at = via::nrdma_arrived_at();
  states[receive_dma_armed] = BufferState::filled;
  waiting[arrivals_tail & (kOrder - 1u)] = static_cast<uint8_t>(receive_dma_armed);
  ++arrivals_tail;
  receive_dma_armed = kUnarmed;
  count(pvia_packets_received);
  via::nrdma_acknowledge();
}

} // namespace

void start_receiving() {
  for (uint32_t i = 0u; i < kBuffers; ++i) {
    states[i] = BufferState::free;
    arrivals[i].buffer = &buffers[i];
    arrivals[i].index = i;
  }
  receive_dma_armed = kUnarmed;
  arrivals_head = arrivals_tail = 0u;
  arm_free_buffer();
}

void poll_arrivals() {
  if (receive_dma_armed != kUnarmed)
    take_packet();
  if (receive_dma_armed == kUnarmed)
    arm_free_buffer();
  if (arrivals_head != arrivals_tail) {
    const uint32_t index = waiting[arrivals_head & (kOrder - 1u)];
    if (receive_arrival(arrivals[index]))
      ++arrivals_head;
  }
}

void release_arrival(uint32_t index) {
  states[index] = BufferState::free;
  if (receive_dma_armed == kUnarmed)
    arm_free_buffer();
}

} // namespace pvia
