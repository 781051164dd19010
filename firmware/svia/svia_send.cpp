// The send engine: one posted send descriptor is fetched from host memory,
// checked, its data gathered into the send buffer behind a packet header,
// the packet sent, and the completion written back, each step waited for.
// An RDMA write goes the same way with its target in a trailer behind the
// data; on a Reliable Reception VI the completion is held until the
// receiving card acknowledges (svia_answers.cpp).
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

uint32_t next_sequence[VIA_MAX_VI];
// The VI's epoch + 1 its numbers count from: a flushed VI (a new
// connection) numbers from 0 again, as its peer's card expects.
uint32_t sequence_epoch[VIA_MAX_VI];

// Set while a packet leaves: its completion is held (it waits for an
// acknowledgement, or completions of its VI are held already).
bool completion_held;
// The header's flags and number, which stay readable once the packet is
// kept and send_buffer() names the next one's place.
uint32_t sent_flags;
uint32_t sent_sequence;
uint32_t sent_epoch;

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
    const via::HdmaRequest request{segment.address,
                                   segment.handle,
                                   ptag,
                                   via::sram_address(send_buffer().data + offset),
                                   segment.length,
                                   via::HdmaDirection::to_sram};
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

// Written while the data comes in. Besides a send's, an RDMA write's flag
// (a descriptor with an address segment here: its trailer follows the
// data), a Reliable Reception VI's request for an acknowledgement, and a
// reliable VI's mark that its packet is kept until acknowledged.
void write_header(uint32_t vi, const via::Descriptor& descriptor) {
  static_assert(VIA_PACKET_F_RDMA_WRITE == 1u << 3 &&
                    VIP_SERVICE_RELIABLE_RECEPTION << 2 == VIA_PACKET_F_ACK_WANTED,
                "the marks are the descriptor's and the VI's bits shifted");
  volatile via_vi_config& config = via::in_register(&via::vi_config(vi));
  const uint32_t reliability = config.reliability;
  uint32_t marks = descriptor.remote.length << 3 | (reliability & VIP_SERVICE_RELIABLE_RECEPTION)
                                                       << 2;
  if ((reliability & (VIP_SERVICE_RELIABLE_DELIVERY | VIP_SERVICE_RELIABLE_RECEPTION)) != 0u)
    marks |= VIA_PACKET_F_RELIABLE | ack_now_mark();
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  via_packet_header& header = send_buffer().header;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(vi);
  header.dst_vi = static_cast<uint16_t>(config.remote_vi);
  header.flags =
      static_cast<uint16_t>((immediate ? VIA_PACKET_F_IMMEDIATE : 0u) | VIA_PACKET_F_LAST | marks);
  header.length = descriptor.length;
  header.immediate = immediate ? descriptor.immediate : 0u;
  header.sequence = next_sequence[vi];
  header.offset = 0u;
  header.message = descriptor.length; // SVIA sends every message whole
  sent_flags = header.flags;
  sent_sequence = header.sequence;
}

// The completion status of a descriptor (before errors): done, and the
// descriptor's op (VIP_STATUS_OP_SEND, _RDMA_WRITE, _RDMA_READ: op << 17;
// the reserved op fails as a send).
uint32_t done_status(const via::Descriptor& descriptor) {
  const uint32_t op = via::descriptor_op(descriptor);
  return VIP_STATUS_DONE | (op == VIP_CONTROL_OP_RESERVED ? 0u : op << 17);
}

// An RDMA write's trailer behind its data. Out of line: sends, the common
// case, do not pay for it.
[[gnu::noinline]] void add_trailer(const via::Descriptor& descriptor, via::OutgoingPacket& packet) {
  via::put_rdma_trailer(send_buffer(), descriptor.length, descriptor.remote.address,
                        descriptor.remote.handle);
  packet.length += via::kRdmaTrailerBytes;
}

// Everything after a valid descriptor: 0 once the packet has left, or the
// error bits of the step that failed (nothing is sent then). The
// completion is staged while the packet leaves.
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
  via::OutgoingPacket packet = via::frame_packet(send_buffer(), route, descriptor.length);
  if (descriptor.has_remote())
    add_trailer(descriptor, packet);
  // An acknowledgement that came in is taken while the data comes in, so
  // that a stream does not stop for it.
  if (arrival_filled != kNoBuffer)
    take_acknowledgement(vi, next_sequence[vi]);
  const uint32_t gathered = finish_gather(ids, queued, refused);
  if (gathered != 0u)
    return gathered;
  via::trace_state("send:transmit");
  const uint32_t sent = start_packet(packet);
  if (sent == 0u) {
    // While the packet leaves: its completion is staged, and the next send
    // chosen, so that this one's completion and the next one's descriptor
    // are queued as soon as the packet is out.
    // (A descriptor sent has op send, or RDMA write with remote.length 1.)
    prepare_completion(descriptor.immediate, descriptor.length,
                       VIP_STATUS_DONE | descriptor.remote.length << 17);
    completion_held = (sent_flags & VIA_PACKET_F_ACK_WANTED) != 0u || held_free != kHeldCompletions;
    // A reliable VI's packet is kept until acknowledged; the next message
    // goes behind it.
    if ((sent_flags & VIA_PACKET_F_RELIABLE) != 0u)
      keep_sent(vi, sent_epoch, sent_sequence, packet);
    choose_next_send();
    finish_packet();
  }
  if (sent == 0u)
    ++next_sequence[vi];
  return sent;
}

// The completion of a send that failed, or is held. Out of line: the
// common case is neither. A Reliable Reception send completes on its
// acknowledgement, and any send behind one that waits keeps its place.
[[gnu::noinline]] void finish_unusual(uint32_t vi, const via::PostedDescriptor& posted,
                                      const via::Descriptor& descriptor, uint32_t errors) {
  if (errors != 0u) {
    count(svia_sends_failed);
    prepare_completion(descriptor.immediate, descriptor.length, done_status(descriptor) | errors);
  }
  const bool waits = errors == 0u && (sent_flags & VIA_PACKET_F_ACK_WANTED) != 0u;
  if (waits || completions_held(vi))
    hold_completion(vi, {posted, descriptor.immediate, descriptor.length,
                         done_status(descriptor) | errors, sent_sequence, waits});
  else
    write_completion(vi, posted);
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
  // While the descriptor comes in: a VI flushed since its last send (a new
  // connection) numbers its messages from 0 again, as its peer expects (a
  // descriptor posted before the flush is dropped below).
  sent_epoch = posted.epoch;
  sent_flags = 0u;
  if (sequence_epoch[vi] != posted.epoch + 1u && posted.epoch == via::vi_config(vi).epoch) {
    sequence_epoch[vi] = posted.epoch + 1u;
    next_sequence[vi] = 0u;
  }
  if (!finish_descriptor_fetch(fetch_id, vi, descriptor))
    return;
  // Chosen ahead, it may have been flushed since: the host has completed it.
  if (posted.epoch != via::vi_config(vi).epoch) {
    count(via_stale_descriptors);
    return;
  }
  uint32_t errors = via::check_send(vi, descriptor, via::kRdmaWriteOp);
  if (errors == 0u)
    errors = transmit(vi, descriptor);
  count(svia_sends_completed);
  if (errors != 0u || completion_held) {
    via::trace_state("send:write_status");
    finish_unusual(vi, posted, descriptor, errors);
    fetch_chosen();
    return;
  }
  // The next send's descriptor is fetched first, so that the host DMA
  // reads it while this completion's write waits behind it.
  fetch_chosen();
  via::trace_state("send:write_status");
  via::trace_tag(vi, sent_sequence);
  write_completion(vi, posted); // staged while the packet left
}

} // namespace svia
