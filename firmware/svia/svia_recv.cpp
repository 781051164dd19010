// The receive engine: a packet taken off the network is checked and matched
// to its VI; only then is the VI's oldest posted receive descriptor fetched
// from host memory, the data scattered into its segments and the completion
// written back, each step waited for. A Reliable Reception sender's
// acknowledgement leaves once the data is in host memory (or the message
// failed here), before the completion; acknowledgements arriving go to the
// send side, RDMA writes to svia_rdma_write.cpp, and RDMA read requests
// are refused (SVIA serves none).
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/vi_table.h"
#include "svia.h"
#include "svia_counters.h"

namespace svia {

namespace {

via::PacketCheck check(const Arrival& arrival) {
  return via::check_packet(*arrival.buffer, arrival.payload_bytes, arrival.source, arrival.damage);
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
    const via::HdmaRequest request{segment.address,
                                   segment.handle,
                                   ptag,
                                   via::sram_address(data + offset),
                                   piece,
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

// Tells a sender waiting for word of its message (a Reliable Reception
// sender, an RDMA read's initiator, a sender keeping the packet) that it
// failed here with `errors`.
void refuse(const via_packet_header& header, uint32_t errors) {
  if ((header.flags & (VIA_PACKET_F_ACK_WANTED | VIA_PACKET_F_RDMA_READ | VIA_PACKET_F_RELIABLE)) ==
          0u ||
      !via::vi_valid(header.dst_vi))
    return;
  send_ack({header.src_node, header.src_vi, header.dst_vi, header.sequence, errors, VIA_ACK_F_EXACT,
            0u});
}

// A message for a receive: the VI's oldest posted receive is fetched, the
// data scattered into it, the sender's acknowledgement (if it asked)
// queued and the completion written. Inlined in both its callers: plain
// messages take it straight from deliver_arrival.
[[gnu::always_inline]] inline void deliver_message(uint32_t vi, const via::ReceiveBuffer& packet) {
  via::PostedDescriptor posted;
  if (!next_receive(vi, posted)) {
    via::no_receive_posted(vi);
    acknowledge(packet.header, VIP_STATUS_REMOTE_DESC_ERROR);
    return;
  }
  via::trace_state("recv:fetch_descriptor");
  via::Descriptor descriptor;
  if (!fetch_descriptor(vi, posted, descriptor)) {
    acknowledge(packet.header, VIP_STATUS_REMOTE_DESC_ERROR);
    return;
  }
  via::trace_state("recv:scatter_data");
  uint32_t placed;
  const uint32_t errors = fill(vi, descriptor, packet, placed);
  acknowledge(packet.header, errors);
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

// Each VI's next number expected (+1; 0: none) when a message past a gap
// was last reported to its sender.
uint32_t gap_reported[VIA_MAX_VI];

// A reliable VI's message is taken only in sequence: a duplicate (its
// sender resent it, its acknowledgement lost) is acknowledged again and
// dropped; one past a gap is dropped, and the first past each gap is
// answered by an acknowledgement saying so (VIA_ACK_F_GAP), on which the
// sender goes back at once. True if it is the next one, to be taken.
bool in_sequence(uint32_t vi, const via_packet_header& header) {
  const via::InSequence verdict = via::judge_sequence(vi, header.sequence);
  if (verdict == via::InSequence::next) {
    via::take_sequence(vi, header.sequence);
    return true;
  }
  if (verdict == via::InSequence::duplicate) {
    // With the outcomes of the messages before: a failure reported by an
    // acknowledgement that was lost is reported again.
    const uint32_t last = via::last_sequence(vi);
    const uint32_t outcomes = via::outcomes_as_of(vi, last);
    settle_delayed(vi);
    send_ack(
        {header.src_node, header.src_vi, vi, last, via::outcome_status(outcomes), 0u, outcomes});
    send_next_ack();
  } else if (gap_reported[vi] != via::last_sequence(vi) + 2u) {
    const uint32_t last = via::last_sequence(vi);
    const uint32_t outcomes = via::outcomes_as_of(vi, last);
    gap_reported[vi] = last + 2u;
    settle_delayed(vi);
    send_ack({header.src_node, header.src_vi, vi, last, via::outcome_status(outcomes),
              VIA_ACK_F_GAP, outcomes});
    send_next_ack();
  }
  return false;
}

// A message for a VI that asks for more than a plain one: an RDMA read
// request (refused: SVIA serves none, but a peer running other firmware
// may ask), an RDMA write, or a message whose sender wants an
// acknowledgement. False if it must wait for room to queue its
// acknowledgement. Out of line: plain messages do not pay for it.
[[gnu::noinline]] bool deliver_marked(uint32_t vi, const via::ReceiveBuffer& packet) {
  const uint32_t flags = packet.header.flags;
  if (!ack_room())
    return false;
  const uint32_t sequence = packet.header.sequence;
  via::trace_tag(vi, sequence);
  // Whoever waits for an answer resends until it comes (SVIA's reliable
  // messages, and Reliable Reception ones from PVIA or QoS-VIA, which mark
  // only that they want it): their messages are taken in sequence.
  if ((flags & (VIA_PACKET_F_RELIABLE | VIA_PACKET_F_ACK_WANTED)) != 0u) {
    if (!in_sequence(vi, packet.header))
      return true;
  } else if (!via::take_unreliable(vi, sequence)) {
    return true;
  }
  if ((flags & VIA_PACKET_F_RDMA_READ) != 0u) {
    count(svia_rdma_reads_refused);
    (void)via::note_outcome(vi, sequence, VIP_STATUS_RDMA_PROT_ERROR);
    refuse(packet.header, VIP_STATUS_RDMA_PROT_ERROR);
  } else if ((flags & VIA_PACKET_F_RDMA_WRITE) != 0u) {
    deliver_rdma_write(vi, packet);
  } else {
    deliver_message(vi, packet);
  }
  // A Reliable Delivery sender's acknowledgement is no hurry (it only lets
  // the sender free the packet it keeps) unless the sender asks: it waits
  // to be merged with later ones. Any other leaves now if the network send
  // DMA is idle.
  if ((flags & (VIA_PACKET_F_RELIABLE | VIA_PACKET_F_ACK_WANTED)) == VIA_PACKET_F_RELIABLE)
    delay_ack(vi, packet.header);
  if (acks_waiting())
    send_next_ack();
  return true;
}

// A packet that is no whole message, or no message at all: an
// acknowledgement, an RDMA read request (which is all header and
// trailer), or one SVIA cannot take (damaged, or a fragment: SVIA does
// not reassemble them, so it is as good as damaged). False for a read
// request, which the caller takes as a message for a VI.
[[gnu::noinline]] bool deliver_unusual(const via::ReceiveBuffer& packet, via::PacketCheck checked) {
  const via_packet_header& header = packet.header;
  if (checked == via::PacketCheck::ack) {
    ack_arrived(header);
    return true;
  }
  if (checked == via::PacketCheck::data && (header.flags & VIA_PACKET_F_RDMA_READ) != 0u &&
      header.offset == 0u && header.length == 0u)
    return false;
  // Dropped and counted, not reported: a damaged header cannot say which VI
  // the packet was for, a reliable VI gets the message again, and an
  // unreliable one may lose it.
  count(svia_bad_packets);
  return true;
}

} // namespace

void send_acknowledgement(const via_packet_header& header, uint32_t errors) {
  const uint32_t status = via::sender_status(errors);
  send_ack({header.src_node, header.src_vi, header.dst_vi, header.sequence, status, 0u,
            via::note_outcome(header.dst_vi, header.sequence, status)});
}

bool deliver_arrival(const Arrival& arrival) {
  via::trace_state("recv:arrival");
  const via::PacketCheck checked = check(arrival);
  const via::ReceiveBuffer& packet = *arrival.buffer;
  if ((checked != via::PacketCheck::data || !via::packet_whole(packet)) &&
      deliver_unusual(packet, checked))
    return true;
  const uint32_t vi = packet.header.dst_vi;
  if (!via::vi_valid(vi) ||
      !via::vi_accepts_from(vi, packet.header.src_node, packet.header.src_vi)) {
    if (!ack_room())
      return false;
    count(svia_unmatched_packets);
    refuse(packet.header, VIP_STATUS_TRANSPORT_ERROR);
    if (acks_waiting())
      send_next_ack();
    return true;
  }
  constexpr uint32_t kMarked = VIA_PACKET_F_RDMA_READ | VIA_PACKET_F_RDMA_WRITE |
                               VIA_PACKET_F_ACK_WANTED | VIA_PACKET_F_RELIABLE;
  const uint32_t marks = packet.header.flags & kMarked;
  // A Reliable Delivery message, the one expected next: taken as a plain
  // one, its acknowledgement delayed. Anything else reliable (a resend, a
  // message past a gap) is judged out of line.
  if (marks == VIA_PACKET_F_RELIABLE && via::take_if_next(vi, packet.header.sequence)) {
    via::trace_tag(vi, packet.header.sequence);
    deliver_message(vi, packet);
    delay_ack(vi, packet.header);
    if (acks_waiting())
      send_next_ack();
    return true;
  }
  if (marks != 0u)
    return deliver_marked(vi, packet);
  // An unreliable VI's message: lost ones are skipped, never taken twice.
  if (!via::take_unreliable(vi, packet.header.sequence))
    return true;
  via::trace_tag(vi, packet.header.sequence);
  deliver_message(vi, packet);
  return true;
}

} // namespace svia
