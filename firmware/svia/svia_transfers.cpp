// Device operations the sequential way: start one, then busy-wait until it
// is done, taking packets off the network meanwhile. Also the last step of
// every descriptor, writing its completion back to host memory.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

via::Completion completion;

} // namespace

bool start_host_dma(const via::HdmaRequest& request, uint32_t& id) {
  for (;;) {
    const via::HdmaTicket ticket = via::hdma_submit(request);
    if (ticket.accepted) {
      id = ticket.id;
      return true;
    }
    // A full queue empties on its own; an SRAM range refusal never will.
    if (ticket.refusal != LANAI_HDMA_REFUSED_FULL) {
      count(svia_hdma_refusals);
      return false;
    }
    poll_arrivals();
  }
}

uint32_t finish_host_dma(uint32_t id) { return via::hdma_wait_for(id, poll_arrivals); }

uint32_t host_dma(const via::HdmaRequest& request) {
  uint32_t id;
  if (!start_host_dma(request, id))
    return via::kHdmaRefused;
  return finish_host_dma(id);
}

uint32_t send_packet(const via::OutgoingPacket& packet) {
  for (;;) {
    const uint32_t result =
        via::nsdma_start(via::sram_address(packet.start), packet.length, packet.route_len);
    if (result != LANAI_NSDMA_ACCEPTED && result != LANAI_NSDMA_BUSY)
      return result == LANAI_NSDMA_TOO_LARGE ? VIP_STATUS_LENGTH_ERROR
                                             : VIP_STATUS_TRANSPORT_ERROR;
    // The buffer is reused by the next send, so wait until the tail has
    // left; a busy answer means an earlier packet is still leaving.
    while (via::nsdma_busy())
      poll_arrivals();
    if (result == LANAI_NSDMA_ACCEPTED) {
      count(svia_packets_sent);
      return 0u;
    }
  }
}

void complete_descriptor(uint32_t vi, const via::PostedDescriptor& posted, uint32_t immediate,
                         uint32_t length, uint32_t status) {
  via::encode_completion(completion, immediate, length, status);
  const uint32_t outcome = host_dma({via::completion_address(posted), posted.handle,
                                     via::vi_ptag(vi), via::sram_address(&completion),
                                     VIA_DESC_WRITEBACK_BYTES, via::HdmaDirection::to_host});
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(vi);
}

bool fetch_descriptor(uint32_t vi, const via::PostedDescriptor& posted,
                      via::Descriptor& descriptor) {
  // One message at a time: one SRAM copy serves sends and receives alike.
  static via::DescriptorCopy copy;
  const via::HdmaRequest fetch{posted.address(), posted.handle, via::vi_ptag(vi),
                               via::sram_address(&copy), VIA_DESC_BYTES,
                               via::HdmaDirection::to_sram};
  if (host_dma(fetch) != LANAI_HDMA_OK) {
    report_unreachable_descriptor(vi);
    return false;
  }
  via::decode_descriptor(copy, descriptor);
  return true;
}

void report_unreachable_descriptor(uint32_t vi) {
  count(svia_descriptor_faults);
  // The ABI has no code of its own for this; the descriptor's VI is named
  // so the host can tell which queue is affected.
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_BAD_PACKET, vi));
}

} // namespace svia
