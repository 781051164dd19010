// Drives a link: parse every object, drop duplicate COMDAT groups, resolve
// globals, lay sections out, copy contents, then apply relocations.

#include "emulator/loader/firmware_linker.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/elf_format.hpp"
#include "emulator/loader/elf_object.hpp"
#include "emulator/loader/relocator.hpp"
#include "emulator/loader/section_layout.hpp"
#include "emulator/loader/symbol_resolver.hpp"

namespace lanai::loader {
namespace {

using detail::fail;
using detail::printable;

// Firmware objects are small; a cap keeps a wrong path from reading gigabytes.
constexpr std::uintmax_t max_object_bytes = 256u << 20;

constexpr std::array<std::string_view, 9> linker_symbols{
    "__text_start", "__text_end",         "__bss_start",      "__bss_end",  "__image_end",
    "__stack_top",  "__init_array_start", "__init_array_end", "__sram_size"};

// C++ inline functions and templates come in COMDAT groups; only the first
// group with a given signature is kept, later copies are dropped whole.
std::vector<std::vector<bool>> select_sections(std::span<const ElfObject> objects) {
  std::vector<std::vector<bool>> kept(objects.size());
  std::set<std::string_view> signatures;
  for (std::size_t o = 0; o < objects.size(); ++o) {
    kept[o].assign(objects[o].sections().size(), true);
    for (const ElfGroup& group : objects[o].groups()) {
      if (!group.comdat)
        continue;
      if (signatures.insert(group.signature).second)
        continue;
      for (const std::uint32_t member : group.members)
        kept[o][member] = false;
    }
  }
  return kept;
}

std::uint32_t definition_address(std::span<const ElfObject> objects, const Layout& layout,
                                 const GlobalSymbol& g) {
  const ElfSymbol& s = objects[g.object].symbols()[g.symbol];
  if (s.absolute())
    return s.value;
  // The resolver only records definitions in kept allocated sections.
  return layout.addresses[g.object][s.shndx].value_or(0) + s.value;
}

void collect_functions(std::span<const ElfObject> objects, const Layout& layout,
                       const std::vector<std::vector<bool>>& kept, LinkedImage& image) {
  // Globals go first so that they name an address shared with a local alias.
  for (const bool globals : {true, false}) {
    for (std::size_t o = 0; o < objects.size(); ++o) {
      for (const ElfSymbol& s : objects[o].symbols()) {
        if (s.type != elf::stt_func || !s.in_section() || s.local() == globals)
          continue;
        if (!kept[o][s.shndx] || !layout.addresses[o][s.shndx])
          continue;
        if (!globals || image.find_symbol(s.name) == *layout.addresses[o][s.shndx] + s.value) {
          image.functions.emplace(*layout.addresses[o][s.shndx] + s.value,
                                  FunctionSymbol{std::string(s.name), s.size});
        }
      }
    }
  }
}

} // namespace

ObjectInput read_object_file(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error)
    throw LoadError(fmt::format("{}: cannot read file ({})", path.string(), error.message()));
  if (size > max_object_bytes) {
    throw LoadError(fmt::format("{}: file too large ({} bytes)", path.string(), size));
  }
  std::ifstream in(path, std::ios::binary);
  ObjectInput input{path.string(), std::vector<std::uint8_t>(static_cast<std::size_t>(size))};
  if (!in || !in.read(reinterpret_cast<char*>(input.data.data()),
                      static_cast<std::streamsize>(input.data.size()))) {
    throw LoadError(fmt::format("{}: cannot read file", path.string()));
  }
  return input;
}

std::optional<std::uint32_t> LinkedImage::find_symbol(std::string_view name) const {
  const auto it = symbols.find(name);
  if (it == symbols.end())
    return std::nullopt;
  return it->second;
}

std::optional<std::string> LinkedImage::symbol_at(std::uint32_t addr) const {
  auto it = functions.upper_bound(addr);
  if (it == functions.begin())
    return std::nullopt;
  --it;
  const std::uint32_t offset = addr - it->first;
  // Without a recorded size the function is assumed to run to the end of code.
  const bool inside = it->second.size != 0 ? offset < it->second.size : addr < text_end;
  if (!inside)
    return std::nullopt;
  if (offset == 0)
    return it->second.name;
  return fmt::format("{}+{:#x}", it->second.name, offset);
}

namespace {

// The first non-zero byte at or after `at` (or the end), eight at a time.
std::size_t end_of_zeros(std::span<const std::uint8_t> bytes, std::size_t at) {
  while (at < bytes.size() && at % 8 != 0 && bytes[at] == 0)
    ++at;
  for (std::uint64_t word = 0; at + 8 <= bytes.size(); at += 8) {
    std::memcpy(&word, bytes.data() + at, 8);
    if (word != 0)
      break;
  }
  while (at < bytes.size() && bytes[at] == 0)
    ++at;
  return at;
}

} // namespace

std::vector<LinkedImage::Piece> LinkedImage::nonzero_pieces(std::size_t min_gap) const {
  min_gap = std::max<std::size_t>(min_gap, 1);
  std::vector<Piece> pieces;
  const std::span<const std::uint8_t> all(bytes);
  std::size_t from = 0; // start of the piece being grown
  std::size_t at = 0;
  while (at < all.size()) {
    if (all[at] != 0) {
      ++at;
      continue;
    }
    const std::size_t zeros_end = end_of_zeros(all, at);
    if (zeros_end - at >= min_gap) {
      if (at > from)
        pieces.push_back({base + static_cast<std::uint32_t>(from), all.subspan(from, at - from)});
      from = zeros_end;
    }
    at = zeros_end;
  }
  if (all.size() > from)
    pieces.push_back({base + static_cast<std::uint32_t>(from), all.subspan(from)});
  return pieces;
}

LinkedImage LinkedImage::layout_only() const {
  LinkedImage image;
  image.base = base;
  image.entry = entry;
  image.text_begin = text_begin;
  image.text_end = text_end;
  image.bss_begin = bss_begin;
  image.bss_end = bss_end;
  image.image_end = image_end;
  image.stack_top = stack_top;
  image.symbols = symbols;
  image.functions = functions;
  return image;
}

LinkedImage link(std::span<const ObjectInput> inputs, const LinkOptions& options) {
  std::vector<ElfObject> objects;
  objects.reserve(inputs.size());
  for (const ObjectInput& input : inputs)
    objects.push_back(ElfObject::parse(input));

  const auto kept = select_sections(objects);
  SymbolResolver resolver;
  for (std::size_t o = 0; o < objects.size(); ++o)
    resolver.add(o, objects[o], kept[o]);
  for (const std::string_view reserved : linker_symbols) {
    const GlobalSymbol* g = resolver.find(reserved);
    if (g != nullptr && g->defined()) {
      fail(objects[g->object].name(), "symbol '{}' is reserved for the linker", reserved);
    }
  }

  const std::vector<CommonBlock> commons = resolver.common_blocks();
  const Layout layout = plan_layout(objects, kept, commons, options);

  LinkedImage image;
  image.base = options.base;
  image.bytes.assign(layout.image_end - options.base, 0);
  for (std::size_t o = 0; o < objects.size(); ++o) {
    for (std::uint32_t i = 1; i < objects[o].sections().size(); ++i) {
      const auto address = layout.addresses[o][i];
      if (!address || objects[o].sections()[i].nobits())
        continue;
      const auto contents = objects[o].contents(i);
      std::copy(contents.begin(), contents.end(),
                image.bytes.begin() + static_cast<std::ptrdiff_t>(*address - options.base));
    }
  }

  for (const auto& [name, g] : resolver.globals()) {
    if (g.state == GlobalSymbol::State::weak || g.state == GlobalSymbol::State::strong) {
      image.symbols.emplace(name, definition_address(objects, layout, g));
    }
  }
  for (std::size_t k = 0; k < commons.size(); ++k) {
    image.symbols.emplace(std::string(commons[k].name), layout.common_addresses[k]);
  }
  image.text_begin = layout.text_begin;
  image.text_end = layout.text_end;
  image.bss_begin = layout.bss_begin;
  image.bss_end = layout.bss_end;
  image.image_end = layout.image_end;
  image.stack_top = options.sram_bytes;
  image.symbols["__text_start"] = layout.text_begin;
  image.symbols["__text_end"] = layout.text_end;
  image.symbols["__bss_start"] = layout.bss_begin;
  image.symbols["__bss_end"] = layout.bss_end;
  image.symbols["__image_end"] = layout.image_end;
  image.symbols["__stack_top"] = options.sram_bytes;
  image.symbols["__init_array_start"] = layout.init_array_begin;
  image.symbols["__init_array_end"] = layout.init_array_end;
  image.symbols["__sram_size"] = options.sram_bytes;
  for (const TableRange& table : layout.tables) {
    image.symbols["__start_" + table.name] = table.begin;
    image.symbols["__stop_" + table.name] = table.end;
  }

  apply_relocations(objects, kept, layout, image);

  const auto entry = image.find_symbol("_start");
  if (!entry)
    throw LoadError("undefined entry symbol _start");
  image.entry = *entry;
  collect_functions(objects, layout, kept, image);
  return image;
}

} // namespace lanai::loader
