#include "emulator/nic/card_trace.hpp"

#include "lanai/via_abi.h"

namespace lanai::nic {

void CardTrace::set_stamp_word(bool high, std::uint32_t word) {
  stamp_ = high ? (stamp_ & 0xFFFFFFFFull) | std::uint64_t{word} << 32
                : (stamp_ & ~0xFFFFFFFFull) | word;
}

void CardTrace::set_state(kernel::SimTime when, std::string_view name) {
  if (!recorder_)
    return;
  if (!state_.empty() && !waiting_ && when > state_since_)
    record(trace::Track::lanai, state_, state_since_, when, tag_);
  state_.assign(name);
  state_since_ = when;
  waiting_ = false;
}

void CardTrace::set_waiting(kernel::SimTime when, bool waiting) {
  if (!recorder_ || waiting == waiting_)
    return;
  if (waiting && !state_.empty() && when > state_since_)
    record(trace::Track::lanai, state_, state_since_, when, tag_);
  waiting_ = waiting;
  state_since_ = when;
}

trace::Event CardTrace::labelled(trace::Track track, std::string_view name, kernel::SimTime begin,
                                 kernel::SimTime end, std::uint32_t tag_word) const {
  const trace::Tag tag = trace::decode_tag(tag_word);
  return {.begin = begin,
          .end = end,
          .node = node_,
          .track = track,
          .name = std::string(name),
          .vi = tag.vi,
          .msg = tag.msg};
}

void CardTrace::label_packet(std::span<const std::uint8_t> payload, bool sending, trace::Event& e) {
  if (payload.size() < VIA_PACKET_HEADER_BYTES)
    return;
  auto be = [&](std::size_t at, std::size_t bytes) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < bytes; ++i)
      v = v << 8 | payload[at + i];
    return v;
  };
  if (be(0, 4) != VIA_PACKET_DATA)
    return;
  e.vi = be(sending ? 6 : 8, 2);
  e.msg = be(20, 4);
  if (!sending)
    e.peer = be(4, 2);
}

} // namespace lanai::nic
