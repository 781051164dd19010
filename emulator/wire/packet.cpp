// Packet route consumption, the CRC-32 trailer and the fault-injection hook.
#include "wire/packet.hpp"

#include <array>
#include <stdexcept>

namespace lanai::wire {

namespace {

constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    return table;
}

constexpr auto crc_table = make_crc_table();

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (const std::uint8_t b : bytes) c = crc_table[(c ^ b) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

Packet::Packet(std::uint64_t id, std::vector<std::uint8_t> route, std::vector<std::uint8_t> payload)
    : id_(id), route_(std::move(route)), payload_(std::move(payload)) {}

std::uint8_t Packet::consume_route_byte() {
    if (route_exhausted()) throw std::logic_error("lanai::wire: packet route already exhausted");
    return route_[route_head_++];
}

void Packet::corrupt_byte(std::size_t offset, std::uint8_t mask) {
    if (offset < payload_.size()) {
        payload_[offset] ^= mask;
        return;
    }
    const std::size_t t = offset - payload_.size();
    if (t >= trailer_bytes) throw std::out_of_range("lanai::wire: corrupt_byte past the trailer");
    trailer_ ^= static_cast<std::uint32_t>(mask) << (8 * t);
}

}  // namespace lanai::wire
