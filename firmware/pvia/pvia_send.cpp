// The send engine's records (pvia_send_record.h): taking a posted send
// into a free record, fetching and checking its descriptor, writing its
// completion once its last fragment has left (or its peer has answered:
// pvia_send_answer.cpp), and handing each device event to the record it
// concerns.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/fragment_plan.h"
#include "common/nic_config.h"
#include "common/send_check.h"
#include "common/stage_meter.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_send_buffers.h"
#include "pvia_send_kept.h"
#include "pvia_send_record.h"

namespace pvia {

// A record is wanting while streaming, its VI's turn to cut, with its next
// slot free.
uint32_t send_wanting;
uint32_t send_gathers;

// Names of the states, for traces.
const char* const send_state_names[] = {"send:free", "send:fetch_descriptor", "send:stream",
                                        "send:wait_peer", "send:write_status"};
static_assert(static_cast<uint32_t>(SendState::count_) == 5u, "one name per state");
const char* const send_slot_state_names[] = {"send:slot_free", "send:gather_data", "send:wait_turn",
                                             "send:wait_nsdma", "send:transmit"};
static_assert(static_cast<uint32_t>(SlotState::count_) == 5u, "one name per state");

namespace send_engine {

SendRecord records[kSendRecords];
uint32_t sends_ahead[2];
bool stamp_ordered;
bool tracks_service;
uint32_t tickets_cut[VIA_MAX_VI];
VIA_ZEROED_AT_LOAD uint32_t answers_awaited{};

} // namespace send_engine

using namespace send_engine;

namespace {

uint8_t free_records[kSendRecords];
uint32_t free_record_count;
uint32_t best_effort_records;
uint8_t latest_of_vi[VIA_MAX_VI]; // the VI's send taken last
uint32_t next_sequence[VIA_MAX_VI];
uint32_t numbering_epoch[VIA_MAX_VI]; // the VI's epoch + 1 next_sequence counts in
uint32_t tickets_issued[VIA_MAX_VI];

// A new connection of the VI (a flush since its last message): its
// numbers start again, and what the connection before kept goes.
[[gnu::noinline]] void start_numbering(uint32_t vi, uint32_t epoch) {
  numbering_epoch[vi] = epoch;
  next_sequence[vi] = 0u;
  let_go_kept_of(vi);
}

// The number the record's message will have. A VI numbers its messages
// from 0 again once the host has flushed it (a new connection), as its
// receiving card, which takes a reliable VI's only in sequence, expects
// (an unreliable VI's plain messages go on counting, which its receiver
// takes as they come).
inline uint32_t next_number(const SendRecord& record) {
  const uint32_t vi = record.vi, epoch = record.work.posted.epoch + 1u;
  if (numbering_epoch[vi] != epoch)
    start_numbering(vi, epoch);
  return next_sequence[vi];
}
// The adaptive policy's meters (stage_meter.h): first fragments, which
// cross the card with nothing of their message ahead of them, and
// fragments leaving back to back.
via::StageMeter alone_meter;
via::StageMeter back_to_back_meter;
uint32_t probes;                // measured messages planned
uint32_t left_at[kSendRecords]; // cycle each record's previous fragment left (adaptive policy)
via::FigureCache figure_cache;

[[gnu::always_inline]] inline void release(uint32_t r) {
  SendRecord& record = records[r];
  record.state = SendState::free;
  if (record.best_effort)
    --best_effort_records;
  if (record.awaits_answer) {
    record.awaits_answer = false;
    --answers_awaited;
  }
  free_records[free_record_count++] = static_cast<uint8_t>(r);
}

// Queues the completion with whatever errors the record gathered.
[[gnu::always_inline]] inline SendState queue_status(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  count(pvia_sends_completed);
  if (record.errors != 0u)
    count(pvia_sends_failed);
  const uint32_t status =
      VIP_STATUS_DONE | static_cast<uint32_t>(record.kind) << 17 | record.errors;
  if (!write_completion(record.vi, record.work.posted, record.completion,
                        record.descriptor.immediate, record.descriptor.length, status, owner_of(r),
                        record.work.stamping.stamp)) {
    release(r);
    return SendState::free;
  }
  return SendState::write_status;
}

// Plans the record's message by its VI's fragmentation policy and lets it
// stream.
[[gnu::always_inline]] inline SendState stream_message(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  volatile via_vi_config& config = via::vi_config(record.vi);
  // A read request carries no data: the data comes back.
  const uint32_t length = record.kind == SendKind::read_request ? 0u : record.descriptor.length;
  // A message no larger than the VI's smallest fragment is one fragment
  // under any policy: it takes the path of an unfragmented VI (whose
  // smallest fragment the driver sets to the largest message), so that
  // fragmentation costs it nothing.
  if (length <= config.frag_bytes) {
    via::plan_whole(length, record.plan);
  } else {
    record.measured = config.frag_policy == VIA_FRAG_ADAPTIVE;
    // Of every sixteen measured messages the second is cut in fragments of
    // half the planned size and the third of a quarter, so that both meters
    // always have two sizes to fit a line to, even when the plan is to send
    // messages whole.
    const uint32_t probe = record.measured ? probes++ & 15u : 0u;
    const via::PipelineFigures figures =
        record.measured
            ? via::measured_figures(alone_meter, back_to_back_meter,
                                    {config.frag_param[0], config.frag_param[1]}, figure_cache)
            : via::PipelineFigures{0u, 0u};
    via::plan_fragments(record.vi, length, figures, record.plan);
    if ((probe == 1u || probe == 2u) && record.plan.fixed >= 4u * VIA_FRAG_ALIGN)
      record.plan.fixed = (record.plan.fixed >> probe) & ~(VIA_FRAG_ALIGN - 1u);
    // A Reliable Delivery message cut in fragments is not kept on the card
    // (pvia_send_kept.h): it completes on its acknowledgement, as under
    // Reliable Reception, and goes again from host memory if lost.
    if (record.kind <= SendKind::rdma_write &&
        (config.reliability & VIP_SERVICE_RELIABLE_DELIVERY) != 0u &&
        (record.plan.fixed == 0u || record.plan.fixed < length)) {
      record.ack_wanted = record.marked = true;
      await_answer(record);
    }
  }
  record.state = SendState::stream;
  note_wanting(r);
  return record.state;
}

// The record's kind is its descriptor's op (the reserved op fails the
// checks and completes as a send); under Reliable Reception sends and RDMA
// writes wait for the receiving card's acknowledgement, and a read waits
// for its data either way.
[[gnu::noinline]] void classify(uint32_t r) {
  SendRecord& record = records[r];
  const uint32_t op = via::descriptor_op(record.descriptor);
  record.kind = static_cast<SendKind>(op == VIP_CONTROL_OP_RESERVED ? 0u : op);
  record.ack_wanted = op <= VIP_CONTROL_OP_RDMAWRITE && via::vi_reliable_reception(record.vi);
  record.marked = record.kind != SendKind::send || record.ack_wanted;
  if (record.ack_wanted || record.kind == SendKind::read_request)
    await_answer(record);
}

// A descriptor the record cannot send: it completes with its errors (and
// its op's bits) in its place in the VI's order, and waits for nothing.
[[gnu::noinline]] SendState refuse(uint32_t r) {
  classify(r);
  SendRecord& record = records[r];
  record.ack_wanted = record.marked = false;
  return stream_nothing(r);
}

// The descriptor is in SRAM: check it and start on the data. Out of line:
// the dispatch of every host DMA completion would otherwise pay for its
// registers.
[[gnu::noinline]] SendState descriptor_arrived(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  if (outcome != LANAI_HDMA_OK) {
    report_unreachable_descriptor(record.vi);
    record.unreachable = record.marked = true;
    return stream_nothing(r);
  }
  via::decode_descriptor(record.copy, record.descriptor);
  record.errors =
      via::check_send(record.vi, record.descriptor, via::kRdmaWriteOp | via::kRdmaReadOp);
  volatile via_vi_config& config = via::in_register(&via::vi_config(record.vi));
  if (record.errors == 0u && via::route_to(config.remote_node).length == 0u)
    record.errors = VIP_STATUS_TRANSPORT_ERROR;
  if (record.errors != 0u)
    return refuse(r);
  // Anything but a plain send (an RDMA op, which has an address segment;
  // a Reliable Reception VI) is told apart out of line: the record starts
  // as a plain send.
  if (record.descriptor.has_remote() || (config.reliability & VIP_SERVICE_RELIABLE_RECEPTION) != 0u)
    classify(r);
  return stream_message(r);
}

SendState status_written(uint32_t r, uint32_t outcome) {
  if (outcome != LANAI_HDMA_OK)
    report_unreachable_descriptor(records[r].vi);
  release(r);
  return SendState::free;
}

// The slot's packet has left (or was passed over): its buffer goes to the
// next send that wants one, and the send is over after its last fragment.
void fragment_done(uint32_t r, uint32_t s) {
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  slot.state = SlotState::free;
  if (slot.buffer != kNoBuffer) {
    give_back_send_buffer(slot.buffer);
    slot.buffer = kNoBuffer;
  }
  ++record.finished;
  note_wanting(r);
  if (record.all_cut && record.finished == record.cut) {
    // No descriptor to complete: one that could not be read, and the data
    // of a peer's RDMA read.
    if (!record.marked && held_head[record.vi] == 0u)
      record.state = queue_status(r);
    else
      finish_marked(r);
  }
}

// Takes the next waiting send into free record r; false if none waits (or
// only best effort, which has all the records it may hold). Out of line,
// so that the loop every polling round runs stays short.
[[gnu::noinline]] bool start_send(uint32_t r) {
  SendRecord& record = via::in_register(&records[r]);
  uint32_t vi;
  const bool best_effort_allowed =
      best_effort_records < kBestEffortRecords && sends_ahead[1] < kBestEffortSendsAhead;
  if (!next_send(vi, record.work, best_effort_allowed, sends_ahead[0] < kSendsAhead))
    return false;
  record.vi = static_cast<uint8_t>(vi);
  record.best_effort = record.work.best_effort;
  record.ahead = true;
  ++sends_ahead[record.best_effort];
  record.next_of_vi = kNoRecord;
  const uint32_t previous = latest_of_vi[vi];
  if (previous != kNoRecord && records[previous].state != SendState::free &&
      records[previous].vi == vi && records[previous].ticket + 1u == tickets_issued[vi])
    records[previous].next_of_vi = static_cast<uint8_t>(r);
  latest_of_vi[vi] = static_cast<uint8_t>(r);
  if (record.best_effort)
    ++best_effort_records;
  record.unreachable = false;
  record.numbered = false;
  record.has_turn = false;
  record.all_cut = false;
  record.measured = false;
  record.kind = SendKind::send;
  record.marked = false;
  record.ack_wanted = false;
  record.answered = false;
  record.gather = static_cast<uint8_t>(via::HdmaDirection::to_sram);
  record.ticket = tickets_issued[vi]++;
  record.label = via::trace_label(vi, record.ticket);
  record.errors = 0u;
  record.failed_at = kNoFailure;
  record.cut = record.gathered = record.queued = record.finished = 0u;
  record.offset = 0u;
  record.descriptor.immediate = 0u;
  record.descriptor.length = 0u;
  for (uint32_t s = 0u; s < kSlots; ++s)
    record.slots[s].buffer = kNoBuffer;
  // A peer's RDMA read, queued on the VI like a send, has no descriptor.
  if (record.work.posted.handle == 0u) {
    trace(r, SendState::stream);
    record.state = take_read_job(r);
  } else {
    trace(r, SendState::fetch_descriptor);
    if (fetch_descriptor(vi, record.work.posted, record.copy, owner_of(r),
                         record.work.stamping.stamp)) {
      record.state = SendState::fetch_descriptor;
    } else {
      record.unreachable = record.marked = true;
      stream_nothing(r);
    }
  }
  via::trace_state(nullptr);
  return true;
}

} // namespace

namespace send_engine {

// The engine's other parts call these; this file's own calls have them inlined.
void release_record(uint32_t r) { release(r); }

void pause_new_sends(bool paused) {
  // As if every kind of send had all the sends ahead it may have: no new
  // one is taken, and start_send pays nothing for the pause.
  constexpr uint32_t kPause = 1u << 16;
  static_assert(kPause > kSendsAhead && kPause > kBestEffortSendsAhead, "a pause stops them");
  const uint32_t delta = paused ? kPause : 0u - kPause;
  sends_ahead[0] += delta;
  sends_ahead[1] += delta;
}
SendState write_status(uint32_t r) { return queue_status(r); }
SendState start_streaming(uint32_t r) { return stream_message(r); }

} // namespace send_engine

void start_send_engine() {
  stamp_ordered = via::scheduler_orders_queues();
  tracks_service = via::scheduler_tracks_service();
  start_send_buffers();
  free_record_count = 0u;
  best_effort_records = 0u;
  sends_ahead[0] = sends_ahead[1] = 0u;
  send_wanting = 0u;
  send_gathers = 0u;
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi)
    latest_of_vi[vi] = kNoRecord;
  for (uint32_t r = kSendRecords; r-- > 0u;) {
    records[r].state = SendState::free;
    records[r].best_effort = false;
    records[r].ahead = false;
    records[r].next_of_vi = kNoRecord;
    records[r].next_held = kNoRecord;
    records[r].awaits_answer = false;
    for (uint32_t s = 0u; s < kSlots; ++s) {
      records[r].slots[s].state = SlotState::free;
      records[r].slots[s].buffer = kNoBuffer;
    }
    free_records[free_record_count++] = static_cast<uint8_t>(r);
  }
}

bool start_sends() {
  if (free_record_count == 0u)
    return false;
  // A record is released only by a device event, never inside start_send.
  const uint32_t r = free_records[--free_record_count];
  if (start_send(r))
    return true;
  free_records[free_record_count++] = static_cast<uint8_t>(r);
  return false;
}

namespace {

// A read of the resend lane's, for a record waiting for its peer, or a
// completion nothing waits for. Out of line: both are rare.
[[gnu::noinline]] void other_host_dma_done(uint32_t r, uint32_t outcome) {
  if (records[r].state == SendState::wait_peer && records[r].resending)
    resend_data_arrived(r, outcome);
  else
    count(pvia_hdma_strays);
}

} // namespace

void send_host_dma_done(uint32_t r, uint32_t outcome) {
  SendRecord& record = via::in_register(&records[r]);
  switch (record.state) {
  case SendState::fetch_descriptor:
    trace(r, SendState::fetch_descriptor);
    record.state = descriptor_arrived(r, outcome);
    break;
  case SendState::stream:
    trace(r, SlotState::gather_data);
    data_arrived(r, outcome);
    break;
  case SendState::write_status:
    trace(r, SendState::write_status);
    record.state = status_written(r, outcome);
    break;
  default:
    other_host_dma_done(r, outcome);
    break;
  }
  via::trace_state(nullptr);
}

namespace {

// A slot with no data goes only to carry news: an aborted fragment tells
// the receiver that its message ends early, unless none of the message
// left; an RDMA read's data always goes, if only to say that the read was
// refused. Out of line: it is rare.
[[gnu::noinline]] bool carries_news(const SendRecord& record, const Slot& slot) {
  return slot.carries == Carries::aborted &&
         (record.numbered || record.kind == SendKind::read_data);
}

} // namespace

bool send_packet_ready(uint32_t packet, via::OutgoingPacket& out) {
  if (packet >= kAckPacketBase) {
    ack_packet_ready(packet, out);
    return true;
  }
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  SendRecord& record = via::in_register(&records[r]);
  const Slot& slot = record.slots[s];
  trace(r, SlotState::wait_nsdma);
  if ((slot.carries != Carries::data && !carries_news(record, slot)) ||
      slot.index > record.failed_at)
    return false;
  via::SendBuffer& buffer = send_buffer(slot.buffer);
  // A message its receiver may judge in sequence (a reliable VI's, a
  // read's request) is numbered from 0 again on a new connection.
  if (record.numbered)
    buffer.header.sequence = record.sequence;
  else if (slot.reliable || record.marked)
    buffer.header.sequence = next_number(record);
  else
    buffer.header.sequence = next_sequence[record.vi];
  // Many Reliable Delivery packets wait for their acknowledgements: this
  // one asks for its own at once.
  if (slot.reliable && may_ask())
    ask_for_ack(record.vi, buffer);
  out = slot.framed;
  return true;
}

void send_packet_skipped(uint32_t packet) {
  fragment_done(packet / kSlots, packet % kSlots);
  via::trace_state(nullptr);
}

void send_packet_started(uint32_t packet, uint32_t errors) {
  if (packet >= kAckPacketBase) {
    if (errors != 0u)
      ack_packet_left(packet); // lost: the sender's VI is beyond reach
    via::trace_state(nullptr);
    return;
  }
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  SendRecord& record = via::in_register(&records[r]);
  Slot& slot = record.slots[s];
  if (errors != 0u) {
    record.errors |= errors;
    if (slot.index < record.failed_at)
      record.failed_at = slot.index;
    if (!record.all_cut)
      finish_cutting(r);
    fragment_done(r, s);
  } else {
    if (!record.numbered) {
      record.numbered = true;
      record.sequence = next_sequence[record.vi]++;
    }
    slot.state = SlotState::transmit;
  }
  via::trace_state(nullptr);
}

// Times a measured fragment that has left: a first fragment from its
// reads being queued, a later one queued before the previous one left
// from that departure.
[[gnu::noinline]] void time_departure(uint32_t r, const Slot& slot) {
  const uint32_t t = now();
  if (slot.index == 0u)
    alone_meter.add(slot.bytes, t - slot.cut_at);
  else if (static_cast<int32_t>(left_at[r] - slot.cut_at) > 0)
    back_to_back_meter.add(slot.bytes, t - left_at[r]);
  left_at[r] = t;
}

void send_packet_left(uint32_t packet) {
  if (packet >= kAckPacketBase) {
    ack_packet_left(packet);
    return;
  }
  const uint32_t r = packet / kSlots, s = packet % kSlots;
  trace(r, SlotState::transmit);
  Slot& slot = records[r].slots[s];
  if (records[r].measured && slot.carries == Carries::data)
    time_departure(r, slot);
  // A Reliable Delivery message of one packet, which completes now, keeps
  // it until acknowledged (one cut in fragments, or a read's, does not).
  const SendRecord& record = records[r];
  if (slot.reliable &&
      keep_packet(slot.last && slot.index == 0u && slot.carries == Carries::data &&
                      !record.ack_wanted && record.kind <= SendKind::rdma_write,
                  slot.buffer, record.vi, record.sequence, record.work.posted.epoch))
    slot.buffer = kNoBuffer;
  fragment_done(r, s);
  via::trace_state(nullptr);
}

} // namespace pvia
