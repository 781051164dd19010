// Relocation values are S + A computed modulo 2^32, as the hardware would;
// the per-type range checks catch values that do not fit their field.

#include "emulator/loader/relocator.hpp"

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/elf_format.hpp"
#include "emulator/loader/relocation.hpp"

namespace lanai::loader {
namespace {

using detail::fail;
using detail::printable;

struct SiteContext {
  const ElfObject& object;
  std::size_t object_index;
  const std::vector<bool>& kept;
  const Layout& layout;
  const LinkedImage& image;
};

// The address a relocation's symbol stands for (S).
std::uint32_t symbol_address(const SiteContext& ctx, const ElfRelocation& r,
                             const std::string& where) {
  if (r.symbol == 0)
    return 0;
  const ElfSymbol& s = ctx.object.symbols()[r.symbol];
  if (!s.local()) {
    if (const auto address = ctx.image.find_symbol(s.name))
      return *address;
    // Only a weak reference may stay undefined; it then reads as address 0.
    if (s.weak())
      return 0;
    fail(ctx.object.name(), "undefined symbol {} referenced from {}", detail::quoted_symbol(s.name),
         where);
  }
  if (s.absolute())
    return s.value;
  if (!s.in_section()) {
    fail(ctx.object.name(), "relocation at {} refers to undefined local symbol '{}'", where,
         ctx.object.symbol_label(r.symbol));
  }
  const std::string section = printable(ctx.object.sections()[s.shndx].name);
  if (!ctx.kept[s.shndx]) {
    fail(ctx.object.name(), "relocation at {} refers to '{}' in discarded section {}", where,
         ctx.object.symbol_label(r.symbol), section);
  }
  const auto base = ctx.layout.addresses[ctx.object_index][s.shndx];
  if (!base) {
    fail(ctx.object.name(), "relocation at {} refers to '{}' in non-allocated section {}", where,
         ctx.object.symbol_label(r.symbol), section);
  }
  return *base + s.value;
}

void apply_one(const SiteContext& ctx, std::uint32_t target, std::uint32_t target_address,
               const ElfRelocation& r, LinkedImage& image) {
  const std::string where = ctx.object.location(target, r.offset);
  const std::uint32_t value = symbol_address(ctx, r, where) + static_cast<std::uint32_t>(r.addend);
  // The parser checked offset + 4 <= section size, and the section lies in the image.
  const std::uint64_t at = std::uint64_t{target_address} - image.base + r.offset;
  const std::uint32_t word = elf::read32(image.bytes, at);
  const PatchResult result = patch_word(r.type, word, value);
  switch (result.status) {
  case PatchStatus::ok:
    elf::write32(image.bytes, at, result.word);
    return;
  case PatchStatus::out_of_range:
    fail(ctx.object.name(), "relocation {} at {} out of range for '{}' ({:#x})",
         relocation_name(r.type), where, ctx.object.symbol_label(r.symbol), value);
  case PatchStatus::misaligned:
    fail(ctx.object.name(), "relocation {} at {} needs a 4-byte aligned value for '{}' ({:#x})",
         relocation_name(r.type), where, ctx.object.symbol_label(r.symbol), value);
  case PatchStatus::unknown_type:
    fail(ctx.object.name(), "unknown relocation type {} at {}", r.type, where);
  }
}

} // namespace

void apply_relocations(std::span<const ElfObject> objects,
                       const std::vector<std::vector<bool>>& kept, const Layout& layout,
                       LinkedImage& image) {
  for (std::size_t o = 0; o < objects.size(); ++o) {
    const SiteContext ctx{objects[o], o, kept[o], layout, image};
    for (const ElfRelocationSection& section : objects[o].relocations()) {
      // Relocations of dropped COMDAT copies are dropped with them.
      if (!kept[o][section.target] || !kept[o][section.index])
        continue;
      const auto target_address = layout.addresses[o][section.target];
      if (!target_address)
        continue;
      for (const ElfRelocation& r : section.entries) {
        apply_one(ctx, section.target, *target_address, r, image);
      }
    }
  }
}

} // namespace lanai::loader
