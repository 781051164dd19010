// Placement of allocated sections in SRAM: code first, then read-only data,
// writable data (with the init array and each table section kept
// contiguous), then zero-filled data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/loader/elf_object.hpp"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/loader/symbol_resolver.hpp"

namespace lanai::loader {

// Section i of object o lives at addresses[o][i] when it is placed.
using SectionAddresses = std::vector<std::vector<std::optional<std::uint32_t>>>;

// The extent of the sections named `name` (a table section, see
// is_table_section), bracketed by __start_<name> and __stop_<name>.
struct TableRange {
  std::string name;
  std::uint32_t begin = 0, end = 0;
};

struct Layout {
  std::uint32_t text_begin = 0, text_end = 0;
  std::uint32_t init_array_begin = 0, init_array_end = 0;
  std::uint32_t bss_begin = 0, bss_end = 0;
  std::uint32_t image_end = 0;
  std::vector<TableRange> tables; // in address order
  SectionAddresses addresses;
  std::vector<std::uint32_t> common_addresses; // parallel to the common blocks
};

// `kept[o][i]` is false for sections dropped as duplicate COMDAT copies.
// Throws LoadError when the image plus the stack reserve does not fit in SRAM.
Layout plan_layout(std::span<const ElfObject> objects, const std::vector<std::vector<bool>>& kept,
                   std::span<const CommonBlock> commons, const LinkOptions& options);

// A section named like a C identifier ("lanai_counters"): as ELF linkers
// do, its pieces from every object are placed together and the loader
// defines __start_<name> and __stop_<name> around them.
bool is_table_section(std::string_view name);

// Priority of an init array section: ".init_array.101" runs before
// ".init_array", which counts as the lowest priority (65535).
std::uint32_t init_array_priority(std::string_view section_name);

} // namespace lanai::loader
