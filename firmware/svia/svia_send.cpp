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
#include "common/via_counters.h"

namespace svia {

uint32_t next_fetch;

namespace {

VIA_ZEROED_AT_LOAD via::SendBuffer send_buffer{};
uint32_t next_sequence[VIA_MAX_VI];

// Queues the fetch of the chosen next send's descriptor right behind the
// completion just queued, so the host DMA goes straight on to it.
void fetch_chosen() {
  uint32_t vi;
  via::PostedDescriptor posted;
  if (!chosen_send(vi, posted))
    return;
  via::trace_state("send:fetch_descriptor");
  via::trace_tag(vi, next_sequence[vi]);
  next_fetch = start_descriptor_fetch(vi, posted);
}

// The reads of the segments, in order, into the send buffer behind the
// header: all queued at once (the host DMA takes them back to back), and
// the ids of those queued left in `ids`. Error bits if one was refused.
uint32_t start_gather(uint32_t vi, const via::Descriptor& descriptor, uint32_t* ids,
                      uint32_t& queued) {
  const uint32_t ptag = via::vi_ptag(vi);
  uint32_t offset = 0u;
  queued = 0u;
  for (uint32_t i = 0u; i < descriptor.segment_count; ++i) {
    const via::DataSegment& segment = descriptor.segments[i];
    if (segment.length == 0u)
      continue;
    const via::HdmaRequest request{segment.address, segment.handle, ptag,
                                   via::sram_address(send_buffer.data + offset),
                                   segment.length, via::HdmaDirection::to_sram};
    if (!start_host_dma(request, ids[queued]))
      return VIP_STATUS_PROTECTION_ERROR;
    ++queued;
    offset += segment.length;
  }
  return 0u;
}

// Waits for every read queued, even after a failure, so that no completion
// is left to confuse a later wait.
uint32_t finish_gather(const uint32_t* ids, uint32_t queued, uint32_t errors) {
  for (uint32_t i = 0u; i < queued; ++i)
    if (finish_host_dma(ids[i], true) != LANAI_HDMA_OK)
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
  uint32_t ids[VIA_MAX_SEGMENTS];
  uint32_t queued;
  const uint32_t refused = start_gather(vi, descriptor, ids, queued);
  // The header goes in front of the data while the data comes in.
  write_header(vi, descriptor);
  const via::OutgoingPacket packet = via::frame_packet(send_buffer, route, descriptor.length);
  const uint32_t gathered = finish_gather(ids, queued, refused);
  if (gathered != 0u)
    return gathered;
  via::trace_state("send:transmit");
  const uint32_t sent = start_packet(packet);
  if (sent == 0u) {
    // While the packet leaves: its completion is staged, and the next send
    // chosen, so that this one's completion and the next one's descriptor
    // are queued as soon as the packet is out.
    prepare_completion(descriptor.immediate, descriptor.length, VIP_STATUS_DONE | VIP_STATUS_OP_SEND);
    choose_next_send();
    finish_packet();
  }
  if (sent == 0u)
    ++next_sequence[vi];
  return sent;
}

} // namespace

void send_message(uint32_t vi, const via::PostedDescriptor& posted, uint32_t fetch_id) {
  // Every device operation of the message carries its packet's sequence
  // number as its label.
  via::trace_state("send:fetch_descriptor");
  via::trace_tag(vi, next_sequence[vi]);
  via::Descriptor descriptor;
  if (fetch_id == 0u)
    fetch_id = start_descriptor_fetch(vi, posted);
  if (!finish_descriptor_fetch(fetch_id, vi, descriptor))
    return;
  // Chosen ahead, it may have been flushed since: the host has completed it.
  if (posted.epoch != via::vi_config(vi).epoch) {
    count(via_stale_descriptors);
    return;
  }
  uint32_t errors = via::check_send(vi, descriptor);
  if (errors == 0u)
    errors = transmit(vi, descriptor);
  count(svia_sends_completed);
  via::trace_state("send:write_status");
  if (errors != 0u) {
    count(svia_sends_failed);
    prepare_completion(descriptor.immediate, descriptor.length,
                       VIP_STATUS_DONE | VIP_STATUS_OP_SEND | errors);
  }
  // A packet that left staged its completion while leaving.
  write_completion(vi, posted);
  fetch_chosen();
}

} // namespace svia
