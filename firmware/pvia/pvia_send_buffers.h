// The card's send buffers, shared by all of the send engine's records: a
// fragment's data is gathered into one and the packet leaves from it, and
// it goes back to the pool as soon as the packet's tail has left, or, for
// a Reliable Delivery message kept to be sent again, once the receiving
// card acknowledges it (pvia_send_kept.h).
#pragma once

#include <stdint.h>

#include "common/packet.h"
#include "common/sram_placement.h"

namespace pvia {

constexpr uint8_t kNoBuffer = 0xFFu;
// Buffers of the largest packet: two fill from the host DMA while packets
// that have been gathered wait for, or leave on, the wire, and the rest
// hold Reliable Delivery packets until they are acknowledged.
constexpr uint32_t kSendBuffers = 14u;
static_assert(kSendBuffers < kNoBuffer, "buffer numbers fit a byte");

// The pool (pvia_send_buffers.cpp), read in place: the buffers, and the
// free ones' numbers on a stack.
VIA_LARGE_DATA extern via::SendBuffer send_buffers[];
extern uint8_t send_buffers_unused[];
extern uint32_t send_buffers_unused_count;

void start_send_buffers();
inline bool send_buffers_free() { return send_buffers_unused_count != 0u; }
// A free buffer's number; only when send_buffers_free().
inline uint32_t take_send_buffer() { return send_buffers_unused[--send_buffers_unused_count]; }
inline void give_back_send_buffer(uint32_t buffer) {
  send_buffers_unused[send_buffers_unused_count++] = static_cast<uint8_t>(buffer);
}
inline via::SendBuffer& send_buffer(uint32_t buffer) { return send_buffers[buffer]; }

} // namespace pvia
