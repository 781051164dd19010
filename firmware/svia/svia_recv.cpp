// The receive engine: a packet taken off the network is checked and matched
// to its VI; only then is the VI's oldest posted receive descriptor fetched
// from host memory, the data scattered into its segments and the completion
// written back, each step waited for.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

bool intact(const Arrival& arrival) {
  return via::packet_intact(*arrival.buffer, arrival.payload_bytes, arrival.source,
                            arrival.damage);
}

// Copies `length` bytes of `data` into the segments, filling each in order.
// All pieces are queued before any is waited for. `placed` is how many
// bytes landed before the first failure.
uint32_t scatter(uint32_t vi, const via::Descriptor& descriptor, const uint8_t* data,
                 uint32_t length, uint32_t& placed) {
  const uint32_t ptag = via::vi_ptag(vi);
  uint32_t ids[VIA_MAX_SEGMENTS];
  uint32_t sizes[VIA_MAX_SEGMENTS];
  uint32_t queued = 0u;
  uint32_t offset = 0u;
  uint32_t errors = 0u;
  for (uint32_t i = 0u; i < descriptor.segment_count && offset < length; ++i) {
    const via::DataSegment& segment = descriptor.segments[i];
    const uint32_t left = length - offset;
    const uint32_t piece = segment.length < left ? segment.length : left;
    if (piece == 0u)
      continue;
    const via::HdmaRequest request{segment.address, segment.handle, ptag,
                                   via::sram_address(data + offset), piece,
                                   via::HdmaDirection::to_host};
    if (!start_host_dma(request, ids[queued])) {
      errors = VIP_STATUS_PROTECTION_ERROR;
      break;
    }
    sizes[queued] = piece;
    ++queued;
    offset += piece;
  }
  placed = 0u;
  for (uint32_t i = 0u; i < queued; ++i) {
    if (finish_host_dma(ids[i], true) != LANAI_HDMA_OK)
      errors = VIP_STATUS_PROTECTION_ERROR;
    else if (errors == 0u)
      placed += sizes[i];
  }
  return errors;
}

// Error bits for delivering the packet's message into the descriptor's
// buffers, or 0 once it is there. A message longer than the buffers is not
// delivered at all.
uint32_t fill(uint32_t vi, const via::Descriptor& descriptor, const via::ReceiveBuffer& packet,
              uint32_t& placed) {
  placed = 0u;
  uint32_t capacity;
  const uint32_t format = via::check_data_segments(descriptor, capacity);
  if (format != 0u)
    return format;
  if (packet.header.length > capacity)
    return VIP_STATUS_LENGTH_ERROR;
  return scatter(vi, descriptor, packet.data, packet.header.length, placed);
}

} // namespace

void deliver_arrival(const Arrival& arrival) {
  via::trace_state("recv:arrival");
  // SVIA takes whole messages only: a fragment is as good as damaged.
  if (!intact(arrival) || !via::packet_whole(*arrival.buffer)) {
    // A damaged header cannot say which VI the packet was for.
    count(svia_bad_packets);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_BAD_PACKET, 0xFFFFu));
    return;
  }
  const via::ReceiveBuffer& packet = *arrival.buffer;
  const uint32_t vi = packet.header.dst_vi;
  if (!via::vi_valid(vi) || !via::vi_accepts_from(vi, packet.header.src_node,
                                                  packet.header.src_vi)) {
    count(svia_unmatched_packets);
    return;
  }
  // SVIA lets no VI be RDMA-written (a peer running other firmware may
  // try): nothing is written, and the host hears of it.
  if ((packet.header.flags & VIA_PACKET_F_RDMA_WRITE) != 0u) {
    count(svia_unmatched_packets);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RDMAW_PROT, vi));
    return;
  }
  via::note_sequence(vi, packet.header.sequence);
  via::trace_tag(vi, packet.header.sequence);
  via::PostedDescriptor posted;
  if (!next_receive(vi, posted)) {
    via::no_receive_posted(vi);
    return;
  }
  via::trace_state("recv:fetch_descriptor");
  via::Descriptor descriptor;
  if (!fetch_descriptor(vi, posted, descriptor))
    return;
  via::trace_state("recv:scatter_data");
  uint32_t placed;
  const uint32_t errors = fill(vi, descriptor, packet, placed);
  uint32_t status = VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE | errors;
  uint32_t immediate = descriptor.immediate;
  if ((packet.header.flags & VIA_PACKET_F_IMMEDIATE) != 0u) {
    immediate = packet.header.immediate;
    status |= VIP_STATUS_IMMEDIATE;
  }
  count(svia_receives_completed);
  if (errors != 0u)
    count(svia_receives_failed);
  via::trace_state("recv:write_status");
  complete_descriptor(vi, posted, immediate, placed, status);
}

} // namespace svia
