// Resolution of global symbols across objects: a strong definition beats weak
// ones and common blocks, common blocks merge, two strong definitions clash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/loader/elf_object.hpp"

namespace lanai::loader {

struct GlobalSymbol {
  enum class State { undefined, weak, strong, common };
  State state = State::undefined;
  std::size_t object = 0;   // defining object (for common: the first one seen)
  std::uint32_t symbol = 0; // index in that object's symbol table (not for common)
  std::uint32_t common_size = 0;
  std::uint32_t common_align = 1;

  bool defined() const { return state != State::undefined; }
};

// A common symbol that the linker allocates in .bss.
struct CommonBlock {
  std::string_view name;
  std::uint32_t size = 0;
  std::uint32_t align = 1;
};

class SymbolResolver {
public:
  // `kept[i]` is false for sections dropped as duplicate COMDAT copies;
  // symbols defined there count as references to the surviving copy.
  void add(std::size_t object_index, const ElfObject& object, const std::vector<bool>& kept);

  const GlobalSymbol* find(std::string_view name) const;
  const std::map<std::string, GlobalSymbol, std::less<>>& globals() const { return globals_; }
  // Common blocks that no real definition replaced, in first-seen order.
  std::vector<CommonBlock> common_blocks() const;

private:
  GlobalSymbol& entry(std::string_view name);
  void define(const ElfObject& object, std::size_t object_index, std::uint32_t index,
              const ElfSymbol& symbol);
  void add_common(std::size_t object_index, const ElfSymbol& symbol);

  std::map<std::string, GlobalSymbol, std::less<>> globals_;
  std::vector<std::string_view> first_seen_; // keys of globals_, stable in a std::map
  std::vector<std::string> object_names_;
};

} // namespace lanai::loader
