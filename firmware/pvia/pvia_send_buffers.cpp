// The pool of send buffers (pvia_send_buffers.h).
#include "pvia_send_buffers.h"

#include "common/sram_placement.h"

namespace pvia {

VIA_ZEROED_AT_LOAD via::SendBuffer send_buffers[kSendBuffers]{};
uint8_t send_buffers_unused[kSendBuffers];
uint32_t send_buffers_unused_count;

void start_send_buffers() {
  send_buffers_unused_count = 0u;
  for (uint32_t b = kSendBuffers; b-- > 0u;)
    give_back_send_buffer(b);
}

} // namespace pvia
