// Reliable Delivery packets kept until acknowledged (pvia_send_kept.h).
#include "pvia_send_kept.h"

#include "common/ack_packet.h"
#include "common/nic_config.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

uint8_t kept_vi[kSendBuffers];
uint8_t kept_next[kSendBuffers];
uint32_t kept_sequence_of[kSendBuffers];
uint32_t kept_sent_at[kSendBuffers];
uint8_t kept_head[VIA_MAX_VI];
uint8_t kept_tail[VIA_MAX_VI];
uint8_t kept_of_vi[VIA_MAX_VI];
uint32_t kept_epoch[VIA_MAX_VI];
uint32_t kept_count;
uint8_t keeping_vis[VIA_MAX_VI];
uint32_t keeping_count;
uint32_t kept_in_lane;
bool kept_in_lane_acked;

namespace {

// Each VI has asked for an acknowledgement none has answered yet, and its
// place in keeping_vis + 1 (0: none).
bool asked[VIA_MAX_VI];
uint8_t keeping_index[VIA_MAX_VI];

// Takes the VI's oldest kept packet (buffer b) off its list and lets go
// of its buffer.
void pop_oldest(uint32_t vi, uint32_t b) {
  kept_head[vi] = kept_next[b];
  kept_vi[b] = 0u;
  --kept_count;
  give_back_send_buffer(b);
  if (--kept_of_vi[vi] != 0u)
    return;
  kept_tail[vi] = 0u;
  asked[vi] = false;
  const uint32_t place = keeping_index[vi];
  keeping_index[vi] = 0u;
  const uint32_t last = keeping_vis[--keeping_count];
  if (last != vi) {
    keeping_vis[place - 1u] = static_cast<uint8_t>(last);
    keeping_index[last] = static_cast<uint8_t>(place);
  }
}

} // namespace

void start_keeping(uint32_t vi, uint32_t epoch) {
  keeping_vis[keeping_count++] = static_cast<uint8_t>(vi);
  keeping_index[vi] = static_cast<uint8_t>(keeping_count);
  kept_epoch[vi] = epoch;
  // The timer, armed for the other VIs' deadlines (or earlier), comes
  // round for this one's in turn.
  wake_timer_by(now() + via::nic_config().retransmit_cycles);
}

void ask_for_ack(uint32_t vi, via::SendBuffer& buffer) {
  if (asked[vi] || (buffer.header.flags & VIA_PACKET_F_RELIABLE) == 0u)
    return;
  buffer.header.flags |= VIA_PACKET_F_ACK_NOW;
  asked[vi] = true;
}

void let_go_kept_of(uint32_t vi) {
  while (kept_head[vi] != 0u) {
    const uint32_t b = kept_head[vi] - 1u;
    if (kept_in_lane == b + 1u) {
      // The lane lets go of it when it is done; the rest go now.
      kept_in_lane_acked = true;
      if (kept_next[b] == 0u)
        return;
      const uint32_t after = kept_next[b] - 1u;
      kept_next[b] = kept_next[after];
      if (kept_tail[vi] == after + 1u)
        kept_tail[vi] = static_cast<uint8_t>(b + 1u);
      kept_vi[after] = 0u;
      --kept_count;
      --kept_of_vi[vi];
      give_back_send_buffer(after);
      continue;
    }
    pop_oldest(vi, b);
  }
}

void let_go_lane_kept() {
  const uint32_t b = kept_in_lane - 1u;
  kept_in_lane = 0u;
  // Acknowledged, it is its VI's oldest (those before it went first).
  if (kept_in_lane_acked && kept_vi[b] != 0u && kept_head[kept_vi[b] - 1u] == b + 1u)
    pop_oldest(kept_vi[b] - 1u, b);
}

bool kept_stale(uint32_t vi) {
  if (kept_epoch[vi] == via::vi_config(vi).epoch)
    return false;
  let_go_kept_of(vi);
  return true;
}

uint32_t release_kept(uint32_t vi, uint32_t peer, uint32_t sequence, bool exact) {
  if (kept_head[vi] == 0u)
    return 0u;
  volatile via_vi_config& config = via::vi_config(vi);
  if (peer != (config.remote_node << 16 | config.remote_vi))
    return 0u;
  uint32_t covered = 0u;
  if (exact) {
    // A message no VI took at the peer: only the oldest is let go of (a
    // refusal of a later one waits for its turn in the go-back).
    const uint32_t b = kept_head[vi] - 1u;
    if (kept_sequence(b) == sequence) {
      covered = 1u;
      if (kept_in_lane == b + 1u)
        kept_in_lane_acked = true;
      else
        pop_oldest(vi, b);
    }
  } else {
    // Oldest first: the first past a cumulative acknowledgement ends it.
    for (uint32_t k = kept_head[vi]; k != 0u; k = kept_head[vi]) {
      const uint32_t b = k - 1u;
      if (!via::sequence_at_most(kept_sequence(b), sequence))
        break;
      ++covered;
      if (kept_in_lane == k) {
        kept_in_lane_acked = true;
        break;
      }
      pop_oldest(vi, b);
    }
  }
  if (covered != 0u)
    asked[vi] = false;
  return covered;
}

via::OutgoingPacket reframe_kept(uint32_t b) {
  via::SendBuffer& buffer = send_buffer(b);
  const via_packet_header& header = buffer.header;
  via::OutgoingPacket framed = via::frame_packet(
      buffer, via::route_to(via::vi_config(kept_vi[b] - 1u).remote_node), header.length);
  if ((header.flags & VIA_PACKET_F_RDMA_WRITE) != 0u)
    framed.length += via::kRdmaTrailerBytes;
  return framed;
}

} // namespace pvia
