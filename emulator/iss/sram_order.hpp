// SRAM holds the LANai's words big end first: reading and writing them, and
// their halves and bytes, from the host (little end first or not).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace lanai::iss {

inline std::uint32_t big_endian(std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::little)
    return __builtin_bswap32(v);
  return v;
}

inline std::uint32_t load_be32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return big_endian(v);
}

inline void store_be32(std::uint8_t* p, std::uint32_t v) {
  v = big_endian(v);
  std::memcpy(p, &v, 4);
}

// A load of `width` bytes (4, 2 or 1), extended to a word.
inline std::uint32_t read_part(const std::uint8_t* p, std::uint32_t width, bool zero_extend) {
  if (width == 4)
    return load_be32(p);
  if (width == 2) {
    const std::uint32_t h = std::uint32_t(p[0]) << 8 | p[1];
    return zero_extend ? h : static_cast<std::uint32_t>(static_cast<std::int16_t>(h));
  }
  return zero_extend ? p[0] : static_cast<std::uint32_t>(static_cast<std::int8_t>(p[0]));
}

// The `width` bytes at `p` as an unsigned number, big end first.
inline std::uint32_t read_before(const std::uint8_t* p, std::uint32_t width) {
  std::uint32_t before = 0;
  for (std::uint32_t i = 0; i < width; ++i)
    before = before << 8 | p[i];
  return before;
}

} // namespace lanai::iss
