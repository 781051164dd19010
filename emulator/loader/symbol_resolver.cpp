// Follows the usual static-linker rules so that firmware built for a GNU-style
// toolchain (weak default handlers, -fcommon globals, C++ inline functions) links.

#include "emulator/loader/symbol_resolver.hpp"

#include <algorithm>

#include "emulator/loader/diagnostics.hpp"

namespace lanai::loader {

using detail::fail;
using detail::printable;

GlobalSymbol& SymbolResolver::entry(std::string_view name) {
  auto it = globals_.find(name);
  if (it == globals_.end()) {
    it = globals_.emplace(std::string(name), GlobalSymbol{}).first;
    first_seen_.push_back(it->first);
  }
  return it->second;
}

const GlobalSymbol* SymbolResolver::find(std::string_view name) const {
  const auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : &it->second;
}

void SymbolResolver::add(std::size_t object_index, const ElfObject& object,
                         const std::vector<bool>& kept) {
  if (object_names_.size() <= object_index)
    object_names_.resize(object_index + 1);
  object_names_[object_index] = object.name();

  const auto& symbols = object.symbols();
  for (std::uint32_t i = 1; i < symbols.size(); ++i) {
    const ElfSymbol& s = symbols[i];
    if (s.local())
      continue;
    if (s.common()) {
      add_common(object_index, s);
    } else if (s.absolute() || (s.in_section() && kept[s.shndx])) {
      define(object, object_index, i, s);
    } else {
      entry(s.name); // a reference, or a discarded COMDAT copy
    }
  }
}

void SymbolResolver::define(const ElfObject& object, std::size_t object_index, std::uint32_t index,
                            const ElfSymbol& symbol) {
  if (symbol.in_section() && !object.sections()[symbol.shndx].alloc()) {
    fail(object.name(), "global symbol '{}' is defined in non-allocated section {}",
         printable(symbol.name), printable(object.sections()[symbol.shndx].name));
  }
  GlobalSymbol& g = entry(symbol.name);
  const bool weak = symbol.weak();
  switch (g.state) {
  case GlobalSymbol::State::strong:
    if (!weak) {
      fail(object.name(), "duplicate symbol '{}' (first defined in {})", printable(symbol.name),
           printable(object_names_[g.object]));
    }
    return; // a weak definition never replaces a strong one
  case GlobalSymbol::State::weak:
    if (weak)
      return; // the first weak definition stays
    break;
  case GlobalSymbol::State::common:
    if (weak)
      return; // as in GNU ld, a common block beats a weak definition
    break;
  case GlobalSymbol::State::undefined:
    break;
  }
  g.state = weak ? GlobalSymbol::State::weak : GlobalSymbol::State::strong;
  g.object = object_index;
  g.symbol = index;
}

void SymbolResolver::add_common(std::size_t object_index, const ElfSymbol& symbol) {
  GlobalSymbol& g = entry(symbol.name);
  switch (g.state) {
  case GlobalSymbol::State::strong:
    return; // a real definition absorbs tentative ones
  case GlobalSymbol::State::common:
    g.common_size = std::max(g.common_size, symbol.size);
    g.common_align = std::max(g.common_align, symbol.value);
    return;
  case GlobalSymbol::State::weak:
  case GlobalSymbol::State::undefined:
    g.state = GlobalSymbol::State::common;
    g.object = object_index;
    g.symbol = 0;
    g.common_size = symbol.size;
    g.common_align = symbol.value; // alignment, validated as a power of two
    return;
  }
}

std::vector<CommonBlock> SymbolResolver::common_blocks() const {
  std::vector<CommonBlock> blocks;
  for (const std::string_view name : first_seen_) {
    const GlobalSymbol& g = globals_.find(name)->second;
    if (g.state == GlobalSymbol::State::common) {
      blocks.push_back({name, g.common_size, g.common_align});
    }
  }
  return blocks;
}

} // namespace lanai::loader
