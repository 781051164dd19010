// The receive engine's records (pvia_recv.cpp takes posted receives and
// arriving packets into them and hears the host DMA's events;
// pvia_recv_deliver.cpp moves a message's fragments into the host buffers,
// an RDMA write's to where it names, or an RDMA read's data into the read's
// buffers, and writes the completions, and the acknowledgements a Reliable
// Reception sender asked for, in each VI's order). What the two parts
// share: the records and the delivery steps the first part calls.
#pragma once

#include <stdint.h>

#include "common/arrival_checks.h"
#include "common/descriptor.h"
#include "common/packet.h"
#include "common/scheduler.h"
#include "common/sram_placement.h"
#include "pvia.h"

namespace pvia {

// Messages whose sender waits for this card's acknowledgement: Reliable
// Reception's, and the reliable ones of a sender that keeps what it sends
// until acknowledged (VIA_PACKET_F_RELIABLE: SVIA's Reliable Delivery).
// Both are taken in sequence and answered in their VI's order.
constexpr uint32_t kAnswered = VIA_PACKET_F_ACK_WANTED | VIA_PACKET_F_RELIABLE;

enum class ReceiveState : uint8_t {
  free,             // no receive
  fetch_descriptor, // the descriptor is on its way from host memory
  parked,           // the descriptor waits on its VI for a packet
  scatter_data,     // the packet's data is on its way to the host buffers
  wait_turn,        // done, behind an earlier receive of its VI not yet completed
  wait_ack,         // its turn, but its acknowledgement waits for a free buffer
  write_status,     // the completion is on its way to host memory
  count_,
};

// What a record's message is.
enum class ReceiveKind : uint8_t {
  receive,    // a send, into the posted receive's buffers
  rdma_write, // an RDMA write, to where its trailers say
  read_data,  // an RDMA read's data coming back, into the read's buffers
};

namespace receive_engine {

constexpr uint32_t kRecords = 64u;
// Records only a packet's on-demand fetch may take, so that prefetching
// can never leave an arrival without one.
constexpr uint32_t kReserved = 4u;
constexpr uint8_t kNoRecord = 0xFFu;
// Fragments a record holds at once: at most every receive buffer.
constexpr uint32_t kFragments = 4u;
static_assert(kRecords < kNoRecord, "record numbers fit a byte");
static_assert((kFragments & (kFragments - 1u)) == 0u, "indices wrap by masking");

// A fragment in a receive buffer, on its way to the host.
struct Fragment {
  uint8_t buffer;      // the receive buffer holding it
  uint8_t outstanding; // host DMAs queued and not yet completed
  uint8_t pieces;      // host DMAs queued in all
  uint8_t done;        // ... of which completed
  uint32_t offset;     // where it goes in the message
  uint32_t bytes;
  const uint8_t* data; // its payload in the receive buffer
  uint32_t sizes[VIA_MAX_SEGMENTS];
  via::RdmaTarget target; // an RDMA write's: where it goes
};

struct ReceiveRecord {
  ReceiveState state;
  uint8_t vi;
  uint8_t next; // the VI's next parked or fetching record
  bool matched; // a message has taken it
  bool discard; // flushed while its descriptor was being fetched
  bool silent;  // its descriptor could not be read: no status to write
  bool ended;   // the message's last fragment is in (or it broke off)
  ReceiveKind kind;
  bool no_status;    // no receive descriptor: an RDMA write without immediate
                     // data, a read's data, a refusal kept only for its acknowledgement
  bool reported;     // the host has heard of its RDMA protection failure
  bool awaiting;     // it lost a fragment; its sender sends the message again
  uint8_t reader;    // read_data: the send record of the read
  uint8_t first;     // oldest fragment not yet delivered
  uint8_t scattered; // fragments whose host DMAs are queued (or skipped)
  uint8_t taken;     // fragments taken
  uint32_t ticket;   // its place among its VI's messages
  uint32_t label;    // VI and message sequence, labelling its work in traces
  uint32_t errors;
  uint32_t placed;    // bytes delivered
  uint32_t message;   // the message's length
  uint32_t expected;  // where its next fragment must start
  uint32_t sequence;  // the message's number
  uint32_t flags;     // its first fragment's VIA_PACKET_F_* bits
  uint32_t immediate; // the message's immediate data (read_data: the read's number)
  uint16_t src_node;  // who sent it, for its acknowledgement
  uint16_t src_vi;
  via::Stamp stamp; // the scheduler's stamp for its delivery
  Fragment fragments[kFragments];
  via::PostedDescriptor posted;
  via::Descriptor descriptor;
  via::DescriptorCopy copy;
  via::Completion completion;
};

VIA_LARGE_DATA extern ReceiveRecord records[kRecords];
extern uint32_t tickets_completed[VIA_MAX_VI]; // a VI's receives whose completion is queued
extern uint32_t waiting_turn[VIA_MAX_VI];      // records of the VI in wait_turn

// The trace names of the states.
extern const char* const receive_state_names[];
inline void trace(uint32_t r, ReceiveState state) {
  via::trace_state(receive_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(records[r].label);
}

inline HdmaOwner owner_of(uint32_t r) { return {Engine::receive, static_cast<uint8_t>(r)}; }
inline Fragment& fragment_at(ReceiveRecord& record, uint32_t i) {
  return record.fragments[i & (kFragments - 1u)];
}
void release_record(uint32_t r);

// pvia_recv_strays.cpp: packets that are no message for a receive here.
// A packet for a VI that does not take it from its sender: dropped; a
// sender that waits for an answer hears that its message went nowhere.
// False if that cannot be sent now.
[[gnu::noinline]] bool take_unmatched(const Arrival& arrival);
// A packet that carries no message: an acknowledgement, handed to the send
// engine, or a damaged one, dropped and counted, not reported.
[[gnu::noinline]] void take_other(const Arrival& arrival, via::PacketCheck checked);

// pvia_recv_sequence.cpp: the numbering of the messages a sender waits to
// have answered (kAnswered).
// True if the VI has taken message `sequence` already, in its current epoch.
bool taken_before(uint32_t vi, uint32_t sequence);
// Such a message is taken only in sequence, as its sender goes back to the
// first one the fabric lost (pvia_resend.cpp): a duplicate (sent again, its
// acknowledgement lost) is answered again and dropped; one past a gap is
// dropped, and the first past each gap is answered by an acknowledgement
// saying so (VIA_ACK_F_GAP). True if it is the next one, to be taken.
[[gnu::noinline]] bool in_sequence(uint32_t vi, const via_packet_header& header);
// Such a message does not break off when it loses a fragment: its sender
// sends it again whole, so its record keeps its receive and waits for it.
// Not once the VI has been flushed since (its numbers start again).
inline bool resent_whole(const ReceiveRecord& record) {
  return (record.flags & kAnswered) != 0u && record.kind != ReceiveKind::read_data &&
         via::sequence_table::sequence_epoch[record.vi] == via::vi_config(record.vi).epoch + 1u;
}
// Record r waits for its message sent again: the VI expects that message
// next again (later ones are dropped as past a gap), and the sender hears
// of the gap at once.
[[gnu::noinline]] void wait_for_resend(uint32_t r);
// The VI's record waiting for its message sent again, or kNoRecord.
uint32_t waiting_for_resend(uint32_t vi);
// Record r takes its message sent again: it waits no more.
void stop_waiting(uint32_t r);
// Record r waited but has all its fragments after all (what made it wait
// was an older message's duplicate): it waits no more, and the VI expects
// the next message again.
void end_wait(uint32_t r);

// pvia_recv_deliver.cpp
// Scatters the fragments taken so far and, once the message has ended and
// all are through, writes the completion: the record's next state.
ReceiveState advance(uint32_t r);
// The descriptor is known and a message has taken the record.
ReceiveState start_scatter(uint32_t r);
// A host DMA of one of the record's fragments finished.
ReceiveState piece_done(uint32_t r, uint32_t outcome);
// An RDMA write failed at this card (reported to the host once).
void fail_rdma(uint32_t r);
// A Reliable Reception message numbered before the next one expected on
// `vi` (`gap`: past it) was dropped: its sender hears again of the last
// message acknowledged (flagged VIA_ACK_F_GAP past a gap, when it goes
// back at once). False if no acknowledgement buffer is free.
bool acknowledge_again(uint32_t vi, const via_packet_header& header, bool gap);

// A Reliable Delivery message (VIA_PACKET_F_RELIABLE alone) of `vi` is
// taken in sequence: the card has it, which is all its sender waits for.
// Its acknowledgement goes now if asked for, or late with the VI's next.
void settle_on_arrival(uint32_t vi, const via_packet_header& header);

// pvia_recv_owed_acks.cpp
// A Reliable Delivery message of `vi` from (src_node, src_vi) is settled:
// its acknowledgement may wait, cumulative with the VI's next ones.
void owe_ack(uint32_t vi, uint32_t src_node, uint32_t src_vi);
// An acknowledgement of `vi` has gone: it pays what the VI owed.
void ack_paid(uint32_t vi);

} // namespace receive_engine

} // namespace pvia
