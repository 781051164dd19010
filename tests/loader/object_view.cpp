// Independent of the loader's parser on purpose: the tests check the loader
// against a second reading of the same bytes.

#include "tests/loader/object_view.hpp"

#include <cstring>
#include <stdexcept>

namespace lanai::loader::test {

std::uint16_t get16(const std::vector<std::uint8_t>& b, std::size_t at) {
  return static_cast<std::uint16_t>((b.at(at) << 8) | b.at(at + 1));
}

std::uint32_t get32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b.at(at)} << 24) | (std::uint32_t{b.at(at + 1)} << 16) |
         (std::uint32_t{b.at(at + 2)} << 8) | b.at(at + 3);
}

void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) {
  b.at(at) = static_cast<std::uint8_t>(v >> 8);
  b.at(at + 1) = static_cast<std::uint8_t>(v);
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  put16(b, at, static_cast<std::uint16_t>(v >> 16));
  put16(b, at + 2, static_cast<std::uint16_t>(v));
}

namespace {

std::string c_string(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::string out;
  while (b.at(at) != 0)
    out.push_back(static_cast<char>(b.at(at++)));
  return out;
}

} // namespace

ObjectView::ObjectView(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {
  const std::uint32_t shoff = get32(bytes, 32);
  const std::uint16_t shnum = get16(bytes, 48);
  const std::uint16_t shstrndx = get16(bytes, 50);
  for (std::uint32_t i = 0; i < shnum; ++i) {
    const std::size_t at = shoff + i * 40u;
    ViewSection s;
    s.header_at = at;
    s.type = get32(bytes, at + 4);
    s.flags = get32(bytes, at + 8);
    s.offset = get32(bytes, at + 16);
    s.size = get32(bytes, at + 20);
    s.link = get32(bytes, at + 24);
    s.info = get32(bytes, at + 28);
    s.align = get32(bytes, at + 32);
    sections_.push_back(s);
  }
  for (std::uint32_t i = 0; i < shnum; ++i) {
    sections_[i].name =
        c_string(bytes, sections_[shstrndx].offset + get32(bytes, sections_[i].header_at));
  }
  for (const ViewSection& table : sections_) {
    if (table.type != 2)
      continue; // SHT_SYMTAB
    const ViewSection& strings = sections_.at(table.link);
    for (std::uint32_t at = table.offset; at < table.offset + table.size; at += 16) {
      ViewSymbol s;
      s.entry_at = at;
      s.name = c_string(bytes, strings.offset + get32(bytes, at));
      s.value = get32(bytes, at + 4);
      s.size = get32(bytes, at + 8);
      s.info = bytes.at(at + 12);
      s.shndx = get16(bytes, at + 14);
      symbols_.push_back(s);
    }
  }
}

std::optional<std::uint32_t> ObjectView::section_index(std::string_view name) const {
  for (std::uint32_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i].name == name)
      return i;
  }
  return std::nullopt;
}

std::optional<std::uint32_t> ObjectView::symbol_index(std::string_view name) const {
  for (std::uint32_t i = 0; i < symbols_.size(); ++i) {
    if (symbols_[i].name == name)
      return i;
  }
  return std::nullopt;
}

std::vector<ViewRela> ObjectView::relocations_for(std::uint32_t target) const {
  std::vector<ViewRela> out;
  for (const ViewSection& s : sections_) {
    if (s.type != 4 || s.info != target)
      continue; // SHT_RELA
    for (std::uint32_t at = s.offset; at < s.offset + s.size; at += 12) {
      ViewRela r;
      r.entry_at = at;
      r.offset = get32(bytes_, at);
      const std::uint32_t info = get32(bytes_, at + 4);
      r.symbol = info >> 8;
      r.type = info & 0xff;
      r.addend = static_cast<std::int32_t>(get32(bytes_, at + 8));
      out.push_back(r);
    }
  }
  return out;
}

std::uint32_t ObjectView::word_at(std::uint32_t section, std::uint32_t offset) const {
  return get32(bytes_, sections_.at(section).offset + offset);
}

} // namespace lanai::loader::test
