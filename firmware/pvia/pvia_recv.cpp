// The receive engine: each posted receive is a record whose descriptor is
// fetched as soon as its doorbell rings and then parked on its VI, in
// posting order, until a message for that VI arrives:
//   fetch_descriptor -> parked -> scatter_data -> write_status
// A message's first fragment (the whole message, if its sender did not cut
// it) takes the oldest record of its VI; the rest follow it in order and are
// placed where they belong in the posted buffers as each arrives, so the
// host DMA of one fragment overlaps the network's delivery of the next. The
// receive completes after the last. A VI's completions are written in the
// order its messages arrived (a receive done early, say one with no data,
// waits its turn). A fragment out of place ends the message it interrupts
// with a transport error. When every record is busy, receives stay in the VI's ring
// and are fetched later (or on demand when their packet arrives).
// An RDMA write takes a record too, for its place in the VI's order: one
// with a posted receive if it carries immediate data (that receive
// completes once the data is in place), else a bare one that completes
// nothing. Its fragments go where their trailers say, if the VI lets its
// peer write and the host DMA finds the memory open to remote writes;
// otherwise nothing is written and the host hears of it. An RDMA read's
// data coming back takes a bare record as well, its fragments going into
// the read's buffers. A Reliable Reception message that no receive can
// take still gets a bare record, so that its refusal is acknowledged in
// the VI's order; an acknowledgement is handed to the send engine, and a
// peer's RDMA read request to pvia_rdma_read.cpp.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/arrival_checks.h"
#include "common/packet.h"
#include "common/sram_placement.h"
#include "common/vi_set.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_recv_record.h"

namespace pvia {

via::ViSet receive_backlog;

// Checking an arrived packet and matching it to a record, for traces.
const char* const receive_arrival_name = "recv:arrival";

namespace receive_engine {

// Names of the states, for traces.
const char* const receive_state_names[] = {
    "recv:free",      "recv:fetch_descriptor", "recv:parked",      "recv:scatter_data",
    "recv:wait_turn", "recv:wait_ack",         "recv:write_status"};
static_assert(static_cast<uint32_t>(ReceiveState::count_) == 7u, "one name per state");

VIA_ZEROED_AT_LOAD ReceiveRecord records[kRecords]{};
uint32_t tickets_completed[VIA_MAX_VI];
uint32_t waiting_turn[VIA_MAX_VI];

} // namespace receive_engine

using namespace receive_engine;

namespace {

struct ViList {
  uint8_t head;
  uint8_t tail;
};

uint8_t free_records[kRecords];
uint32_t free_count;
ViList lists[VIA_MAX_VI];
uint32_t tickets_issued[VIA_MAX_VI]; // packets matched to a receive
uint8_t assembling[VIA_MAX_VI];      // the record awaiting more of the VI's message

} // namespace

void receive_engine::release_record(uint32_t r) {
  records[r].state = ReceiveState::free;
  free_records[free_count++] = static_cast<uint8_t>(r);
}

namespace {

void link(uint32_t vi, uint32_t r) {
  records[r].next = kNoRecord;
  if (lists[vi].head == kNoRecord)
    lists[vi].head = static_cast<uint8_t>(r);
  else
    records[lists[vi].tail].next = static_cast<uint8_t>(r);
  lists[vi].tail = static_cast<uint8_t>(r);
}

void unlink(uint32_t vi, uint32_t r) {
  uint8_t* at = &lists[vi].head;
  uint32_t previous = kNoRecord;
  while (*at != kNoRecord && *at != r) {
    previous = *at;
    at = &records[*at].next;
  }
  if (*at == kNoRecord)
    return;
  *at = records[r].next;
  if (lists[vi].tail == r)
    lists[vi].tail = static_cast<uint8_t>(previous);
}

// Takes a record and queues the fetch of `posted` into it; kNoRecord if
// none is free or the fetch cannot be queued (reported).
uint32_t fetch_into_record(uint32_t vi, const via::PostedDescriptor& posted) {
  const uint32_t r = free_records[--free_count];
  ReceiveRecord& record = via::in_register(&records[r]);
  record.vi = static_cast<uint8_t>(vi);
  record.next = kNoRecord;
  record.matched = false;
  record.discard = false;
  record.silent = false;
  record.ended = false;
  record.kind = ReceiveKind::receive;
  record.no_status = record.reported = false;
  record.first = record.scattered = record.taken = 0u;
  record.label = via::trace_label(vi, via::kTraceNoMessage);
  record.errors = 0u;
  record.placed = 0u;
  record.posted = posted;
  record.stamp = via::stamp_now();
  if (!fetch_descriptor(vi, posted, record.copy, owner_of(r), record.stamp)) {
    release_record(r);
    return kNoRecord;
  }
  record.state = ReceiveState::fetch_descriptor;
  return r;
}

// Drops the VI's records posted before the host last flushed it.
void purge_stale(uint32_t vi) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (lists[vi].head != kNoRecord && records[lists[vi].head].posted.epoch != epoch) {
    const uint32_t r = lists[vi].head;
    unlink(vi, r);
    count(via_stale_descriptors);
    if (records[r].state == ReceiveState::fetch_descriptor)
      records[r].discard = true;
    else
      release_record(r);
  }
}

// Fetches one of the VI's posted receives ahead of its data, if a record
// is free for it.
void prefetch(uint32_t vi) {
  purge_stale(vi);
  via::PostedDescriptor posted;
  if (free_count > kReserved && next_receive(vi, posted)) {
    via::trace_state(receive_state_names[static_cast<uint32_t>(ReceiveState::fetch_descriptor)]);
    via::trace_tag(vi, via::kTraceNoMessage);
    const uint32_t r = fetch_into_record(vi, posted);
    if (r != kNoRecord) {
      link(vi, r);
      count(pvia_receive_prefetches);
    }
    via::trace_state(nullptr);
  }
  if (receives_waiting(vi))
    receive_backlog.add(vi);
  else
    receive_backlog.remove(vi);
}

via::PacketCheck check(const Arrival& arrival) {
  return via::check_packet(*arrival.buffer, arrival.payload_bytes, arrival.source, arrival.damage);
}

ReceiveState descriptor_arrived(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.discard) {
    release_record(r);
    return ReceiveState::free;
  }
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    if (!record.matched) {
      unlink(record.vi, r);
      release_record(r);
      return ReceiveState::free;
    }
    // The message is dropped, but its place in the VI's order is kept.
    record.silent = true;
    return start_scatter(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  return record.matched ? start_scatter(r) : ReceiveState::parked;
}

ReceiveState status_written(uint32_t r, uint32_t outcome) {
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(records[r].vi);
  release_record(r);
  return ReceiveState::free;
}

enum class Match : uint8_t { record, none, wait, dropped };

// The record the next packet for `vi` fills: its oldest parked or fetching
// one, or one fetched on demand from the VI's ring.
Match match_receive(uint32_t vi, uint32_t& r) {
  purge_stale(vi);
  if (lists[vi].head != kNoRecord) {
    r = lists[vi].head;
    unlink(vi, r);
    return Match::record;
  }
  // Doorbells still in the FIFO may hold this VI's receives: the host
  // posted them before the packet came, so they count.
  for (uint32_t events = via::event_status();
       !receives_waiting(vi) && (events & LANAI_EV_DOORBELL) != 0u; events = via::event_status())
    drain_doorbells(events);
  if (!receives_waiting(vi))
    return Match::none;
  if (free_count == 0u)
    return Match::wait;
  via::PostedDescriptor posted;
  if (!next_receive(vi, posted))
    return Match::none;
  r = fetch_into_record(vi, posted);
  return r == kNoRecord ? Match::dropped : Match::record;
}

// A record for a message that completes no receive (an RDMA write without
// immediate data, a read's data, a refusal to acknowledge), in the VI's
// order like any other; wait if none is free.
Match bare_record(uint32_t vi, uint32_t& r) {
  if (free_count == 0u)
    return Match::wait;
  r = free_records[--free_count];
  ReceiveRecord& record = via::in_register(&records[r]);
  record.vi = static_cast<uint8_t>(vi);
  record.next = kNoRecord;
  record.discard = record.silent = record.ended = false;
  record.kind = ReceiveKind::receive;
  record.reported = false;
  record.no_status = true;
  record.first = record.scattered = record.taken = 0u;
  record.errors = 0u;
  record.placed = 0u;
  record.state = ReceiveState::parked;
  return Match::record;
}

} // namespace

void start_receive_engine() {
  free_count = 0u;
  for (uint32_t r = kRecords; r-- > 0u;)
    release_record(r);
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
    lists[vi] = {kNoRecord, kNoRecord};
    assembling[vi] = kNoRecord;
  }
  receive_backlog.clear();
}

void receive_posted(uint32_t vi) { receive_backlog.add(vi); }

void refill_receives() {
  if (free_count <= kReserved)
    return;
  // One per visit: a prefetch is never urgent, and the devices must not
  // wait behind a host posting many receives at once.
  bool done = false;
  receive_backlog.for_each([&](uint32_t vi) {
    if (!done) {
      prefetch(vi);
      done = true;
    }
  });
}

namespace {

// Adds the arrival's fragment to record r's message, stamped by the
// receiving VI's reservation from the time the packet reached the card.
void take_fragment(uint32_t r, const Arrival& arrival) {
  ReceiveRecord& record = via::in_register(&records[r]);
  const via_packet_header& header = arrival.buffer->header;
  Fragment& fragment = fragment_at(record, record.taken++);
  fragment.buffer = static_cast<uint8_t>(arrival.index);
  fragment.offset = header.offset;
  fragment.bytes = header.length;
  fragment.data = arrival.buffer->data;
  fragment.outstanding = 0u;
  if (record.kind == ReceiveKind::rdma_write)
    fragment.target = via::rdma_target(*arrival.buffer);
  record.expected = header.offset + header.length;
  const via::Stamp stamp = via::stamp_receive(record.vi, header.length, arrival.arrived_at);
  if (stamp > record.stamp)
    record.stamp = stamp;
  // The sender gave the message up; a read's target refused the read.
  if ((header.flags & VIA_PACKET_F_ABORTED) != 0u)
    record.errors |= record.kind == ReceiveKind::read_data ? VIP_STATUS_RDMA_PROT_ERROR
                                                           : VIP_STATUS_TRANSPORT_ERROR;
  if ((header.flags & (VIA_PACKET_F_LAST | VIA_PACKET_F_ABORTED)) != 0u ||
      record.expected == record.message)
    record.ended = true;
  if (record.ended && assembling[record.vi] == r)
    assembling[record.vi] = kNoRecord;
}

// What a packet's flags make of its message.
ReceiveKind kind_of(uint32_t flags) {
  if ((flags & VIA_PACKET_F_RDMA_WRITE) != 0u)
    return ReceiveKind::rdma_write;
  return (flags & VIA_PACKET_F_RDMA_READ_DATA) != 0u ? ReceiveKind::read_data
                                                     : ReceiveKind::receive;
}

// The message record r was assembling will get no more fragments: what
// came is delivered, and the receive completes with a transport error;
// unless its sender resends it (above).
void break_off(uint32_t r) {
  ReceiveRecord& record = via::in_register(&records[r]);
  if (resent_whole(record)) {
    wait_for_resend(r);
    return;
  }
  record.awaiting = false;
  count(pvia_broken_messages);
  assembling[record.vi] = kNoRecord;
  record.ended = true;
  // A read's data: the read does not hear of it, and its request, which
  // times out, is served again.
  if (record.kind == ReceiveKind::read_data)
    record.awaiting = true;
  else
    record.errors |= VIP_STATUS_TRANSPORT_ERROR;
  if (record.state == ReceiveState::scatter_data)
    record.state = advance(r);
}

// A first fragment while record r waits for its VI's message sent again:
// r takes it if it is that message (true); anything else is judged as
// usual (past the gap: dropped). Dropped too (taken) while r's earlier
// fragments are still on their way to the host (its sender sends it again
// after a timeout), and once r has all its fragments after all (what made
// it wait was an older message's duplicate): this copy is one too.
[[gnu::noinline]] bool resume(uint32_t r, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  ReceiveRecord& record = via::in_register(&records[r]);
  constexpr uint32_t kReads = VIA_PACKET_F_RDMA_READ | VIA_PACKET_F_RDMA_READ_DATA;
  if ((header.flags & kAnswered) == 0u || (header.flags & kReads) != 0u ||
      kind_of(header.flags) != record.kind || header.sequence != record.sequence ||
      !resent_whole(record))
    return false;
  if (record.ended || record.first != record.taken) {
    if (record.ended)
      end_wait(r);
    count(pvia_stray_fragments);
    release_arrival(arrival.index);
    return true;
  }
  count(pvia_messages_resumed);
  stop_waiting(r);
  record.ended = false;
  record.expected = 0u;
  record.placed = 0u;
  record.message = header.message;
  via::note_sequence(record.vi, header.sequence);
  take_fragment(r, arrival);
  if (record.state == ReceiveState::scatter_data)
    record.state = advance(r);
  return true;
}

// A fragment after a message's first: it must be the next of the message
// its VI is assembling.
bool take_continuation(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  const uint32_t r = assembling[vi];
  if (r == kNoRecord || header.sequence != records[r].sequence ||
      header.offset != records[r].expected || kind_of(header.flags) != records[r].kind) {
    count(pvia_stray_fragments);
    if (r != kNoRecord)
      break_off(r);
    release_arrival(arrival.index);
    return true;
  }
  take_fragment(r, arrival);
  ReceiveRecord& record = via::in_register(&records[r]);
  if (record.state == ReceiveState::scatter_data)
    record.state = advance(r);
  return true;
}

// Numbers record r for the message the arrival starts, in its VI's order.
[[gnu::always_inline]] inline void number_message(uint32_t r, uint32_t vi,
                                                  const via_packet_header& header) {
  ReceiveRecord& record = via::in_register(&records[r]);
  record.matched = true;
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, header.sequence);
  record.message = header.message;
  record.expected = 0u;
  record.sequence = header.sequence;
  record.flags = header.flags;
  record.immediate = header.immediate;
  // Its acknowledgement, if it wants one, goes back to where it came from.
  if ((header.flags & kAnswered) != 0u) {
    record.src_node = header.src_node;
    record.src_vi = header.src_vi;
  }
  // Stamped by the receiving VI's own reservation, fragment by fragment.
  record.stamp = 0u;
}

// Record r takes the message whose first fragment arrived.
[[gnu::always_inline]] inline void begin_message(uint32_t r, uint32_t vi, const Arrival& arrival,
                                                 ReceiveKind kind) {
  number_message(r, vi, arrival.buffer->header);
  ReceiveRecord& record = via::in_register(&records[r]);
  record.kind = kind;
  if (kind == ReceiveKind::rdma_write && !via::vi_takes_rdma_write(vi))
    fail_rdma(r);
  take_fragment(r, arrival);
  if (!record.ended)
    assembling[vi] = static_cast<uint8_t>(r);
  if (record.state == ReceiveState::parked)
    record.state = start_scatter(r);
}

// A Reliable Reception message no receive takes: a bare record keeps its
// place in the VI's order, so that its sender hears of it (`errors`) after
// the messages before it. The caller made sure a record is free.
[[gnu::noinline]] void refuse_in_order(uint32_t vi, const Arrival& arrival, uint32_t errors) {
  uint32_t r = kNoRecord;
  bare_record(vi, r);
  number_message(r, vi, arrival.buffer->header);
  ReceiveRecord& record = via::in_register(&records[r]);
  record.errors = errors;
  record.ended = true;
  record.stamp = via::stamp_receive(vi, 0u, arrival.arrived_at);
  record.state = advance(r);
}

// The first fragment of a message for a receive (a send, an RDMA write).
// Inlined: plain messages take it straight from take_arrival.
[[gnu::always_inline]] inline bool take_message(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  // A descriptor fetched on demand is already this message's. An RDMA write
  // without immediate data completes no receive: it takes a bare record.
  const bool rdma = (header.flags & VIA_PACKET_F_RDMA_WRITE) != 0u;
  uint32_t r = kNoRecord;
  const Match match = rdma && (header.flags & VIA_PACKET_F_IMMEDIATE) == 0u ? bare_record(vi, r)
                                                                            : match_receive(vi, r);
  if (match == Match::wait) {
    count(pvia_arrival_stalls);
    return false;
  }
  via::note_sequence(vi, header.sequence);
  if (match != Match::record) {
    if (match == Match::none)
      via::no_receive_posted(vi);
    if ((header.flags & kAnswered) != 0u)
      refuse_in_order(vi, arrival, VIP_STATUS_REMOTE_DESC_ERROR);
    release_arrival(arrival.index);
    return true;
  }
  begin_message(r, vi, arrival, rdma ? ReceiveKind::rdma_write : ReceiveKind::receive);
  return true;
}

// The first fragment of an RDMA read's data: it goes into the buffers of
// the read it answers, which waits in the send engine.
bool take_read_data(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  // Numbered as the read's request (pvia_rdma_read.cpp), not among the
  // target's messages.
  const uint32_t reader =
      rdma_reader(vi, uint32_t{header.src_node} << 16 | header.src_vi, header.immediate);
  if (reader == kNoReader) {
    count(pvia_stray_fragments);
    release_arrival(arrival.index);
    return true;
  }
  uint32_t r = kNoRecord;
  bare_record(vi, r);
  ReceiveRecord& record = via::in_register(&records[r]);
  record.reader = static_cast<uint8_t>(reader);
  record.descriptor = rdma_read_descriptor(reader);
  // The target sends what was asked for, or nothing and its refusal.
  if (header.message != record.descriptor.length && (header.flags & VIA_PACKET_F_ABORTED) == 0u)
    record.errors = VIP_STATUS_TRANSPORT_ERROR;
  begin_message(r, vi, arrival, ReceiveKind::read_data);
  return true;
}

// A first fragment that asks for more than a send's handling: an RDMA read
// request, a read's data, or a message its sender wants answered
// (kAnswered: Reliable Reception, or SVIA's reliable messages). Out of line:
// plain messages do not pay for it.
[[gnu::noinline]] bool take_marked(uint32_t vi, const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  const uint32_t waiting = waiting_for_resend(vi);
  if (waiting != kNoRecord && resume(waiting, arrival))
    return true;
  // A read's request that comes again (its data was lost, or its request
  // was and the reader went back) is served again, out of sequence; on a
  // Reliable Reception VI a first one is taken in sequence with the VI's
  // messages.
  const bool read = (header.flags & VIA_PACKET_F_RDMA_READ) != 0u;
  const bool again = read && taken_before(vi, header.sequence);
  const bool judged = (header.flags & kAnswered) != 0u || (read && via::vi_reliable_reception(vi));
  if (!again && judged && !in_sequence(vi, header)) {
    release_arrival(arrival.index);
    return true;
  }
  if (read) {
    if (!take_read_request(vi, arrival)) {
      count(pvia_arrival_stalls);
      return false;
    }
    if (!again)
      via::note_sequence_in_epoch(vi, header.sequence);
    release_arrival(arrival.index);
    return true;
  }
  // Both need a record, whatever becomes of the message.
  if (free_count == 0u) {
    count(pvia_arrival_stalls);
    return false;
  }
  if ((header.flags & VIA_PACKET_F_RDMA_READ_DATA) != 0u)
    return take_read_data(vi, arrival);
  if ((header.flags & kAnswered) == VIA_PACKET_F_RELIABLE)
    settle_on_arrival(vi, header);
  return take_message(vi, arrival);
}

constexpr uint32_t kMarked = kAnswered | VIA_PACKET_F_RDMA_READ | VIA_PACKET_F_RDMA_READ_DATA;

bool take_arrival(const Arrival& arrival) {
  const via::PacketCheck checked = check(arrival);
  if (checked != via::PacketCheck::data) {
    take_other(arrival, checked);
    return true;
  }
  const via::ReceiveBuffer& packet = *arrival.buffer;
  const uint32_t vi = packet.header.dst_vi;
  if (!via::vi_valid(vi) || !via::vi_accepts_from(vi, packet.header.src_node, packet.header.src_vi))
    return take_unmatched(arrival);
  via::trace_tag(vi, packet.header.sequence);
  if (packet.header.offset != 0u)
    return take_continuation(vi, arrival);
  // A first fragment: the message before it on this VI has lost its tail.
  if (assembling[vi] != kNoRecord)
    break_off(assembling[vi]);
  if ((packet.header.flags & kMarked) != 0u)
    return take_marked(vi, arrival);
  return take_message(vi, arrival);
}

} // namespace

uint32_t read_data_taken(uint32_t reader) {
  for (uint32_t r = 0u; r < kRecords; ++r) {
    const ReceiveRecord& record = records[r];
    if (record.state != ReceiveState::free && record.kind == ReceiveKind::read_data &&
        record.reader == reader && !record.ended)
      return record.expected;
  }
  return kNoReadData;
}

bool receive_arrival(const Arrival& arrival) {
  via::trace_state(receive_arrival_name);
  const bool taken = take_arrival(arrival);
  via::trace_state(nullptr);
  return taken;
}

void receive_host_dma_done(uint32_t r, uint32_t outcome) {
  ReceiveRecord& record = via::in_register(&records[r]);
  switch (record.state) {
  case ReceiveState::fetch_descriptor:
    trace(r, ReceiveState::fetch_descriptor);
    record.state = descriptor_arrived(r, outcome);
    break;
  case ReceiveState::scatter_data:
    trace(r, ReceiveState::scatter_data);
    record.state = piece_done(r, outcome);
    break;
  case ReceiveState::write_status:
    trace(r, ReceiveState::write_status);
    record.state = status_written(r, outcome);
    break;
  default:
    count(pvia_hdma_strays);
    break;
  }
  via::trace_state(nullptr);
}

} // namespace pvia
