// The subset of the ELF32 format that relocatable Lanai objects use:
// constants, record sizes, and bounds-checked big-endian field reads.
#pragma once

#include <cstdint>
#include <span>

namespace lanai::loader::elf {

inline constexpr std::uint16_t em_lanai = 244;
inline constexpr std::uint16_t et_rel = 1;
inline constexpr std::uint8_t elfclass32 = 1;
inline constexpr std::uint8_t elfdata2msb = 2;
inline constexpr std::uint8_t ev_current = 1;

inline constexpr std::uint32_t header_size = 52;
inline constexpr std::uint32_t section_header_size = 40;
inline constexpr std::uint32_t symbol_size = 16;
inline constexpr std::uint32_t rela_size = 12;
inline constexpr std::uint32_t rel_size = 8;

// Section types.
inline constexpr std::uint32_t sht_null = 0;
inline constexpr std::uint32_t sht_progbits = 1;
inline constexpr std::uint32_t sht_symtab = 2;
inline constexpr std::uint32_t sht_strtab = 3;
inline constexpr std::uint32_t sht_rela = 4;
inline constexpr std::uint32_t sht_nobits = 8;
inline constexpr std::uint32_t sht_rel = 9;
inline constexpr std::uint32_t sht_init_array = 14;
inline constexpr std::uint32_t sht_group = 17;
inline constexpr std::uint32_t sht_symtab_shndx = 18;

// Section flags.
inline constexpr std::uint32_t shf_write = 0x1;
inline constexpr std::uint32_t shf_alloc = 0x2;
inline constexpr std::uint32_t shf_execinstr = 0x4;

inline constexpr std::uint32_t grp_comdat = 0x1;

// Special section indices.
inline constexpr std::uint16_t shn_undef = 0;
inline constexpr std::uint16_t shn_loreserve = 0xff00;
inline constexpr std::uint16_t shn_abs = 0xfff1;
inline constexpr std::uint16_t shn_common = 0xfff2;
inline constexpr std::uint16_t shn_xindex = 0xffff;

// Symbol bindings and types.
inline constexpr std::uint8_t stb_local = 0;
inline constexpr std::uint8_t stb_global = 1;
inline constexpr std::uint8_t stb_weak = 2;
inline constexpr std::uint8_t stb_gnu_unique = 10;
inline constexpr std::uint8_t stt_notype = 0;
inline constexpr std::uint8_t stt_object = 1;
inline constexpr std::uint8_t stt_func = 2;
inline constexpr std::uint8_t stt_section = 3;
inline constexpr std::uint8_t stt_file = 4;

// True when [offset, offset + length) lies inside a buffer of `size` bytes.
// Works in 64 bits so that 32-bit fields from the file cannot wrap around.
constexpr bool range_fits(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  return offset <= size && length <= size - offset;
}

constexpr bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Big-endian reads; callers check the range first, and an unchecked read
// yields zero rather than touching memory outside the span.
inline std::uint8_t read8(std::span<const std::uint8_t> b, std::uint64_t off) {
  return range_fits(off, 1, b.size()) ? b[off] : 0;
}

inline std::uint16_t read16(std::span<const std::uint8_t> b, std::uint64_t off) {
  if (!range_fits(off, 2, b.size()))
    return 0;
  return static_cast<std::uint16_t>((b[off] << 8) | b[off + 1]);
}

inline std::uint32_t read32(std::span<const std::uint8_t> b, std::uint64_t off) {
  if (!range_fits(off, 4, b.size()))
    return 0;
  return (std::uint32_t{b[off]} << 24) | (std::uint32_t{b[off + 1]} << 16) |
         (std::uint32_t{b[off + 2]} << 8) | std::uint32_t{b[off + 3]};
}

inline void write32(std::span<std::uint8_t> b, std::uint64_t off, std::uint32_t v) {
  if (!range_fits(off, 4, b.size()))
    return;
  b[off] = static_cast<std::uint8_t>(v >> 24);
  b[off + 1] = static_cast<std::uint8_t>(v >> 16);
  b[off + 2] = static_cast<std::uint8_t>(v >> 8);
  b[off + 3] = static_cast<std::uint8_t>(v);
}

} // namespace lanai::loader::elf
