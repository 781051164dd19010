// Acknowledgements leaving this card (VIA_PACKET_ACK, via_abi.h): a small
// pool of header-only packets, each in a named state
//   free -> wait_nsdma -> transmit -> free
// queued in the network send queue beside the send engine's fragments,
// under a stamp-ordering scheduler at the stamp of the message they
// acknowledge. An acknowledgement is cumulative, so one not yet taken by
// the network send DMA absorbs the next for its VI (unless it reports a
// failure, which must reach the sender as it is). With no buffer free the
// caller waits: the receive engine holds the message's completion back.
#include <lanai/register_map.h>

#include "common/ack_packet.h"
#include "common/sram_placement.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

namespace {

enum class AckState : uint8_t {
  free,
  wait_nsdma, // in the network send queue
  transmit,   // the network send DMA is sending it
  count_,
};

const char* const ack_state_names[] = {"ack:free", "ack:wait_nsdma", "ack:transmit"};
static_assert(static_cast<uint32_t>(AckState::count_) == 3u, "one name per state");

// Enough for one acknowledgement queued per busy VI: they absorb each other.
constexpr uint32_t kAcks = 16u;
constexpr uint8_t kNone = 0xFFu;
static_assert(kAckPacketBase + kAcks <= 0xFFu, "a packet number fits a byte");

VIA_ZEROED_AT_LOAD via::AckBuffer buffers[kAcks]{};
AckState states[kAcks];
via::Ack contents[kAcks];
via::OutgoingPacket framed[kAcks];
uint8_t free_acks[kAcks];
uint32_t free_count;
// The acknowledgement each VI has queued and not yet sent (kNone if none).
uint8_t queued_of[VIA_MAX_VI];

void trace(uint32_t a, AckState state) {
  via::trace_state(ack_state_names[static_cast<uint32_t>(state)]);
  via::trace_tag(contents[a].from_vi, contents[a].sequence);
}

// Folds `ack` into the one its VI has queued, if that one still may be:
// the same sender's VI, cumulative, of the same kind (an ack or a credit)
// and reporting no failure.
bool merge(const via::Ack& ack) {
  const uint32_t a = queued_of[ack.from_vi];
  if (a == kNone)
    return false;
  via::Ack& queued = contents[a];
  if (queued.status != 0u || queued.node != ack.node || queued.vi != ack.vi ||
      queued.flags != ack.flags)
    return false;
  queued.sequence = ack.sequence;
  queued.status = ack.status;
  buffers[a].header.sequence = ack.sequence;
  buffers[a].header.immediate = ack.status;
  count(pvia_acks_merged);
  return true;
}

} // namespace

void start_acks() {
  free_count = 0u;
  for (uint32_t a = kAcks; a-- > 0u;) {
    states[a] = AckState::free;
    free_acks[free_count++] = static_cast<uint8_t>(a);
  }
  for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi)
    queued_of[vi] = kNone;
}

bool send_ack(const via::Ack& ack, via::Stamp stamp) {
  const bool exact = (ack.flags & VIA_ACK_F_EXACT) != 0u;
  if (!exact && merge(ack))
    return true;
  if (free_count == 0u)
    return false;
  const uint32_t a = free_acks[--free_count];
  contents[a] = ack;
  // A node without a route cannot be answered; its sender's VI is
  // broken anyway.
  if (!via::frame_ack(buffers[a], this_node, ack, framed[a])) {
    free_acks[free_count++] = static_cast<uint8_t>(a);
    count(pvia_acks_unroutable);
    return true;
  }
  states[a] = AckState::wait_nsdma;
  if (!exact)
    queued_of[ack.from_vi] = static_cast<uint8_t>(a);
  count(pvia_acks_sent);
  queue_packet(kAckPacketBase + a, stamp);
  return true;
}

void ack_packet_ready(uint32_t packet, via::OutgoingPacket& out) {
  if (packet == kResendPacket) {
    resend_packet_ready(out);
    return;
  }
  const uint32_t a = packet - kAckPacketBase;
  trace(a, AckState::wait_nsdma);
  if (queued_of[contents[a].from_vi] == a)
    queued_of[contents[a].from_vi] = kNone;
  states[a] = AckState::transmit;
  out = framed[a];
}

void ack_packet_left(uint32_t packet) {
  if (packet == kResendPacket) {
    resend_packet_left();
    return;
  }
  const uint32_t a = packet - kAckPacketBase;
  trace(a, AckState::transmit);
  states[a] = AckState::free;
  free_acks[free_count++] = static_cast<uint8_t>(a);
  ack_buffer_freed();
  via::trace_state(nullptr);
}

} // namespace pvia
