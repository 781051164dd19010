// The bytes bench messages carry: a stamp naming the message (its channel,
// its number and, for a unit sent in fragments, which fragment it is), then
// a pattern derived from the stamp, so that a receiver can tell an intact
// message from a damaged, truncated or misdelivered one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lanai::bench {

struct MessageStamp {
  std::uint32_t channel = 0;
  std::uint32_t unit = 0;      // message (or frame) number on the channel
  std::uint32_t fragment = 0;  // fragment number within the unit
  std::uint32_t fragments = 1; // fragments of the unit
};

// The smallest message that carries a whole stamp.
constexpr std::uint32_t kStampedMessageBytes = sizeof(MessageStamp);

// Fills `bytes` (at least kStampedMessageBytes) at `buf`.
void write_message(std::uint8_t* buf, std::uint32_t bytes, const MessageStamp& stamp);
// Reads the stamp back into `stamp`; false unless every byte is as written.
bool check_message(const std::uint8_t* buf, std::uint32_t bytes, MessageStamp& stamp);

} // namespace lanai::bench
