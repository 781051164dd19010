// ELF header and section header parsing. Every field taken from the file is
// checked against the file size in 64-bit arithmetic before it is used.

#include "emulator/loader/elf_object.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/elf_format.hpp"

namespace lanai::loader {

using detail::fail;
using detail::printable;

bool ElfSection::alloc() const { return (flags & elf::shf_alloc) != 0; }
bool ElfSection::executable() const { return (flags & elf::shf_execinstr) != 0; }
bool ElfSection::writable() const { return (flags & elf::shf_write) != 0; }
bool ElfSection::nobits() const { return type == elf::sht_nobits; }

bool ElfSymbol::local() const { return binding == elf::stb_local; }
bool ElfSymbol::weak() const { return binding == elf::stb_weak; }
bool ElfSymbol::undefined() const { return shndx == elf::shn_undef; }
bool ElfSymbol::common() const { return shndx == elf::shn_common; }
bool ElfSymbol::absolute() const { return shndx == elf::shn_abs; }
bool ElfSymbol::in_section() const { return shndx != elf::shn_undef && shndx < elf::shn_loreserve; }

ElfObject ElfObject::parse(const ObjectInput& input) {
  ElfObject object;
  object.name_ = input.name;
  object.bytes_ = input.data;
  object.read_header();
  object.read_section_headers();
  object.read_section_names();
  object.check_section_ranges();
  object.read_symbols();
  object.read_groups();
  object.read_relocations();
  return object;
}

std::span<const std::uint8_t> ElfObject::contents(std::uint32_t section) const {
  const ElfSection& s = sections_.at(section);
  if (s.nobits() || s.type == elf::sht_null)
    return {};
  return bytes_.subspan(s.offset, s.size);
}

void ElfObject::read_header() {
  const auto b = bytes_;
  if (b.size() < 4 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') {
    fail(name_, "not an ELF file");
  }
  if (b.size() < elf::header_size)
    fail(name_, "truncated (ELF header)");
  // An object built for another machine (the host compiler's, say) is named
  // as such before its class or byte order is: e_machine sits at the same
  // place in every ELF header, in the byte order the header declares.
  const std::uint16_t machine_be = elf::read16(b, 18);
  const std::uint16_t machine_le = static_cast<std::uint16_t>(b[18] | b[19] << 8);
  if (machine_be != elf::em_lanai && machine_le != elf::em_lanai) {
    fail(name_, "not a Lanai object (e_machine {})",
         b[5] == elf::elfdata2msb ? machine_be : machine_le);
  }
  if (b[4] != elf::elfclass32)
    fail(name_, "not a 32-bit ELF file (class {})", b[4]);
  if (b[5] != elf::elfdata2msb) {
    fail(name_, "not a big-endian ELF file (data encoding {})", b[5]);
  }
  if (b[6] != elf::ev_current)
    fail(name_, "unsupported ELF version {}", b[6]);

  const std::uint16_t type = elf::read16(b, 16);
  if (type != elf::et_rel)
    fail(name_, "not a relocatable object (e_type {})", type);
  const std::uint16_t machine = elf::read16(b, 18);
  if (machine != elf::em_lanai)
    fail(name_, "not a Lanai object (e_machine {})", machine);

  shoff_ = elf::read32(b, 32);
  const std::uint16_t shentsize = elf::read16(b, 46);
  shnum_ = elf::read16(b, 48);
  shstrndx_ = elf::read16(b, 50);
  if (shentsize != elf::section_header_size) {
    fail(name_, "bad section header size {} (expected {})", shentsize, elf::section_header_size);
  }
  // Extended numbering (more than 0xff00 sections) never occurs in firmware.
  if (shnum_ == 0)
    fail(name_, "no section headers");
  if (shstrndx_ == elf::shn_undef || shstrndx_ >= shnum_) {
    fail(name_, "bad section name table index {}", shstrndx_);
  }
  if (shoff_ % 4 != 0)
    fail(name_, "misaligned section header table (offset {:#x})", shoff_);
  if (shoff_ < elf::header_size) {
    fail(name_, "section header table overlaps the ELF header (offset {:#x})", shoff_);
  }
  if (!elf::range_fits(shoff_, std::uint64_t{shnum_} * elf::section_header_size, b.size())) {
    fail(name_, "truncated (section header table past end of file)");
  }
}

void ElfObject::read_section_headers() {
  sections_.resize(shnum_);
  for (std::uint32_t i = 0; i < shnum_; ++i) {
    const std::uint64_t at = shoff_ + std::uint64_t{i} * elf::section_header_size;
    ElfSection& s = sections_[i];
    s.type = elf::read32(bytes_, at + 4);
    s.flags = elf::read32(bytes_, at + 8);
    s.offset = elf::read32(bytes_, at + 16);
    s.size = elf::read32(bytes_, at + 20);
    s.link = elf::read32(bytes_, at + 24);
    s.info = elf::read32(bytes_, at + 28);
    const std::uint32_t align = elf::read32(bytes_, at + 32);
    s.entsize = elf::read32(bytes_, at + 36);
    if (align > 1 && !elf::is_power_of_two(align)) {
      fail(name_, "section [{}] has bad alignment {}", i, align);
    }
    s.align = align == 0 ? 1 : align;
    if (s.type != elf::sht_null && !s.nobits() &&
        !elf::range_fits(s.offset, s.size, bytes_.size())) {
      fail(name_, "truncated (section [{}] contents past end of file)", i);
    }
  }
  const ElfSection& names = sections_[shstrndx_];
  if (names.type != elf::sht_strtab) {
    fail(name_, "section name table [{}] is not a string table", shstrndx_);
  }
}

void ElfObject::read_section_names() {
  const ElfSection& table = sections_[shstrndx_];
  for (std::uint32_t i = 0; i < shnum_; ++i) {
    const std::uint32_t at =
        elf::read32(bytes_, shoff_ + std::uint64_t{i} * elf::section_header_size);
    if (i == 0 && at == 0)
      continue;
    const auto text = string_at(table, at);
    if (!text)
      fail(name_, "section [{}] has bad name offset {:#x}", i, at);
    sections_[i].name = *text;
  }
}

// Tables may not overlap each other or the headers; overlapping contents
// mean a corrupt or hostile file even where reading would still be safe.
void ElfObject::check_section_ranges() {
  struct Extent {
    std::uint64_t begin, end;
    std::string what;
  };
  std::vector<Extent> extents;
  extents.push_back({0, elf::header_size, "the ELF header"});
  extents.push_back({shoff_, shoff_ + std::uint64_t{shnum_} * elf::section_header_size,
                     "the section header table"});
  for (std::uint32_t i = 1; i < shnum_; ++i) {
    const ElfSection& s = sections_[i];
    if (s.type == elf::sht_null || s.nobits() || s.size == 0)
      continue;
    extents.push_back({s.offset, std::uint64_t{s.offset} + s.size, section_label(i)});
  }
  std::sort(extents.begin(), extents.end(),
            [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < extents.size(); ++i) {
    if (extents[i].begin < extents[i - 1].end) {
      fail(name_, "{} overlaps {} in the file", extents[i].what, extents[i - 1].what);
    }
  }
}

std::optional<std::string_view> ElfObject::string_at(const ElfSection& table,
                                                     std::uint32_t offset) const {
  // The table's extent was checked against the file; the string must start
  // and end (with its NUL) inside the table.
  if (offset >= table.size)
    return std::nullopt;
  const auto text = bytes_.subspan(table.offset, table.size);
  const auto begin = text.begin() + offset;
  const auto nul = std::find(begin, text.end(), std::uint8_t{0});
  if (nul == text.end())
    return std::nullopt;
  return std::string_view{reinterpret_cast<const char*>(text.data() + offset),
                          static_cast<std::size_t>(nul - begin)};
}

std::string ElfObject::section_label(std::uint32_t index) const {
  if (index < sections_.size() && !sections_[index].name.empty()) {
    return printable(sections_[index].name);
  }
  return fmt::format("section [{}]", index);
}

std::string ElfObject::location(std::uint32_t section, std::uint32_t offset) const {
  return fmt::format("{}+{:#x}", section_label(section), offset);
}

std::string ElfObject::symbol_label(std::uint32_t symbol) const {
  if (symbol >= symbols_.size())
    return fmt::format("symbol #{}", symbol);
  const ElfSymbol& s = symbols_[symbol];
  if (!s.name.empty())
    return printable(s.name);
  if (s.in_section() && s.shndx < sections_.size())
    return section_label(s.shndx);
  return fmt::format("symbol #{}", symbol);
}

} // namespace lanai::loader
