// The send engine's fragments (pvia_send_record.h): which streaming send
// gets the next free send buffer, the reads of its next fragment's data
// into it, and the order in which its fragments, framed, join the network
// send queue: a VI's sends in posting order.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/fragment_plan.h"
#include "common/regulator.h"
#include "common/sched_tick.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_buffers.h"
#include "pvia_send_record.h"

namespace pvia {

using namespace send_engine;

namespace send_engine {

// What a packet carries beyond a send's: a Reliable Reception message asks
// for an acknowledgement; an RDMA write's fragment, and a read request,
// carry the remote memory in a trailer behind the data; a read's data
// going back names the request it answers. Out of line: sends, the common
// case, do not pay for it.
[[gnu::noinline]] void mark_packet(const SendRecord& record, via::SendBuffer& buffer,
                                   via::OutgoingPacket& framed) {
  const via::Descriptor& descriptor = record.descriptor;
  via_packet_header& header = buffer.header;
  uint32_t flags = header.flags;
  if (record.ack_wanted)
    flags |= VIA_PACKET_F_ACK_WANTED;
  // A read's request and data are resent by their own rules.
  if (record.kind > SendKind::rdma_write)
    flags &= ~VIA_PACKET_F_RELIABLE;
  if (record.kind == SendKind::read_data) {
    flags |= VIA_PACKET_F_RDMA_READ_DATA;
    header.immediate = descriptor.immediate;
  } else if (record.kind != SendKind::send) {
    flags |= record.kind == SendKind::rdma_write ? VIA_PACKET_F_RDMA_WRITE : VIA_PACKET_F_RDMA_READ;
    via::put_rdma_trailer(buffer, header.length, descriptor.remote.address,
                          descriptor.remote.handle);
    framed.length += via::kRdmaTrailerBytes;
  }
  header.flags = static_cast<uint16_t>(flags);
}

} // namespace send_engine

namespace {

constexpr uint32_t kReliableShift = VIA_PACKET_F_RELIABLE / VIP_SERVICE_RELIABLE_DELIVERY;
static_assert(kReliableShift * VIP_SERVICE_RELIABLE_DELIVERY == VIA_PACKET_F_RELIABLE,
              "the packet flag is the service bit shifted");

uint32_t tickets_queued[VIA_MAX_VI];
via::Stamp last_queued[VIA_MAX_VI]; // keeps a VI's packets in order in a stamp-ordered queue

void try_queue(uint32_t r);

// Writes the packet header (all but the sequence number, known only as the
// packet leaves) and the route in front of the slot's data, so that the
// network send DMA starts at once when the packet's turn comes. A
// fragment is framed as its data is read, and again should it fail.
[[gnu::always_inline]] inline void frame_fragment(const SendRecord& record, Slot& slot) {
  const via::Descriptor& descriptor = record.descriptor;
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  const uint32_t bytes = slot.carries == Carries::data ? slot.bytes : 0u;
  volatile via_vi_config& config = via::vi_config(record.vi);
  via::SendBuffer& buffer = via::in_register(&send_buffer(slot.buffer));
  via_packet_header& header = buffer.header;
  const uint32_t reliable = config.reliability & VIP_SERVICE_RELIABLE_DELIVERY;
  slot.reliable = reliable != 0u;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(record.vi);
  header.dst_vi = static_cast<uint16_t>(config.remote_vi);
  header.flags = static_cast<uint16_t>(
      (immediate ? VIA_PACKET_F_IMMEDIATE : 0u) | (slot.last ? VIA_PACKET_F_LAST : 0u) |
      (slot.carries == Carries::aborted ? VIA_PACKET_F_ABORTED : 0u) |
      // A Reliable Delivery VI's (mark_packet takes it off a read's).
      reliable * kReliableShift);
  header.length = bytes;
  header.immediate = immediate ? descriptor.immediate : 0u;
  header.offset = slot.offset;
  header.message = descriptor.length;
  slot.framed = via::frame_packet(buffer, via::route_to(config.remote_node), bytes);
  if (record.marked)
    mark_packet(record, buffer, slot.framed);
}

// A fragment that failed while its data was read carries the news instead.
[[gnu::noinline]] void reframe(uint32_t r, Slot& slot) { frame_fragment(records[r], slot); }

// The VI's next send in posting order may queue what it has gathered.
void pass_turn(uint32_t r) {
  const uint32_t n = next_of_vi(r, tickets_queued[records[r].vi]);
  if (n != kNoRecord && records[n].state == SendState::stream)
    try_queue(n);
}

// Puts the record's gathered fragments, in order, in the network send
// queue once the VI's earlier sends are all there; after its last, the
// VI's next send may follow.
void try_queue(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t vi = record.vi;
  if (!record.has_turn) {
    if (record.ticket != tickets_queued[vi])
      return;
    record.has_turn = true;
  }
  while (record.queued != record.gathered) {
    const uint32_t s = record.queued % kSlots;
    Slot& slot = record.slots[s];
    if (stamp_ordered) {
      if (slot.stamp < last_queued[vi])
        slot.stamp = last_queued[vi];
      last_queued[vi] = slot.stamp;
    }
    if (slot.carries == Carries::aborted)
      reframe(r, slot);
#if VIA_REGULATED
    // Best effort is never held; reserved packets of a failed send carry
    // only their news, which need not wait.
    const bool held = !record.best_effort && slot.carries == Carries::data;
    queue_held_packet(packet_of(r, s), slot.stamp,
                      held ? via::release_cycle(vi, slot.stamp, via::cycle_now()) : 0u);
#else
    queue_packet(packet_of(r, s), slot.stamp);
#endif
    slot.state = SlotState::wait_nsdma;
    ++record.queued;
    if (slot.last) {
      ++tickets_queued[vi];
      pass_turn(r);
      return;
    }
  }
}

// The lowest record in a non-empty set of them.
uint32_t lowest_record(uint32_t set) {
  uint32_t r = 0u;
  if ((set & 0xFFu) == 0u) {
    set >>= 8u;
    r += 8u;
  }
  if ((set & 0xFu) == 0u) {
    set >>= 4u;
    r += 4u;
  }
  if ((set & 0x3u) == 0u) {
    set >>= 2u;
    r += 2u;
  }
  return (set & 1u) == 0u ? r + 1u : r;
}
static_assert(kSendRecords <= 16u, "lowest_record looks at 16 bits");

} // namespace

namespace send_engine {

// Every fragment of the record is in a slot (or none will be sent). Once
// it, and every send of its VI before it, is done cutting, the VI's next
// send may cut.
void finish_cutting(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  record.all_cut = true;
  send_wanting &= ~(1u << r);
  const uint32_t vi = record.vi;
  if (record.ticket != tickets_cut[vi])
    return; // a send that failed while an earlier one still cuts
  for (uint32_t at = r;;) {
    ++tickets_cut[vi];
    const uint32_t n = next_of_vi(at, tickets_cut[vi]);
    if (n == kNoRecord)
      return;
    if (!records[n].all_cut) {
      note_wanting(n);
      return;
    }
    at = n;
  }
}

} // namespace send_engine

namespace {

// Fragment `index` of the record failed: it carries the news of the
// message's end if earlier fragments may have left, and none after it is cut.
void fail_fragment(uint32_t r, Slot& slot, uint32_t errors) {
  SendRecord& record = via::in_register(&records[r]);
  record.errors |= errors;
  // Nothing of the message has left yet: nothing need go, but an RDMA
  // read's initiator waits for word of its read either way.
  slot.carries =
      slot.index == 0u && record.kind != SendKind::read_data ? Carries::nothing : Carries::aborted;
  slot.last = true;
  if (!record.all_cut)
    finish_cutting(r);
  if (slot.index < record.failed_at)
    record.failed_at = slot.index;
}

void fragment_gathered(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  ++record.gathered;
  --send_gathers;
  slot.state = SlotState::wait_turn;
  try_queue(r);
}

// Queues the reads of a fragment's data into its buffer, piece by piece
// (a fragment may straddle the descriptor's segments); the number queued.
// A read the host DMA refuses fails the fragment.
[[gnu::noinline]] uint32_t read_pieces(uint32_t r, Slot& slot, uint8_t* data) {
  SendRecord& record = via::in_register(&records[r]);
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count = via::segment_pieces(record.descriptor, slot.offset, slot.bytes, pieces);
  const uint32_t ptag = via::vi_ptag(record.vi);
  uint32_t queued = 0u;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{
        pieces[i].address,       pieces[i].handle, ptag,
        via::sram_address(data), pieces[i].length, static_cast<via::HdmaDirection>(record.gather)};
    if (!submit_host_dma(request, owner_of(r), slot.stamp)) {
      fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
      break;
    }
    ++queued;
    data += pieces[i].length;
  }
  return queued;
}

// Hands the next fragment to the record's free slot, with `buffer` to
// land in, and queues the reads of its data. Out of line: inlined in its
// callers' loops it has the compiler set up every address it might use
// before the first pass, which costs more than the call.
[[gnu::noinline]] void cut_fragment(uint32_t r, uint32_t buffer) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t index = record.cut++;
  const uint32_t s = index % kSlots;
  Slot& slot = via::in_register(&record.slots[s]);
  if (record.ahead) {
    record.ahead = false;
    --sends_ahead[record.best_effort];
  }
  const uint32_t offset = record.offset;
  const uint32_t bytes = via::next_fragment(record.plan);
  record.offset = offset + bytes;
  slot.index = index;
  slot.offset = offset;
  slot.bytes = bytes;
  slot.carries = Carries::data;
  slot.buffer = static_cast<uint8_t>(buffer);
  slot.last = record.plan.remaining == 0u;
  if (stamp_ordered) {
    if (index != 0u) {
      // The VI's clock is already past the message's posting: stamping
      // from time 0 goes on from it.
      const via::Stamp stamp = via::stamp_send(record.vi, bytes, 0u).stamp;
      if (stamp > record.work.stamping.stamp)
        record.work.stamping.stamp = stamp;
    }
    if (tracks_service)
      via::stamp_served(record.work.stamping.stamp);
  }
  slot.stamp = record.work.stamping.stamp;
  slot.state = SlotState::gather_data;
  ++send_gathers;
  trace(r, SlotState::gather_data);
  if (record.measured)
    slot.cut_at = now();
  uint8_t* const data = send_buffer(buffer).data;
  // The common case, a fragment within the first segment, is one read.
  const via::Descriptor& descriptor = record.descriptor;
  uint32_t queued;
  if (descriptor.segment_count == 1u && offset + bytes <= descriptor.segments[0].length) {
    const via::DataSegment& segment = descriptor.segments[0];
    const via::HdmaRequest request{
        segment.address + offset, segment.handle, via::vi_ptag(record.vi),
        via::sram_address(data),  bytes,          static_cast<via::HdmaDirection>(record.gather)};
    queued = bytes == 0u ? 0u : submit_host_dma(request, owner_of(r), slot.stamp) ? 1u : 0u;
    if (bytes != 0u && queued == 0u)
      fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
  } else {
    queued = read_pieces(r, slot, data);
  }
  slot.outstanding = static_cast<uint8_t>(queued);
  if (slot.carries == Carries::data)
    frame_fragment(record, slot);
  if (slot.last && !record.all_cut)
    finish_cutting(r);
  note_wanting(r);
  if (queued == 0u)
    fragment_gathered(r, s);
}

// The record wanting a buffer that the scheduler serves first (the oldest
// send without stamps); kSendRecords if none wants one.
[[gnu::noinline]] uint32_t first_wanting_due();

[[gnu::noinline]] uint32_t first_wanting() {
  if ((send_wanting & (send_wanting - 1u)) == 0u)
    return lowest_record(send_wanting);
  uint32_t best = kSendRecords;
  uint64_t dues = 0u;
  uint32_t mask = send_wanting;
  for (uint32_t r = 0u; mask != 0u; ++r, mask >>= 1u) {
    if ((mask & 1u) == 0u)
      continue;
    const SendWork& work = records[r].work;
    dues |= work.stamping.due;
    if (best == kSendRecords) {
      best = r;
      continue;
    }
    const SendWork& chosen = records[best].work;
    if (stamp_ordered ? via::stamped_first(work.stamping.stamp, work.serial, chosen.stamping.stamp,
                                           chosen.serial)
                      : static_cast<int32_t>(work.serial - chosen.serial) < 0)
      best = r;
  }
  return dues == 0u ? best : first_wanting_due();
}

// first_wanting() when some send has a due time: due work first.
uint32_t first_wanting_due() {
  uint32_t best = kSendRecords;
  via::LazyClock clock;
  uint32_t mask = send_wanting;
  for (uint32_t r = 0u; mask != 0u; ++r, mask >>= 1u) {
    if ((mask & 1u) == 0u)
      continue;
    if (best != kSendRecords) {
      const SendRecord& record = records[r];
      const SendRecord& chosen = records[best];
      if (stamp_ordered) {
        if (via::serve_first(chosen.work.stamping, record.work.stamping, clock))
          continue;
        if (!via::serve_first(record.work.stamping, chosen.work.stamping, clock) &&
            static_cast<int32_t>(record.work.serial - chosen.work.serial) > 0)
          continue;
      } else if (static_cast<int32_t>(record.work.serial - chosen.work.serial) > 0) {
        continue;
      }
    }
    best = r;
  }
  return best;
}

} // namespace

namespace send_engine {

// A send that fails before its data: one empty slot keeps its place.
SendState stream_nothing(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  if (record.ahead) {
    record.ahead = false;
    --sends_ahead[record.best_effort];
  }
  Slot& slot = record.slots[0];
  slot.index = 0u;
  slot.carries = Carries::nothing;
  slot.buffer = kNoBuffer;
  slot.last = true;
  slot.stamp = record.work.stamping.stamp;
  record.cut = 1u;
  finish_cutting(r);
  ++record.gathered;
  slot.state = SlotState::wait_turn;
  record.state = SendState::stream;
  try_queue(r);
  return record.state;
}

void data_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  const uint32_t s = record.gathered % kSlots;
  Slot& slot = record.slots[s];
  if (outcome != LANAI_HDMA_OK && slot.carries == Carries::data)
    fail_fragment(r, slot, VIP_STATUS_PROTECTION_ERROR);
  if (--slot.outstanding == 0u)
    fragment_gathered(r, s);
}

} // namespace send_engine

void start_gather() { cut_fragment(first_wanting(), take_send_buffer()); }

} // namespace pvia
