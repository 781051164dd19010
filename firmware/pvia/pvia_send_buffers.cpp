// The pool of send buffers (pvia_send_buffers.h). Eight buffers of the
// largest packet: two fill from the host DMA while packets that have been
// gathered wait for, or leave on, the wire.
#include "pvia_send_buffers.h"

#include "common/sram_placement.h"

namespace pvia {

namespace {

constexpr uint32_t kBuffers = 8u;
static_assert(kBuffers < kNoBuffer, "buffer numbers fit a byte");

} // namespace

VIA_ZEROED_AT_LOAD via::SendBuffer send_buffers[kBuffers]{};
uint8_t send_buffers_unused[kBuffers];
uint32_t send_buffers_unused_count;

void start_send_buffers() {
  send_buffers_unused_count = 0u;
  for (uint32_t b = kBuffers; b-- > 0u;)
    give_back_send_buffer(b);
}

} // namespace pvia
