// Packet route consumption, the CRC-32 trailer (computed when first needed)
// and the fault-injection hook.
#include "emulator/wire/packet.hpp"

#include <array>
#include <stdexcept>

namespace lanai::wire {

namespace {

using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;

// Table k gives the CRC of a byte followed by k zero bytes, so eight bytes
// fold into the running value with eight look-ups at once (slicing by 8).
constexpr CrcTables make_crc_tables() {
  CrcTables t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][n] = c;
  }
  for (std::uint32_t n = 0; n < 256; ++n)
    for (std::size_t k = 1; k < 8; ++k)
      t[k][n] = t[0][t[k - 1][n] & 0xFF] ^ (t[k - 1][n] >> 8);
  return t;
}

constexpr CrcTables crc_tables = make_crc_tables();

} // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  const auto& t = crc_tables;
  std::uint32_t c = 0xFFFFFFFFu;
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
  for (; n >= 8; n -= 8, p += 8) {
    const std::uint32_t lo = c ^ (std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 |
                                  std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
        t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; n > 0; --n, ++p)
    c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

Packet::Packet(std::uint64_t id, std::vector<std::uint8_t> route, std::vector<std::uint8_t> payload)
    : id_(id), route_(std::move(route)), payload_(std::move(payload)) {}

std::uint8_t Packet::consume_route_byte() {
  if (route_exhausted())
    throw std::logic_error("lanai::wire: packet route already exhausted");
  return route_[route_head_++];
}

std::uint32_t Packet::trailer() const {
  if (sealed_ && !trailer_known_) {
    trailer_ = crc32(payload_);
    trailer_known_ = true;
  }
  return trailer_;
}

void Packet::corrupt_byte(std::size_t offset, std::uint8_t mask) {
  // The trailer as sealed, before the damage.
  (void)trailer();
  damaged_ = true;
  if (offset < payload_.size()) {
    payload_[offset] ^= mask;
    return;
  }
  const std::size_t t = offset - payload_.size();
  if (t >= trailer_bytes)
    throw std::out_of_range("lanai::wire: corrupt_byte past the trailer");
  trailer_ ^= static_cast<std::uint32_t>(mask) << (8 * t);
}

} // namespace lanai::wire
