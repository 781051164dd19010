// A Myrinet packet as it travels the fabric: a source route (one output-port
// byte per switch, eaten from the head at each hop), an opaque payload that
// the NIC fills with its header and data, and a CRC-32 trailer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lanai::wire {

// IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320, initial value and final
// xor 0xFFFFFFFF): the check value of "123456789" is 0xCBF43926.
std::uint32_t crc32(std::span<const std::uint8_t> bytes);

class Packet {
public:
  // The trailer travels on every hop, so it counts in each hop's wire time.
  static constexpr std::size_t trailer_bytes = 4;

  Packet() = default;
  Packet(std::uint64_t id, std::vector<std::uint8_t> route, std::vector<std::uint8_t> payload);

  // For traces only: the fabric never looks at them.
  std::uint64_t id() const { return id_; }
  std::uint32_t source_node() const { return source_node_; }
  void set_source_node(std::uint32_t node) { source_node_ = node; }

  // Route bytes not yet consumed, next hop first.
  std::span<const std::uint8_t> route() const {
    return std::span<const std::uint8_t>(route_).subspan(route_head_);
  }
  bool route_exhausted() const { return route_head_ == route_.size(); }
  std::size_t route_bytes_consumed() const { return route_head_; }
  // What a switch does with the head byte. Throws std::logic_error on an
  // exhausted route: the switch must check first.
  std::uint8_t consume_route_byte();

  const std::vector<std::uint8_t>& payload() const { return payload_; }
  std::vector<std::uint8_t> take_payload() { return std::move(payload_); }

  // Bytes serialised on a link at the current hop.
  std::size_t wire_bytes() const { return route().size() + payload_.size() + trailer_bytes; }

  // The sending interface computes the trailer; the receiving one checks it.
  // Only the payload is covered: route bytes vanish on the way. A sealed
  // packet nothing has damaged passes its check by construction, so the
  // trailer is computed only once something needs its value (a fault
  // about to damage the packet, or a reader of the trailer itself).
  void seal() {
    sealed_ = true;
    damaged_ = false;
    trailer_known_ = false;
  }
  std::uint32_t trailer() const;
  bool checksum_ok() const { return (sealed_ && !damaged_) || trailer() == crc32(payload_); }

  // Fault injection for tests: flips the bits of `mask` in byte `offset`
  // of payload-then-trailer, as line noise would.
  void corrupt_byte(std::size_t offset, std::uint8_t mask = 0xFF);

private:
  std::uint64_t id_ = 0;
  std::uint32_t source_node_ = 0;
  std::vector<std::uint8_t> route_;
  std::size_t route_head_ = 0;
  std::vector<std::uint8_t> payload_;
  mutable std::uint32_t trailer_ = 0;
  mutable bool trailer_known_ = false;
  bool sealed_ = false;
  bool damaged_ = false;
};

} // namespace lanai::wire
