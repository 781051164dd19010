// The send engine: each posted send is a record that moves through named
// states, one device operation each, and waits for that device's event
// instead of for the device:
//   fetch_descriptor -> stream -> [wait_peer] -> write_status
// (wait_peer: a Reliable Reception send waits for the receiving card's
// acknowledgement, an RDMA read for its data, and a send behind either on
// its VI for its turn; pvia_send_answer.cpp).
// While it streams, the message leaves as fragments (one, unless the VI's
// fragmentation policy cuts it: common/fragment_plan.h), each carried by one
// of the record's two fragment slots through the slot's own states:
//   gather_data -> wait_turn -> wait_nsdma -> transmit -> free
// so that the host DMA fills one slot while the network send DMA empties
// the other; a freed slot takes the next fragment. A fragment's data lands
// in one of the card's send buffers, which all records share
// (pvia_send_buffers.cpp): a record holds one only from its fragment's
// gather until the packet has left, so descriptors are fetched, and
// completions written, for many more sends than there are buffers, and the
// host DMA always has the next gather queued behind the one it serves. A
// freed buffer goes to the waiting send the scheduler serves first (the
// oldest, without stamps). A VI's sends take buffers, and enter the network
// send queue, in posting order (a send ready early, say one with no data or
// an error, waits its turn), so its packets leave, and its completions are
// written, in posting order; even a send that fails, or whose descriptor
// cannot be read, takes its place in that queue without sending.
//
// A record also carries an RDMA read's data back from the target's card:
// it takes the VI's send order like a send, reads host memory on the
// initiator's behalf and writes no completion (pvia_rdma_read.cpp).
//
// This header holds what the engine's parts share: the records and
// their slots (pvia_send.cpp takes sends into records and hears the
// devices' events; pvia_send_cut.cpp cuts a streaming send's fragments,
// has their data read and queues them for the network;
// pvia_send_answer.cpp completes the sends that wait for their peer).
#pragma once

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/fragment_plan.h"
#include "pvia.h"
#include "pvia_send_buffers.h"

namespace pvia {

enum class SendState : uint8_t {
  free,             // no message
  fetch_descriptor, // the descriptor is on its way from host memory
  stream,           // its fragments are on their way through the slots
  wait_peer,        // sent; waits for its peer's answer, or for an earlier send of its VI that does
  write_status,     // the completion is on its way to host memory
  count_,
};

enum class SlotState : uint8_t {
  free,        // no fragment
  gather_data, // the fragment's data is on its way into the slot's buffer
  wait_turn,   // ready, behind an earlier send of its VI not yet all queued
  wait_nsdma,  // the packet waits in the network send queue
  transmit,    // the network send DMA is sending it
  count_,
};

// What a record carries; the first three are the descriptor's op
// (VIP_CONTROL_OP_*), whose completion's op bits are the kind << 17.
enum class SendKind : uint8_t {
  send,         // a send
  rdma_write,   // an RDMA write: data out, with its target in a trailer
  read_request, // an RDMA read: a request out, the data back (pvia_send_answer.cpp)
  read_data,    // at the target, an RDMA read's data going back: no descriptor
};
static_assert(VIP_STATUS_OP_RDMA_WRITE == 1u << 17 && VIP_STATUS_OP_RDMA_READ == 2u << 17,
              "a kind's op bits are the kind shifted");

// Names of the states, for traces.
extern const char* const send_state_names[];
extern const char* const send_slot_state_names[];

namespace send_engine {

// Sends in hand at once: enough that, with the descriptors of the next
// ones fetched and the completions of the last ones on their way, every
// send buffer can be busy.
constexpr uint32_t kSendRecords = 16u;
constexpr uint32_t kSlots = 2u;
// Under a stamp-ordering scheduler best effort may hold this many records
// at most: the rest are kept for reserved sends, which must never wait
// behind best effort for a record.
constexpr uint32_t kBestEffortRecords = kSendRecords / 2u;
// Sends taken ahead of their first gather (their descriptors fetched or on
// the way): enough to keep the gathers coming, few enough that the host
// DMA queue stays short and later, more urgent, sends find it so.
constexpr uint32_t kSendsAhead = 4u;
// Best effort's sends ahead, under a stamp-ordering scheduler. One is too
// few: the host DMA idles between a send's descriptor and its data (about
// two thirds of the host DMA bound for a stream of 4 KB sends). More than
// two deepen no pipeline, as a VI's sends cut one after another, but with
// several VIs sending they leave more records waiting for a send buffer at
// once, which makes choosing the record a freed buffer goes to, and handing
// the cut on to a VI's next send, cost the core more per message; the core,
// not the host DMA, then sets the pace (with three or four, 4 KB best effort
// to two or more receivers carries 84-87% of the bound against 89-90%).
constexpr uint32_t kBestEffortSendsAhead = 2u;
constexpr uint8_t kNoRecord = 0xFFu;
constexpr uint32_t kNoFailure = 0xFFFFFFFFu;
static_assert(kSendRecords * kSlots <= 0xFFu, "a packet names its record and slot in a byte");
static_assert(kSendRecords <= 32u, "records streaming fit a word");

// What a slot's packet carries.
enum class Carries : uint8_t {
  data,    // the fragment
  aborted, // nothing: the message was given up after earlier fragments left
  nothing, // no packet at all (the send failed before any left)
};

struct Slot {
  SlotState state;
  Carries carries;
  uint8_t outstanding; // host DMAs queued and not yet completed
  uint8_t buffer;      // the send buffer it fills (kNoBuffer: none)
  bool last;           // the message's last fragment
  bool reliable;       // framed for a Reliable Delivery VI
  uint32_t index;      // which fragment of the message
  uint32_t offset;     // where it starts in the message
  uint32_t bytes;
  uint32_t cut_at; // cycle its reads were queued (adaptive policy)
  via::Stamp stamp;
  via::OutgoingPacket framed; // the packet, framed as it joins the network send queue
};

// A power of two in size, so that finding record r is one shift.
// (The flags a new send clears share words, so that clearing them is a
// store or two.)
struct alignas(512) SendRecord {
  SendState state;
  uint8_t vi;
  bool best_effort; // counted among best effort's records
  bool ahead;       // taken, and no fragment cut yet
  bool unreachable; // the descriptor could not be read: no status to write
  bool numbered;    // a packet has left: the message has its sequence number
  bool has_turn;    // the VI's earlier sends are all in the network queue
  bool all_cut;     // every fragment has been handed to a slot
  bool measured;    // the VI's policy is adaptive: time the fragments
  SendKind kind;
  bool marked;        // not a plain send: kind != send, ack_wanted, or unreachable
  bool ack_wanted;    // Reliable Reception: completes on the receiving card's acknowledgement
  bool answered;      // the peer's answer (acknowledgement, read data or refusal) is in
  uint8_t gather;     // via::HdmaDirection of its data reads: remote for read_data
  uint8_t next_of_vi; // the VI's send taken after this one (kNoRecord: none yet)
  uint8_t next_held;  // the VI's next record waiting for its completion (pvia_send_answer.cpp)
  uint32_t ticket;    // its place among its VI's sends
  uint32_t label;     // VI and ticket, labelling its work in traces
  uint32_t errors;    // VIP_STATUS_* bits found so far
  uint32_t failed_at; // first fragment that failed; later ones are not sent
  uint32_t sequence;  // the message's number on the wire, once numbered
  uint32_t cut;       // fragments handed to slots
  uint32_t gathered;  // ... whose data is in (or failed to reach) SRAM
  uint32_t queued;    // ... in the network send queue
  uint32_t finished;  // ... that left or were passed over
  uint32_t offset;    // message bytes handed to slots
  uint32_t peer;      // (node << 16) | VI its answer comes from, once in wait_peer
  uint32_t sent_at;   // cycle its message last left, while it waits for an acknowledgement
  bool resending;     // the resend lane is sending its message again
  bool awaits_answer; // counted in answers_awaited
  SendWork work;      // where its descriptor is, its stamp (carried by all its requests)
  via::FragmentPlan plan;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
  Slot slots[kSlots];
};

extern SendRecord records[kSendRecords];
// Records ahead of their first gather, best effort's and the others'
// counted apart: best effort waiting for the host DMA must not keep a
// reserved send from being taken.
extern uint32_t sends_ahead[2];
extern bool stamp_ordered;
// Records in hand that wait, or will, for their peer's answer (an
// acknowledgement, or a read's data): while there are none an
// acknowledgement only settles kept packets.
VIA_LARGE_DATA extern uint32_t answers_awaited;
inline void await_answer(SendRecord& record) {
  if (!record.awaits_answer) {
    record.awaits_answer = true;
    ++answers_awaited;
  }
}
extern bool tracks_service;              // the scheduler wants to hear of each send served
extern uint32_t tickets_cut[VIA_MAX_VI]; // the VI's send whose fragments are being cut

inline HdmaOwner owner_of(uint32_t r) { return {Engine::send, static_cast<uint8_t>(r)}; }
inline uint32_t packet_of(uint32_t r, uint32_t s) { return r * kSlots + s; }

// The core takes up record r in `state` (a constant, so that the name's
// address is too); the device operations it starts are labelled with the
// record's VI and its place among the VI's sends, which is the message's
// sequence number while none of the VI's sends fails.
inline void trace(uint32_t r, SendState state) {
  via::trace_state(send_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}
inline void trace(uint32_t r, SlotState state) {
  via::trace_state(send_slot_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}

// The VI's send taken after record r, if it is still in hand and has
// ticket `ticket`; kNoRecord otherwise.
inline uint32_t next_of_vi(uint32_t r, uint32_t ticket) {
  const uint32_t n = records[r].next_of_vi;
  if (n == kNoRecord)
    return kNoRecord;
  const SendRecord& next = records[n];
  if (next.state == SendState::free || next.vi != records[r].vi || next.ticket != ticket)
    return kNoRecord;
  return n;
}

// Record r would cut a fragment if given a buffer (or no longer would).
inline void note_wanting(uint32_t r) {
  const SendRecord& record = records[r];
  if (record.state == SendState::stream && !record.all_cut &&
      record.ticket == tickets_cut[record.vi] &&
      record.slots[record.cut % kSlots].state == SlotState::free)
    send_wanting |= 1u << r;
  else
    send_wanting &= ~(1u << r);
}

static_assert(sizeof(SendRecord) == 512u, "records are found by shifting");

// --- pvia_send.cpp -----------------------------------------------------------

// Queues the record's completion; the record's next state.
SendState write_status(uint32_t r);
void release_record(uint32_t r);
// Plans the fragments of the record's message (none for a read request,
// whose data comes back) by its VI's policy and lets it stream.
SendState start_streaming(uint32_t r);

// --- pvia_send_answer.cpp ----------------------------------------------------

// Each VI's records waiting to complete, first of the list (record + 1; 0:
// none).
extern uint8_t held_head[VIA_MAX_VI];
// Every fragment of the record has left (or was passed over), and it is
// no plain send (marked), or the VI has records waiting (held_head): a
// record with no descriptor to complete is let go; another queues behind
// the VI's waiting ones, and the completions that may be written are.
void finish_marked(uint32_t r);

// Writes the completions of the VI's waiting records that may be written.
void complete_waiting(uint32_t vi);

// No new send is taken while `paused` (a VI goes back: its new messages
// would only be dropped past the gap by its receiver).
void pause_new_sends(bool paused);

// --- pvia_resend.cpp ---------------------------------------------------------

// Record r's message has left and it waits for its acknowledgement: the
// retransmission timeout runs from now.
void watch_answer(uint32_t r);
// A read of the data the resend lane sends again for record r is done.
void resend_data_arrived(uint32_t r, uint32_t outcome);

// --- pvia_rdma_read.cpp ------------------------------------------------------

// Record r was given an RDMA read job (work.posted.handle 0): it becomes
// the read's data on its way back; the record's next state.
SendState take_read_job(uint32_t r);

// --- pvia_send_cut.cpp -------------------------------------------------------

// The marks of a packet of the record that is not a plain send's (an
// acknowledgement wanted, an RDMA trailer, a read's data), added to its
// header and framing.
void mark_packet(const SendRecord& record, via::SendBuffer& buffer, via::OutgoingPacket& framed);

// Every fragment of the record is in a slot (or none will be sent): the
// VI's next send may cut.
void finish_cutting(uint32_t r);
// A send that fails before its data: one empty slot keeps its place.
SendState stream_nothing(uint32_t r);
// A read of the streaming record's data is done (`outcome`: the host DMA's).
void data_arrived(uint32_t r, uint32_t outcome);

} // namespace send_engine

} // namespace pvia
