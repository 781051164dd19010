// A validated view of one relocatable Lanai ELF object. Parsing checks every
// offset, size and index up front, so later stages may index freely.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/loader/object_input.hpp"

namespace lanai::loader {

struct ElfSection {
  std::string_view name; // points into the object's bytes
  std::uint32_t type = 0;
  std::uint32_t flags = 0;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
  std::uint32_t align = 1; // a power of two; 0 in the file reads as 1
  std::uint32_t entsize = 0;

  bool alloc() const;
  bool executable() const;
  bool writable() const;
  bool nobits() const;
};

struct ElfSymbol {
  std::string_view name; // points into the object's bytes
  std::uint32_t value = 0;
  std::uint32_t size = 0;
  std::uint8_t binding = 0;
  std::uint8_t type = 0;
  std::uint16_t shndx = 0;

  bool local() const;
  bool weak() const;
  bool undefined() const;
  bool common() const;
  bool absolute() const;
  bool in_section() const; // defined relative to a real section
};

struct ElfRelocation {
  std::uint32_t offset = 0;
  std::uint32_t symbol = 0; // index into the symbol table, checked
  std::uint32_t type = 0;   // a known Lanai relocation type, checked
  std::int32_t addend = 0;
};

// Relocations for one allocated section; those for debug sections are not kept.
struct ElfRelocationSection {
  std::uint32_t index = 0;  // the SHT_RELA section itself
  std::uint32_t target = 0; // section the entries patch
  std::vector<ElfRelocation> entries;
};

struct ElfGroup {
  std::uint32_t index = 0;
  std::string_view signature;
  bool comdat = false;
  std::vector<std::uint32_t> members; // section indices, checked
};

class ElfObject {
public:
  // The input must outlive the object: names and contents are views into it.
  static ElfObject parse(const ObjectInput& input);

  const std::string& name() const { return name_; }
  const std::vector<ElfSection>& sections() const { return sections_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  const std::vector<ElfRelocationSection>& relocations() const { return relocations_; }
  const std::vector<ElfGroup>& groups() const { return groups_; }

  // File contents of a section that is not NOBITS.
  std::span<const std::uint8_t> contents(std::uint32_t section) const;
  // Symbol name for messages: section symbols are named after their section.
  std::string symbol_label(std::uint32_t symbol) const;
  // "<section>+0x<offset>" for messages.
  std::string location(std::uint32_t section, std::uint32_t offset) const;

private:
  void read_header();
  void read_section_headers();
  void read_section_names();
  void check_section_ranges();
  void read_symbols();
  void read_groups();
  void read_relocations();
  void read_relocation_section(std::uint32_t index);
  std::optional<std::string_view> string_at(const ElfSection& table, std::uint32_t offset) const;
  std::string section_label(std::uint32_t index) const;

  std::string name_;
  std::span<const std::uint8_t> bytes_;
  std::uint32_t shoff_ = 0;
  std::uint16_t shnum_ = 0;
  std::uint16_t shstrndx_ = 0;
  std::uint32_t symtab_index_ = 0; // 0 when the object has no symbol table
  std::vector<ElfSection> sections_;
  std::vector<ElfSymbol> symbols_;
  std::vector<ElfRelocationSection> relocations_;
  std::vector<ElfGroup> groups_;
};

} // namespace lanai::loader
