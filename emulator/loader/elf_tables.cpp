// Symbol, group and relocation tables of an ELF object. Only relocations
// that patch allocated sections are decoded; debug-info relocations are skipped.

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/elf_format.hpp"
#include "emulator/loader/elf_object.hpp"
#include "emulator/loader/relocation.hpp"

namespace lanai::loader {

using detail::fail;
using detail::printable;

void ElfObject::read_symbols() {
  for (std::uint32_t i = 1; i < shnum_; ++i) {
    if (sections_[i].type != elf::sht_symtab)
      continue;
    if (symtab_index_ != 0)
      fail(name_, "more than one symbol table");
    symtab_index_ = i;
  }
  if (symtab_index_ == 0)
    return;

  const ElfSection& table = sections_[symtab_index_];
  if (table.entsize != elf::symbol_size) {
    fail(name_, "symbol table entry size {} (expected {})", table.entsize, elf::symbol_size);
  }
  if (table.size % elf::symbol_size != 0) {
    fail(name_, "symbol table size {:#x} is not a multiple of {}", table.size, elf::symbol_size);
  }
  if (table.offset % 4 != 0)
    fail(name_, "misaligned symbol table (offset {:#x})", table.offset);
  if (table.link == 0 || table.link >= shnum_ || sections_[table.link].type != elf::sht_strtab) {
    fail(name_, "symbol table has bad string table index {}", table.link);
  }
  const ElfSection& strings = sections_[table.link];

  symbols_.resize(table.size / elf::symbol_size);
  // Entry 0 is the reserved null symbol; it stays a local undefined symbol.
  for (std::uint32_t i = 1; i < symbols_.size(); ++i) {
    const std::uint64_t at = table.offset + std::uint64_t{i} * elf::symbol_size;
    ElfSymbol& s = symbols_[i];
    const std::uint32_t name_offset = elf::read32(bytes_, at);
    s.value = elf::read32(bytes_, at + 4);
    s.size = elf::read32(bytes_, at + 8);
    const std::uint8_t info = elf::read8(bytes_, at + 12);
    s.shndx = elf::read16(bytes_, at + 14);
    s.binding = static_cast<std::uint8_t>(info >> 4);
    s.type = static_cast<std::uint8_t>(info & 0xf);

    const auto text = string_at(strings, name_offset);
    if (!text)
      fail(name_, "symbol #{} has bad name offset {:#x}", i, name_offset);
    s.name = *text;
    const std::string label = s.name.empty() ? fmt::format("#{}", i) : printable(s.name);

    if (s.binding != elf::stb_local && s.binding != elf::stb_global && s.binding != elf::stb_weak &&
        s.binding != elf::stb_gnu_unique) {
      fail(name_, "symbol '{}' has unknown binding {}", label, s.binding);
    }
    if (s.shndx == elf::shn_xindex) {
      fail(name_, "symbol '{}' uses an extended section index (not supported)", label);
    }
    if (s.shndx >= elf::shn_loreserve && !s.absolute() && !s.common()) {
      fail(name_, "symbol '{}' has bad section index {:#x}", label, s.shndx);
    }
    if (s.in_section()) {
      if (s.shndx >= shnum_ || sections_[s.shndx].type == elf::sht_null) {
        fail(name_, "symbol '{}' has bad section index {}", label, s.shndx);
      }
      const ElfSection& home = sections_[s.shndx];
      if (s.value > home.size) {
        fail(name_, "symbol '{}' value {:#x} lies outside section {} (size {:#x})", label, s.value,
             section_label(s.shndx), home.size);
      }
    }
    if (s.common()) {
      if (s.local())
        fail(name_, "local symbol '{}' is common", label);
      // For common symbols the value field holds the required alignment.
      if (s.value == 0)
        s.value = 1;
      if (!elf::is_power_of_two(s.value)) {
        fail(name_, "common symbol '{}' has bad alignment {}", label, s.value);
      }
    }
  }
}

void ElfObject::read_groups() {
  for (std::uint32_t i = 1; i < shnum_; ++i) {
    const ElfSection& s = sections_[i];
    if (s.type != elf::sht_group)
      continue;
    const std::string label = section_label(i);
    if (symtab_index_ == 0 || s.link != symtab_index_) {
      fail(name_, "group section {} does not use the symbol table", label);
    }
    if (s.offset % 4 != 0)
      fail(name_, "misaligned group section {}", label);
    if (s.size < 4 || s.size % 4 != 0) {
      fail(name_, "group section {} has bad size {:#x}", label, s.size);
    }
    if (s.info == 0 || s.info >= symbols_.size()) {
      fail(name_, "group section {} has bad signature symbol index {}", label, s.info);
    }
    ElfGroup group;
    group.index = i;
    const ElfSymbol& signature = symbols_[s.info];
    group.signature = signature.name;
    if (group.signature.empty() && signature.in_section()) {
      group.signature = sections_[signature.shndx].name;
    }
    group.comdat = (elf::read32(bytes_, s.offset) & elf::grp_comdat) != 0;
    for (std::uint64_t at = 4; at < s.size; at += 4) {
      const std::uint32_t member = elf::read32(bytes_, s.offset + at);
      if (member == 0 || member >= shnum_ || member == i) {
        fail(name_, "group section {} has bad member index {}", label, member);
      }
      group.members.push_back(member);
    }
    groups_.push_back(std::move(group));
  }
}

void ElfObject::read_relocations() {
  for (std::uint32_t i = 1; i < shnum_; ++i) {
    const ElfSection& s = sections_[i];
    if (s.type != elf::sht_rela && s.type != elf::sht_rel)
      continue;
    if (s.info == 0 || s.info >= shnum_) {
      fail(name_, "relocation section {} has bad target section index {}", section_label(i),
           s.info);
    }
    if (!sections_[s.info].alloc())
      continue;
    if (s.type == elf::sht_rel) {
      fail(name_, "REL relocations are not supported (section {})", section_label(i));
    }
    read_relocation_section(i);
  }
}

void ElfObject::read_relocation_section(std::uint32_t index) {
  const ElfSection& s = sections_[index];
  const ElfSection& target = sections_[s.info];
  const std::string label = section_label(index);
  if (target.nobits()) {
    fail(name_, "relocation section {} patches NOBITS section {}", label, section_label(s.info));
  }
  if (symtab_index_ == 0 || s.link != symtab_index_) {
    fail(name_, "relocation section {} does not use the symbol table", label);
  }
  if (s.entsize != elf::rela_size) {
    fail(name_, "relocation section {} has entry size {} (expected {})", label, s.entsize,
         elf::rela_size);
  }
  if (s.size % elf::rela_size != 0) {
    fail(name_, "relocation section {} size {:#x} is not a multiple of {}", label, s.size,
         elf::rela_size);
  }
  if (s.offset % 4 != 0)
    fail(name_, "misaligned relocation section {}", label);

  ElfRelocationSection out;
  out.index = index;
  out.target = s.info;
  out.entries.reserve(s.size / elf::rela_size);
  for (std::uint64_t at = s.offset; at < std::uint64_t{s.offset} + s.size; at += elf::rela_size) {
    ElfRelocation r;
    r.offset = elf::read32(bytes_, at);
    const std::uint32_t info = elf::read32(bytes_, at + 4);
    r.addend = static_cast<std::int32_t>(elf::read32(bytes_, at + 8));
    r.symbol = info >> 8;
    r.type = info & 0xff;
    if (!relocation_type_known(r.type)) {
      fail(name_, "unknown relocation type {} at {}", r.type, location(s.info, r.offset));
    }
    if (r.type == r_lanai_none)
      continue;
    if (r.symbol >= symbols_.size()) {
      fail(name_, "relocation at {} refers to symbol index {} out of range ({} symbols)",
           location(s.info, r.offset), r.symbol, symbols_.size());
    }
    if (!elf::range_fits(r.offset, 4, target.size)) {
      fail(name_, "relocation {} at offset {:#x} lies outside section {} (size {:#x})",
           relocation_name(r.type), r.offset, section_label(s.info), target.size);
    }
    out.entries.push_back(r);
  }
  relocations_.push_back(std::move(out));
}

} // namespace lanai::loader
