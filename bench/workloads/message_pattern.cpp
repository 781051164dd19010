#include "bench/workloads/message_pattern.hpp"

#include <algorithm>
#include <cstring>

namespace lanai::bench {

namespace {

std::uint8_t fill_byte(const MessageStamp& s, std::uint32_t k) {
  return static_cast<std::uint8_t>(s.channel * 29u + s.unit * 7u + s.fragment * 3u + k);
}

} // namespace

void write_message(std::uint8_t* buf, std::uint32_t bytes, const MessageStamp& stamp) {
  std::memcpy(buf, &stamp, std::min<std::size_t>(bytes, sizeof stamp));
  for (std::uint32_t k = sizeof stamp; k < bytes; ++k)
    buf[k] = fill_byte(stamp, k);
}

bool check_message(const std::uint8_t* buf, std::uint32_t bytes, MessageStamp& stamp) {
  if (bytes < sizeof stamp)
    return false;
  std::memcpy(&stamp, buf, sizeof stamp);
  for (std::uint32_t k = sizeof stamp; k < bytes; ++k)
    if (buf[k] != fill_byte(stamp, k))
      return false;
  return true;
}

} // namespace lanai::bench
