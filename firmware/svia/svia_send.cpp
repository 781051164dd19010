// The send engine: one posted send descriptor is fetched from host memory,
// checked, its data gathered into the send buffer behind a packet header,
// the packet sent, and the completion written back, each step waited for.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/send_check.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

VIA_ZEROED_AT_LOAD via::SendBuffer send_buffer{};
uint32_t next_sequence[VIA_MAX_VI];

// Brings the segments, in order, into the send buffer behind the header.
// All are queued before any is waited for: the host DMA takes them back to
// back.
uint32_t gather(uint32_t vi, const via::Descriptor& descriptor) {
  const uint32_t ptag = via::vi_ptag(vi);
  uint32_t ids[VIA_MAX_SEGMENTS];
  uint32_t queued = 0u;
  uint32_t offset = 0u;
  uint32_t errors = 0u;
  for (uint32_t i = 0u; i < descriptor.segment_count; ++i) {
    const via::DataSegment& segment = descriptor.segments[i];
    if (segment.length == 0u)
      continue;
    const via::HdmaRequest request{segment.address, segment.handle, ptag,
                                   via::sram_address(send_buffer.data + offset),
                                   segment.length, via::HdmaDirection::to_sram};
    if (!start_host_dma(request, ids[queued])) {
      errors = VIP_STATUS_PROTECTION_ERROR;
      break;
    }
    ++queued;
    offset += segment.length;
  }
  // Wait for everything queued, even after a failure, so that no completion
  // is left to confuse a later wait.
  for (uint32_t i = 0u; i < queued; ++i)
    if (finish_host_dma(ids[i]) != LANAI_HDMA_OK)
      errors = VIP_STATUS_PROTECTION_ERROR;
  return errors;
}

void write_header(uint32_t vi, const via::Descriptor& descriptor) {
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  via_packet_header& header = send_buffer.header;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(vi);
  header.dst_vi = static_cast<uint16_t>(via::vi_config(vi).remote_vi);
  header.flags = static_cast<uint16_t>((immediate ? VIA_PACKET_F_IMMEDIATE : 0u) |
                                       VIA_PACKET_F_LAST);
  header.length = descriptor.length;
  header.immediate = immediate ? descriptor.immediate : 0u;
  header.sequence = next_sequence[vi];
  header.offset = 0u;
  header.message = descriptor.length; // SVIA sends every message whole
}

// Everything after a valid descriptor: 0 once the packet has left, or the
// error bits of the step that failed (nothing is sent then).
uint32_t transmit(uint32_t vi, const via::Descriptor& descriptor) {
  const via::Route route = via::route_to(via::vi_config(vi).remote_node);
  if (route.length == 0u)
    return VIP_STATUS_TRANSPORT_ERROR;
  via::trace_state("send:gather_data");
  const uint32_t gathered = gather(vi, descriptor);
  if (gathered != 0u)
    return gathered;
  via::trace_state("send:transmit");
  write_header(vi, descriptor);
  const uint32_t sent = send_packet(via::frame_packet(send_buffer, route, descriptor.length));
  if (sent == 0u)
    ++next_sequence[vi];
  return sent;
}

} // namespace

void send_message(uint32_t vi, const via::PostedDescriptor& posted) {
  // Every device operation of the message carries its packet's sequence
  // number as its label.
  via::trace_state("send:fetch_descriptor");
  via::trace_tag(vi, next_sequence[vi]);
  via::Descriptor descriptor;
  if (!fetch_descriptor(vi, posted, descriptor))
    return;
  uint32_t errors = via::check_send(vi, descriptor);
  if (errors == 0u)
    errors = transmit(vi, descriptor);
  count(svia_sends_completed);
  if (errors != 0u)
    count(svia_sends_failed);
  via::trace_state("send:write_status");
  complete_descriptor(vi, posted, descriptor.immediate, descriptor.length,
                      VIP_STATUS_DONE | VIP_STATUS_OP_SEND | errors);
}

} // namespace svia
