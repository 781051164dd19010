// Retransmission of reliable messages. A Reliable Reception send waits in
// wait_peer for the receiving card's acknowledgement (pvia_send_answer.cpp);
// a Reliable Delivery message has completed, but its packet is kept on the
// card until acknowledged (pvia_send_kept.h). When the oldest of a VI's has
// waited the profile's retransmission timeout, or the receiver reports a
// gap (VIA_ACK_F_GAP), the VI goes back and sends every message of its
// still unanswered again, oldest first (go-back-N: the receiving card takes
// such messages only in sequence). A kept packet goes again as it is,
// asking for its acknowledgement at once. A waiting send goes again whole,
// one packet, its data read from host memory anew (its descriptor has not
// completed, so the buffers are still the sender's) into a send buffer
// borrowed from the pool. After the retry limit of go-backs on a timeout in
// a row with no acknowledgement, the VI breaks as VIA says of a lost
// connection: its waiting sends complete with a transport error, its kept
// packets are let go, and the host hears VIA_INTR_CONN_LOST.
//
// While a VI goes back no new send is taken (on any VI): the receiver would
// drop the VI's new messages past the gap, and the lane, one message at a
// time, would never catch up with a stream. The lane that resends is one
// more engine, one message at a time, in named states:
//   idle -> wait_buffer -> gather -> wait_nsdma -> transmit -> idle
// (a packet the network send DMA refuses counts as sent: the timeout
// brings it round again).
// The timeout is noticed when the countdown timer fires; the timer is
// armed for the earliest waiting send's deadline.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/descriptor.h"
#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_buffers.h"
#include "pvia_send_kept.h"
#include "pvia_send_record.h"

namespace pvia {

using namespace send_engine;

namespace {

enum class Lane : uint8_t {
  idle,
  wait_buffer, // a message to resend waits for a free send buffer
  gather,      // its data is on its way from host memory
  wait_nsdma,  // the packet waits in the network send queue
  transmit,    // the network send DMA is sending it
  count_,
};
const char* const lane_names[] = {"resend:idle", "resend:wait_buffer", "resend:gather",
                                  "resend:wait_nsdma", "resend:transmit"};
static_assert(static_cast<uint32_t>(Lane::count_) == 5u, "one name per state");

Lane lane = Lane::idle;
uint32_t lane_record; // the record whose message goes again
VIA_ZEROED_AT_LOAD uint32_t lane_label{};
uint32_t lane_buffer;  // the send buffer it borrowed
uint32_t lane_pending; // host DMA reads not yet done
bool lane_failed;      // a read failed: the message cannot go again now
via::OutgoingPacket lane_framed;

bool going_back;
uint32_t back_vi;
uint32_t back_from; // the number the next message to resend is looked for from

// Go-backs on a timeout of each VI in a row with no acknowledgement.
VIA_ZEROED_AT_LOAD uint32_t retries[VIA_MAX_VI]{};
// Each VI's last message the lane sent again, + 1 (0: none): a gap its
// receiver reports at or below it is being filled already.
VIA_ZEROED_AT_LOAD uint32_t resent_upto[VIA_MAX_VI]{};

bool armed;
// How much of each waiting read's data had come when the timer last looked,
// + 1 (0: none yet): data still coming is no timeout.
VIA_ZEROED_AT_LOAD uint32_t read_seen[kSendRecords]{};

// The data of read record r has come on since the timer last looked.
bool read_moved(uint32_t r) {
  const uint32_t taken = read_data_taken(r);
  if (taken == kNoReadData || read_seen[r] == taken + 1u)
    return false;
  read_seen[r] = taken + 1u;
  return true;
}
VIA_ZEROED_AT_LOAD uint32_t armed_for{}; // the cycle the timer fires at, while armed

void enter(Lane next) {
  lane = next;
  via::trace_state(lane_names[static_cast<uint32_t>(next)]);
  via::trace_tag(lane_label);
}

// Record r's message has left and waits for its peer's word, which the
// fabric may have lost: a Reliable Reception message's acknowledgement, or
// an RDMA read's data (on either reliable level; the target serves a
// request that comes again).
bool waits_for_ack(const SendRecord& record) {
  return record.state == SendState::wait_peer &&
         (record.ack_wanted || record.kind == SendKind::read_request) && !record.answered &&
         record.numbered;
}

void arm_at(uint32_t cycle) {
  const int32_t left = static_cast<int32_t>(cycle - now());
  lanai_mmio_write(LANAI_REG_TIMER, left > 0 ? static_cast<uint32_t>(left) : 1u);
  armed = true;
  armed_for = cycle;
}

// What the lane may send again: a waiting record r, or the kept packet in
// buffer b as kKept + b.
constexpr uint32_t kKept = 0x100u;
static_assert(kNoRecord < kKept, "none is neither");

uint32_t sequence_of(uint32_t item) {
  return item >= kKept ? kept_sequence(item - kKept) : records[item].sequence;
}

// The message of `vi` waiting for its acknowledgement numbered lowest (from
// `*from` on, if given), a record's or a kept packet; kNoRecord if none.
uint32_t lowest_waiting(uint32_t vi, const uint32_t* from) {
  uint32_t best = kNoRecord;
  const auto consider = [&](uint32_t item) {
    const uint32_t sequence = sequence_of(item);
    if (from && static_cast<int32_t>(sequence - *from) < 0)
      return;
    if (best == kNoRecord || static_cast<int32_t>(sequence - sequence_of(best)) < 0)
      best = item;
  };
  for (uint32_t r = 0u; r < kSendRecords; ++r)
    if (records[r].vi == vi && waits_for_ack(records[r]))
      consider(r);
  // A VI's kept packets are in the order they left (and were numbered).
  if (!kept_stale(vi)) {
    for (uint32_t k = kept_head[vi]; k != 0u; k = kept_next[k - 1u]) {
      if (kept_in_lane == k && kept_in_lane_acked)
        continue;
      if (!from || static_cast<int32_t>(kept_sequence(k - 1u) - *from) >= 0) {
        consider(kKept + k - 1u);
        break;
      }
    }
  }
  return best;
}

void check_deadlines();
void resend_kept(uint32_t b);

// Takes the next message of the VI going back, if any, and a buffer for it.
void resend_next() {
  const uint32_t item = going_back ? lowest_waiting(back_vi, &back_from) : kNoRecord;
  if (item == kNoRecord) {
    if (going_back)
      pause_new_sends(false);
    going_back = false;
    lane = Lane::idle;
    via::trace_state(nullptr);
    check_deadlines();
    return;
  }
  if (item >= kKept) {
    resend_kept(item - kKept);
    return;
  }
  const uint32_t r = item;
  lane_record = r;
  kept_in_lane = 0u;
  lane_label = records[r].label;
  records[r].resending = true;
  SendRecord& record = records[r];
  // A read's request carries no data: its data comes back.
  const uint32_t length = record.kind == SendKind::read_request ? 0u : record.descriptor.length;
  if (!send_buffers_free()) {
    // Every buffer is busy: the timer brings the lane back soon.
    enter(Lane::wait_buffer);
    arm_at(now() + via::nic_config().retransmit_cycles / 16u + 1u);
    via::trace_state(nullptr);
    return;
  }
  lane_buffer = take_send_buffer();
  enter(Lane::gather);
  via::DataSegment pieces[VIA_MAX_SEGMENTS];
  const uint32_t count = via::segment_pieces(record.descriptor, 0u, length, pieces);
  uint8_t* data = send_buffer(lane_buffer).data;
  lane_pending = 0u;
  lane_failed = false;
  for (uint32_t i = 0u; i < count; ++i) {
    const via::HdmaRequest request{pieces[i].address,       pieces[i].handle,
                                   via::vi_ptag(record.vi), via::sram_address(data),
                                   pieces[i].length,        via::HdmaDirection::to_sram};
    if (!submit_host_dma(request, owner_of(r), record.work.stamping.stamp)) {
      lane_failed = true;
      break;
    }
    ++lane_pending;
    data += pieces[i].length;
  }
  via::trace_state(nullptr);
  if (lane_pending == 0u)
    resend_data_arrived(r, LANAI_HDMA_OK);
}

// Kept packet b goes again as it is, asking for its acknowledgement at once.
void resend_kept(uint32_t b) {
  kept_in_lane = b + 1u;
  kept_in_lane_acked = false;
  lane_label = via::trace_label(kept_vi[b] - 1u, kept_sequence(b));
  send_buffer(b).header.flags |= VIA_PACKET_F_ACK_NOW;
  lane_framed = reframe_kept(b);
  enter(Lane::wait_nsdma);
  queue_packet(kResendPacket, via::stamp_now());
  via::trace_state(nullptr);
}

// The message is done with (sent again, or it could not be): its buffer
// goes back, the record may complete, and the next message goes. A kept
// packet keeps its buffer, unless it was acknowledged meanwhile.
void message_done() {
  if (kept_in_lane != 0u) {
    back_from = kept_sequence(kept_in_lane - 1u) + 1u;
    let_go_lane_kept();
    resend_next();
    return;
  }
  const uint32_t r = lane_record;
  give_back_send_buffer(lane_buffer);
  records[r].resending = false;
  back_from = records[r].sequence + 1u;
  complete_waiting(records[r].vi);
  resend_next();
}

// The VI's peer stayed silent past the retry limit: its waiting sends fail.
void lose_connection(uint32_t vi) {
  count(pvia_connections_lost);
  retries[vi] = 0u;
  for (uint32_t r = 0u; r < kSendRecords; ++r) {
    SendRecord& record = records[r];
    if (record.vi == vi && waits_for_ack(record)) {
      record.answered = true;
      record.errors |= VIP_STATUS_TRANSPORT_ERROR;
    }
  }
  // Kept packets' sends have completed: VIA's Reliable Delivery reports
  // the loss as a broken connection.
  let_go_kept_of(vi);
  via::vi_break(vi);
  complete_waiting(vi);
  via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_CONN_LOST, vi));
}

// Starts the VI's go-back from its oldest waiting message.
void go_back(uint32_t vi) {
  // The sends already in hand go on (their packets past the gap come back
  // round), but no new one starts until the VI has caught up.
  pause_new_sends(true);
  going_back = true;
  back_vi = vi;
  const uint32_t oldest = lowest_waiting(vi, nullptr);
  back_from = oldest != kNoRecord ? sequence_of(oldest) : 0u;
  resend_next();
}

// Goes back on the first VI whose oldest waiting message is past its
// timeout, if the lane is free, and arms the timer for the next deadline.
// A message of `vi` is past its timeout and the lane is free: the VI goes
// back (true: the lane checks again when it is done), or breaks past the
// retry limit.
bool time_out(uint32_t vi) {
  count(pvia_retransmit_timeouts);
  if (++retries[vi] > via::nic_config().retry_limit) {
    lose_connection(vi);
    return false;
  }
  go_back(vi);
  return true;
}

void check_deadlines() {
  const uint32_t timeout = via::nic_config().retransmit_cycles;
  const uint32_t t = now();
  bool any = false;
  uint32_t first = 0u;
  const auto note_due = [&](uint32_t sent_at) {
    const uint32_t due = sent_at + timeout;
    if (!any || static_cast<int32_t>(due - first) < 0)
      first = due;
    any = true;
  };
  for (uint32_t r = 0u; r < kSendRecords; ++r) {
    const SendRecord& record = records[r];
    if (!waits_for_ack(record) || record.resending)
      continue;
    const bool late = t - record.sent_at >= timeout;
    // A read whose data is still coming waits a timeout more.
    if (late && record.kind == SendKind::read_request && read_moved(r)) {
      records[r].sent_at = t;
    } else if (lane == Lane::idle && late) {
      if (time_out(record.vi))
        return;
      continue;
    }
    note_due(record.sent_at);
  }
  // Kept packets time out per VI, from the VI's oldest one's departure
  // (a stale VI's leave the list, whose last VI takes its place).
  for (uint32_t i = 0u; i < keeping_count;) {
    const uint32_t vi = keeping_vis[i];
    if (kept_stale(vi) && (i >= keeping_count || keeping_vis[i] != vi))
      continue;
    ++i;
    if (going_back && back_vi == vi)
      continue;
    if (lane == Lane::idle && t - kept_since(vi) >= timeout) {
      if (time_out(vi))
        return;
      continue;
    }
    note_due(kept_since(vi));
  }
  // The receive engine's late acknowledgements share the timer.
  uint32_t owed_due = 0u;
  if (send_owed_acks(owed_due))
    note_due(owed_due - timeout);
  if (any)
    arm_at(first);
}

} // namespace

namespace send_engine {

void watch_answer(uint32_t r) {
  SendRecord& record = records[r];
  read_seen[r] = 0u;
  record.sent_at = now();
  record.resending = false;
  if (!armed)
    arm_at(record.sent_at + via::nic_config().retransmit_cycles);
}

void resend_data_arrived(uint32_t r, uint32_t outcome) {
  if (lane != Lane::gather || r != lane_record) {
    count(pvia_hdma_strays);
    return;
  }
  if (outcome != LANAI_HDMA_OK)
    lane_failed = true;
  if (lane_pending != 0u && --lane_pending != 0u)
    return;
  SendRecord& record = records[r];
  if (lane_failed || !waits_for_ack(record)) {
    message_done();
    return;
  }
  // The message whole, as its first fragment was framed, with its number.
  via::SendBuffer& buffer = send_buffer(lane_buffer);
  via_packet_header& header = buffer.header;
  const via::Descriptor& descriptor = record.descriptor;
  const bool immediate = (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u;
  const uint32_t bytes = record.kind == SendKind::read_request ? 0u : descriptor.length;
  header.kind = VIA_PACKET_DATA;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(record.vi);
  header.dst_vi = static_cast<uint16_t>(record.peer & 0xFFFFu);
  header.flags =
      static_cast<uint16_t>((immediate ? VIA_PACKET_F_IMMEDIATE : 0u) | VIA_PACKET_F_LAST);
  header.length = bytes;
  header.immediate = immediate ? descriptor.immediate : 0u;
  header.offset = 0u;
  header.message = descriptor.length;
  header.sequence = record.sequence;
  lane_framed = via::frame_packet(buffer, via::route_to(record.peer >> 16), bytes);
  mark_packet(record, buffer, lane_framed);
  enter(Lane::wait_nsdma);
  queue_packet(kResendPacket, record.work.stamping.stamp);
  via::trace_state(nullptr);
}

} // namespace send_engine

void resend_packet_ready(via::OutgoingPacket& out) {
  count(pvia_retransmissions);
  enter(Lane::transmit);
  out = lane_framed;
}

void resend_packet_left() {
  if (kept_in_lane != 0u) {
    const uint32_t b = kept_in_lane - 1u;
    kept_sent_at[b] = now();
    resent_upto[kept_vi[b] - 1u] = kept_sequence(b) + 1u;
  } else {
    const SendRecord& record = records[lane_record];
    records[lane_record].sent_at = now();
    resent_upto[record.vi] = record.sequence + 1u;
  }
  message_done();
}

void wake_timer_by(uint32_t cycle) {
  if (!armed || static_cast<int32_t>(cycle - armed_for) < 0)
    arm_at(cycle);
}

void resend_timer() {
  lanai_mmio_write(LANAI_REG_TIMER, 0u);
  armed = false;
  if (lane == Lane::wait_buffer) {
    // The message it waited with may have been answered meanwhile: the
    // lane looks again, and that one is the lane's no more.
    const uint32_t waited = lane_record;
    records[waited].resending = false;
    resend_next();
    complete_waiting(records[waited].vi);
    return;
  }
  check_deadlines();
}

void resend_answered(uint32_t vi, bool gap, uint32_t acked) {
  retries[vi] = 0u;
  // The receiver dropped a message past a gap: the VI goes back at once,
  // unless the one it waits for (acked + 1) went again in the last go-back
  // and may still be on its way (a timeout brings it round if not).
  if (!gap || lane != Lane::idle || lowest_waiting(vi, nullptr) == kNoRecord)
    return;
  if (resent_upto[vi] != 0u && via::sequence_at_most(acked + 1u, resent_upto[vi] - 1u))
    return;
  go_back(vi);
}

} // namespace pvia
