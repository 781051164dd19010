// Links relocatable Lanai ELF objects into one image for the NIC's SRAM.
// No linker supports Lanai, so the emulator places sections and applies
// relocations itself, the way a minimal static linker would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/loader/object_input.hpp"

namespace lanai::loader {

struct LinkOptions {
  std::uint32_t base = 0;                  // address of the first byte of the image in SRAM
  std::uint32_t sram_bytes = 1u << 21;     // SRAM size; image + stack reserve must fit
  std::uint32_t stack_reserve = 16 * 1024; // bytes kept free below the top of SRAM for the stack
};

// A function's extent, kept so that fault reports can name code addresses.
struct FunctionSymbol {
  std::string name;
  std::uint32_t size = 0; // 0 when the object did not record one
};

struct LinkedImage {
  std::uint32_t base = 0;
  std::vector<std::uint8_t> bytes;            // image contents from `base` (bss included as zeros)
  std::uint32_t entry = 0;                    // address of symbol `_start`
  std::uint32_t text_begin = 0, text_end = 0; // executable sections come first, contiguously
  std::uint32_t bss_begin = 0, bss_end = 0;
  std::uint32_t image_end = 0; // first byte after the image
  std::uint32_t stack_top = 0; // == sram_bytes (stack grows down from here)
  // Every global/weak defined symbol plus the linker-defined ones.
  std::map<std::string, std::uint32_t, std::less<>> symbols;
  // Start address -> function (global and local), for symbol_at.
  std::map<std::uint32_t, FunctionSymbol> functions;

  // The parts of `bytes` an SRAM of zeros still needs, by address, in
  // order: all but the runs of zeros of at least `min_gap` bytes (the bss,
  // the buffers and rings placed in .ldata).
  struct Piece {
    std::uint32_t address = 0;
    std::span<const std::uint8_t> bytes;
  };
  std::vector<Piece> nonzero_pieces(std::size_t min_gap = 4096) const;
  // The image without its bytes (layout and symbols), for a loaded image's
  // owner that only looks up symbols.
  LinkedImage layout_only() const;

  std::optional<std::uint32_t> find_symbol(std::string_view name) const;
  // The function containing `addr`, as "name" or "name+0x10".
  std::optional<std::string> symbol_at(std::uint32_t addr) const;
};

// Throws LoadError on malformed input, unresolved or duplicate symbols,
// relocation overflow and images that do not fit in SRAM.
LinkedImage link(std::span<const ObjectInput> objects, const LinkOptions& options);

} // namespace lanai::loader
