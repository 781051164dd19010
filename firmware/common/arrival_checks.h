// Checks on a packet taken off the network before it may touch a VI: is it
// intact and from whom it claims, is it numbered as its VI expected, and
// what happens when no receive is posted for it.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include "common/packet.h"
#include "common/vi_table.h"

namespace via {

// What a packet taken off the network is: a data packet or an
// acknowledgement, intact, or damaged (`damage` holds the receive DMA's
// BAD_CRC / TRUNCATED bits), malformed, or claiming another sender than
// the `source` node the network reports. A data packet is told apart with
// no more work than before acknowledgements existed.
enum class PacketCheck : uint8_t { damaged, data, ack };
PacketCheck check_packet(const ReceiveBuffer& buffer, uint32_t payload_bytes, uint32_t source,
                         uint32_t damage);
// Counts a gap if `sequence` is not the next one expected on `vi`.
void note_sequence(uint32_t vi, uint32_t sequence);
// The same for a VI whose other messages may be taken strictly in sequence
// (judge_sequence): the count is of the VI's current epoch, so that a
// message judged after this one is judged against it.
void note_sequence_in_epoch(uint32_t vi, uint32_t sequence);

// Taking a VI's messages strictly in sequence, for firmware whose senders
// retransmit (VIA_PACKET_F_RELIABLE). A VI's numbers start again from 0
// whenever the host flushes it (a new epoch: a new connection).
enum class InSequence : uint8_t {
  next,      // the message expected: take it, then take_sequence()
  duplicate, // taken before (a retransmission): drop it, acknowledge again
  ahead,     // past a gap (one before it was lost): drop it, the sender goes back
};
InSequence judge_sequence(uint32_t vi, uint32_t sequence);
// What judge_sequence() and take_sequence() keep: each VI's next number
// expected, and its epoch + 1 those count from (0: none seen yet).
namespace sequence_table {
extern uint32_t expected_sequence[VIA_MAX_VI];
extern uint32_t sequence_epoch[VIA_MAX_VI];
} // namespace sequence_table
// The common case of both in one, inline: true (and taken) if `sequence`
// is the next expected on `vi` in its current epoch; otherwise nothing
// changes and judge_sequence() tells what the message is.
[[gnu::always_inline]] inline bool take_if_next(uint32_t vi, uint32_t sequence) {
  if (sequence_table::sequence_epoch[vi] != vi_config(vi).epoch + 1u ||
      sequence_table::expected_sequence[vi] != sequence)
    return false;
  sequence_table::expected_sequence[vi] = sequence + 1u;
  return true;
}
void take_sequence(uint32_t vi, uint32_t sequence);
// The number of the message taken last on `vi` (all ones: none yet).
uint32_t last_sequence(uint32_t vi);
// An unreliable VI's message may be lost but never taken twice or out of
// order: false (and counted) for one numbered before the next expected,
// which is dropped; otherwise it is taken and a gap counted.
bool take_unreliable(uint32_t vi, uint32_t sequence);
// The outcomes of the messages taken on each VI, so that every cumulative
// acknowledgement can repeat those of the last VIA_ACK_OUTCOMES (an
// earlier acknowledgement reporting a failure may have been lost).
// note_outcome() records message `sequence` settled with sender status
// `status` (sender_status()) and returns the outcomes word as of it;
// outcomes_as_of() gives the word as of a later (or the same) message.
uint32_t note_outcome(uint32_t vi, uint32_t sequence, uint32_t status);
uint32_t outcomes_as_of(uint32_t vi, uint32_t sequence);
// A message arrived before any receive was posted for it: dropped on an
// unreliable VI, breaks a reliable one.
void no_receive_posted(uint32_t vi);

} // namespace via
