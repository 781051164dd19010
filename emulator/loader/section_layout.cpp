// Layout is computed in 64-bit arithmetic: sizes and alignments come from the
// files, and only a layout that fits below the SRAM size is narrowed to 32 bits.

#include "emulator/loader/section_layout.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "emulator/loader/elf_format.hpp"

namespace lanai::loader {
namespace {

enum class Region { none, text, rodata, data, init_array, tables, bss, large_data };

bool is_init_array(const ElfSection& s) {
  return s.type == elf::sht_init_array || s.name == ".init_array" ||
         s.name.starts_with(".init_array.");
}

Region region_of(const ElfSection& s) {
  if (!s.alloc())
    return Region::none;
  if (s.executable())
    return Region::text;
  // The compiler addresses every other object with a signed 21-bit absolute
  // address under the small code model; objects in .ldata* it reaches with a
  // full 32-bit address, so they go last, above everything else (zero-filled
  // or not: the image holds their bytes, and start-up code leaves them).
  if (s.name.starts_with(".ldata"))
    return Region::large_data;
  if (s.nobits())
    return Region::bss;
  if (is_init_array(s))
    return Region::init_array;
  if (is_table_section(s.name))
    return Region::tables;
  return s.writable() ? Region::data : Region::rodata;
}

std::uint64_t align_up(std::uint64_t value, std::uint64_t align) {
  return (value + align - 1) & ~(align - 1);
}

} // namespace

bool is_table_section(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::uint32_t init_array_priority(std::string_view section_name) {
  constexpr std::string_view prefix = ".init_array.";
  if (!section_name.starts_with(prefix))
    return 65535;
  const std::string_view digits = section_name.substr(prefix.size());
  std::uint32_t priority = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), priority);
  if (error != std::errc{} || end != digits.data() + digits.size() || priority > 65535) {
    return 65535;
  }
  return priority;
}

Layout plan_layout(std::span<const ElfObject> objects, const std::vector<std::vector<bool>>& kept,
                   std::span<const CommonBlock> commons, const LinkOptions& options) {
  struct Placement {
    std::size_t object;
    std::uint32_t section;
    std::uint64_t address;
  };
  std::vector<Placement> placements;
  struct Table {
    std::string name;
    std::uint64_t begin, end;
  };
  std::vector<Table> tables;
  std::uint64_t cursor = options.base;

  auto place_region = [&](Region region) {
    std::vector<std::pair<std::size_t, std::uint32_t>> members;
    for (std::size_t o = 0; o < objects.size(); ++o) {
      const auto& sections = objects[o].sections();
      for (std::uint32_t i = 1; i < sections.size(); ++i) {
        if (kept[o][i] && region_of(sections[i]) == region)
          members.emplace_back(o, i);
      }
    }
    if (region == Region::tables) {
      // Each table's sections together, tables in the order first seen.
      std::vector<std::string_view> names;
      for (const auto& [o, i] : members) {
        const std::string_view name = objects[o].sections()[i].name;
        if (std::find(names.begin(), names.end(), name) == names.end())
          names.push_back(name);
      }
      auto rank = [&](const auto& m) {
        const std::string_view name = objects[m.first].sections()[m.second].name;
        return std::find(names.begin(), names.end(), name) - names.begin();
      };
      std::stable_sort(members.begin(), members.end(),
                       [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    }
    if (region == Region::init_array) {
      // Constructors run by priority; equal priorities keep object order.
      auto priority = [&](const auto& m) {
        return init_array_priority(objects[m.first].sections()[m.second].name);
      };
      std::stable_sort(members.begin(), members.end(),
                       [&](const auto& a, const auto& b) { return priority(a) < priority(b); });
    }
    for (const auto& [o, i] : members) {
      const ElfSection& s = objects[o].sections()[i];
      cursor = align_up(cursor, s.align);
      if (region == Region::tables && (tables.empty() || tables.back().name != s.name))
        tables.push_back({std::string(s.name), cursor, cursor});
      placements.push_back({o, i, cursor});
      cursor += s.size;
      if (region == Region::tables)
        tables.back().end = cursor;
    }
  };

  const std::uint64_t text_begin = cursor;
  place_region(Region::text);
  const std::uint64_t text_end = cursor;
  place_region(Region::rodata);
  place_region(Region::data);
  // Pointer-aligned even when empty, so that the start/end symbols are usable.
  cursor = align_up(cursor, 4);
  const std::uint64_t init_begin = cursor;
  place_region(Region::init_array);
  const std::uint64_t init_end = cursor;
  // Sections named like C identifiers (firmware tables such as the counter
  // registry) after the init array, each name's together; nothing moves
  // when there are none.
  place_region(Region::tables);
  // Startup code clears bss a word at a time, so both of its ends are
  // word-aligned; the padding is zero like the rest of bss.
  cursor = align_up(cursor, 4);
  const std::uint64_t bss_begin = cursor;
  place_region(Region::bss);
  std::vector<std::uint64_t> common_addresses;
  for (const CommonBlock& block : commons) {
    cursor = align_up(cursor, block.align);
    common_addresses.push_back(cursor);
    cursor += block.size;
  }
  cursor = align_up(cursor, 4);
  const std::uint64_t bss_end = cursor;
  place_region(Region::large_data);
  cursor = align_up(cursor, 4);
  const std::uint64_t image_end = cursor;

  if (image_end + options.stack_reserve > options.sram_bytes) {
    const std::uint64_t size = image_end - options.base;
    const std::string where = options.base == 0 ? "" : fmt::format(" at {:#x}", options.base);
    throw LoadError(
        fmt::format("image ({} bytes{}) plus stack reserve ({}) overflows SRAM ({} bytes)", size,
                    where, options.stack_reserve, options.sram_bytes));
  }

  // Everything now lies below sram_bytes, so every address fits in 32 bits.
  auto narrow = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  Layout layout;
  layout.addresses.resize(objects.size());
  for (std::size_t o = 0; o < objects.size(); ++o) {
    layout.addresses[o].resize(objects[o].sections().size());
  }
  for (const Placement& p : placements)
    layout.addresses[p.object][p.section] = narrow(p.address);
  for (const std::uint64_t a : common_addresses)
    layout.common_addresses.push_back(narrow(a));
  layout.text_begin = narrow(text_begin);
  layout.text_end = narrow(text_end);
  layout.init_array_begin = narrow(init_begin);
  layout.init_array_end = narrow(init_end);
  for (const Table& t : tables)
    layout.tables.push_back({t.name, narrow(t.begin), narrow(t.end)});
  layout.bss_begin = narrow(bss_begin);
  layout.bss_end = narrow(bss_end);
  layout.image_end = narrow(image_end);
  return layout;
}

} // namespace lanai::loader
