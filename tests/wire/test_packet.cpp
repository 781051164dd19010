// Tests of the packet format: CRC-32 check values, route consumption,
// wire size at each hop, and corruption being caught by the trailer.
#include "emulator/wire/packet.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

using lanai::wire::crc32;
using lanai::wire::Packet;

namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

} // namespace

TEST_CASE("CRC-32 matches the IEEE 802.3 check values") {
  CHECK(crc32(bytes_of("123456789")) == 0xCBF43926u);
  CHECK(crc32(bytes_of("")) == 0x00000000u);
  CHECK(crc32(bytes_of("The quick brown fox jumps over the lazy dog")) == 0x414FA339u);
}

TEST_CASE("CRC-32 agrees with the bit-at-a-time definition at every length and alignment") {
  auto reference = [](const std::uint8_t* p, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
  };
  std::vector<std::uint8_t> data(300);
  std::uint32_t x = 12345;
  for (auto& b : data)
    b = static_cast<std::uint8_t>((x = x * 1103515245u + 12345u) >> 16);
  for (std::size_t start = 0; start < 8; ++start)
    for (std::size_t n = 0; start + n <= data.size(); n += 1 + n / 7)
      CHECK(crc32(std::span<const std::uint8_t>(data.data() + start, n)) ==
            reference(data.data() + start, n));
}

TEST_CASE("route bytes are consumed from the head and shrink the wire size") {
  Packet p(7, {3, 1, 4}, bytes_of("payload"));
  CHECK(p.id() == 7);
  CHECK(p.wire_bytes() == 3 + 7 + Packet::trailer_bytes);
  CHECK(p.consume_route_byte() == 3);
  CHECK(p.wire_bytes() == 2 + 7 + Packet::trailer_bytes);
  CHECK(p.route().size() == 2);
  CHECK(p.route()[0] == 1);
  CHECK(p.consume_route_byte() == 1);
  CHECK(p.consume_route_byte() == 4);
  CHECK(p.route_exhausted());
  CHECK(p.route_bytes_consumed() == 3);
  CHECK(p.wire_bytes() == 7 + Packet::trailer_bytes);
  CHECK_THROWS_AS(p.consume_route_byte(), std::logic_error);
}

TEST_CASE("the trailer covers the payload and catches any flipped byte") {
  Packet p(1, {0}, bytes_of("hello, wire"));
  p.seal();
  CHECK(p.trailer() == crc32(bytes_of("hello, wire")));
  CHECK(p.checksum_ok());
  // Consuming the route does not disturb the check: routes vanish en route.
  p.consume_route_byte();
  CHECK(p.checksum_ok());

  for (std::size_t offset = 0; offset < p.payload().size() + Packet::trailer_bytes; ++offset) {
    CAPTURE(offset);
    Packet q = p;
    q.corrupt_byte(offset, 0x01);
    CHECK_FALSE(q.checksum_ok());
    q.corrupt_byte(offset, 0x01);
    CHECK(q.checksum_ok());
  }
  CHECK_THROWS_AS(p.corrupt_byte(p.payload().size() + Packet::trailer_bytes), std::out_of_range);
}

TEST_CASE(
    "a packet never sealed fails its check; one damaged before its trailer was read is caught") {
  Packet unsealed(1, {0}, bytes_of("hello, wire"));
  CHECK(unsealed.trailer() == 0u);
  CHECK_FALSE(unsealed.checksum_ok());
  Packet p(2, {0}, bytes_of("hello, wire"));
  p.seal();
  p.corrupt_byte(0, 0x80); // the trailer is taken as sealed, before the damage
  CHECK(p.trailer() == crc32(bytes_of("hello, wire")));
  CHECK_FALSE(p.checksum_ok());
  p.seal(); // sealed again over the damaged bytes, as a sender would
  CHECK(p.checksum_ok());
}

TEST_CASE("an unsealed packet fails its check unless its CRC happens to be zero") {
  Packet p(2, {0}, bytes_of("x"));
  CHECK_FALSE(p.checksum_ok());
  Packet empty(3, {0}, {});
  CHECK(empty.checksum_ok()); // CRC-32 of nothing is 0
}
