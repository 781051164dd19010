// A deliberately simple reader of well-formed Lanai objects for the tests:
// finds sections, symbols and relocation entries, and patches bytes in copies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::loader::test {

std::uint16_t get16(const std::vector<std::uint8_t>& b, std::size_t at);
std::uint32_t get32(const std::vector<std::uint8_t>& b, std::size_t at);
void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v);
void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v);

struct ViewSection {
  std::string name;
  std::uint32_t type = 0, flags = 0, offset = 0, size = 0, link = 0, info = 0, align = 0;
  std::size_t header_at = 0; // file offset of the section header
};

struct ViewSymbol {
  std::string name;
  std::uint32_t value = 0, size = 0;
  std::uint8_t info = 0;
  std::uint16_t shndx = 0;
  std::size_t entry_at = 0; // file offset of the symbol table entry
};

struct ViewRela {
  std::uint32_t offset = 0, symbol = 0, type = 0;
  std::int32_t addend = 0;
  std::size_t entry_at = 0; // file offset of the Elf32_Rela entry
};

class ObjectView {
public:
  explicit ObjectView(const std::vector<std::uint8_t>& bytes);

  const std::vector<ViewSection>& sections() const { return sections_; }
  const std::vector<ViewSymbol>& symbols() const { return symbols_; }
  std::optional<std::uint32_t> section_index(std::string_view name) const;
  std::optional<std::uint32_t> symbol_index(std::string_view name) const;
  // Entries of the RELA section that patches section `target`.
  std::vector<ViewRela> relocations_for(std::uint32_t target) const;
  // The instruction or data word at `offset` in section `section`.
  std::uint32_t word_at(std::uint32_t section, std::uint32_t offset) const;

private:
  const std::vector<std::uint8_t>& bytes_;
  std::vector<ViewSection> sections_;
  std::vector<ViewSymbol> symbols_;
};

} // namespace lanai::loader::test
