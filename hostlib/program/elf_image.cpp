// Reading a program's ELF image: is it an executable this machine can load
// as a shared object, and where are its functions. Only the headers the
// dynamic linker itself reads are touched; every offset is bounds-checked,
// so a damaged file is refused, never read past.
#include <cstring>
#include <vector>
#include <elf.h>

#include <fmt/format.h>

#include "hostlib/program/program_copies.hpp"

namespace lanai::vipl {

namespace {

#if defined(__x86_64__)
constexpr Elf64_Half kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr Elf64_Half kMachine = EM_AARCH64;
#else
#error "lanai-emu launch knows the ELF machine of x86-64 and AArch64 hosts only"
#endif

// A T at `offset` of `image`, or nullptr if it does not fit.
template <class T>
const T* at(const std::string& image, std::uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T))
    return nullptr;
  return reinterpret_cast<const T*>(image.data() + offset);
}

const Elf64_Ehdr& header(const std::string& image, const std::string& name) {
  const auto* elf = at<Elf64_Ehdr>(image, 0);
  if (!elf || std::memcmp(elf->e_ident, ELFMAG, SELFMAG) != 0)
    throw ProgramError(fmt::format("{} is not an executable (no ELF header)", name));
  if (elf->e_ident[EI_CLASS] != ELFCLASS64 || elf->e_ident[EI_DATA] != ELFDATA2LSB ||
      elf->e_machine != kMachine)
    throw ProgramError(fmt::format("{} is not built for this machine", name));
  if (elf->e_type == ET_EXEC)
    throw ProgramError(fmt::format(
        "{} is not position-independent, so it cannot be loaded once per node: build it with "
        "$(pkg-config --cflags --libs lanai-emu-vipl), which makes it so",
        name));
  if (elf->e_type != ET_DYN)
    throw ProgramError(fmt::format("{} is an ELF file but not an executable", name));
  if (elf->e_phentsize != sizeof(Elf64_Phdr) ||
      (elf->e_shentsize != 0 && elf->e_shentsize != sizeof(Elf64_Shdr)))
    throw ProgramError(fmt::format("{}: malformed ELF header", name));
  return *elf;
}

// The file offset of virtual address `address`, or 0 if no loaded segment
// holds it.
std::uint64_t file_offset(const std::string& image, const Elf64_Ehdr& elf, std::uint64_t address) {
  for (Elf64_Half i = 0; i < elf.e_phnum; ++i) {
    const auto* segment =
        at<Elf64_Phdr>(image, elf.e_phoff + std::uint64_t{i} * sizeof(Elf64_Phdr));
    if (segment && segment->p_type == PT_LOAD && address >= segment->p_vaddr &&
        address - segment->p_vaddr < segment->p_filesz)
      return segment->p_offset + (address - segment->p_vaddr);
  }
  return 0;
}

#if defined(__x86_64__)
constexpr std::uint32_t kCopyRelocation = R_X86_64_COPY;
#else
constexpr std::uint32_t kCopyRelocation = R_AARCH64_COPY;
#endif

// A program compiled without -fPIC keeps its own copy of C library data it
// uses (optarg, optind, environ: copy relocations). Loaded as a shared
// object, such a copy no longer is the one the C library writes, so getopt
// and friends would silently break: refuse instead.
void refuse_copied_data(const std::string& image, const Elf64_Ehdr& elf,
                        const std::vector<const Elf64_Dyn*>& dynamic, const std::string& name) {
  std::uint64_t table = 0, size = 0;
  for (const Elf64_Dyn* entry : dynamic) {
    if (entry->d_tag == DT_RELA)
      table = entry->d_un.d_ptr;
    if (entry->d_tag == DT_RELASZ)
      size = entry->d_un.d_val;
  }
  if (table == 0 || size == 0)
    return;
  const std::uint64_t offset = file_offset(image, elf, table);
  for (std::uint64_t k = 0; k < size / sizeof(Elf64_Rela); ++k) {
    const auto* relocation = at<Elf64_Rela>(image, offset + k * sizeof(Elf64_Rela));
    if (!relocation)
      throw ProgramError(fmt::format("{}: truncated relocations", name));
    if (ELF64_R_TYPE(relocation->r_info) == kCopyRelocation)
      throw ProgramError(fmt::format(
          "{} was compiled without -fPIC: it keeps private copies of C library variables "
          "(optarg, optind, environ...) that would go stale once it is loaded per node; compile "
          "it with $(pkg-config --cflags lanai-emu-vipl), which adds -fPIC",
          name));
  }
}

} // namespace

std::string loadable_image(std::string image, const std::string& name) {
  const Elf64_Ehdr elf = header(image, name);
  for (Elf64_Half i = 0; i < elf.e_phnum; ++i) {
    const auto* segment =
        at<Elf64_Phdr>(image, elf.e_phoff + std::uint64_t{i} * sizeof(Elf64_Phdr));
    if (!segment)
      throw ProgramError(fmt::format("{}: truncated program headers", name));
    if (segment->p_type != PT_DYNAMIC)
      continue;
    std::vector<const Elf64_Dyn*> entries;
    for (std::uint64_t entry = 0; entry < segment->p_filesz / sizeof(Elf64_Dyn); ++entry) {
      const std::uint64_t offset = segment->p_offset + entry * sizeof(Elf64_Dyn);
      if (!at<Elf64_Dyn>(image, offset))
        throw ProgramError(fmt::format("{}: truncated dynamic section", name));
      auto* dynamic = reinterpret_cast<Elf64_Dyn*>(image.data() + offset);
      if (dynamic->d_tag == DT_NULL)
        break;
      // The one mark that tells the dynamic linker "executable, do not load".
      if (dynamic->d_tag == DT_FLAGS_1)
        dynamic->d_un.d_val &= ~Elf64_Xword{DF_1_PIE};
      entries.push_back(dynamic);
    }
    refuse_copied_data(image, elf, entries, name);
    return image;
  }
  throw ProgramError(fmt::format(
      "{} is statically linked; build it with $(pkg-config --cflags --libs lanai-emu-vipl)", name));
}

std::size_t function_offset(const std::string& image, const std::string& symbol) {
  const auto* elf = at<Elf64_Ehdr>(image, 0);
  if (!elf || elf->e_shentsize != sizeof(Elf64_Shdr))
    return 0;
  for (Elf64_Half i = 0; i < elf->e_shnum; ++i) {
    const auto* section =
        at<Elf64_Shdr>(image, elf->e_shoff + std::uint64_t{i} * sizeof(Elf64_Shdr));
    if (!section || section->sh_type != SHT_SYMTAB || section->sh_entsize != sizeof(Elf64_Sym))
      continue;
    const auto* strings =
        at<Elf64_Shdr>(image, elf->e_shoff + std::uint64_t{section->sh_link} * sizeof(Elf64_Shdr));
    if (!strings || section->sh_link >= elf->e_shnum)
      return 0;
    for (std::uint64_t k = 0; k < section->sh_size / sizeof(Elf64_Sym); ++k) {
      const auto* sym = at<Elf64_Sym>(image, section->sh_offset + k * sizeof(Elf64_Sym));
      if (!sym)
        return 0;
      if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF ||
          ELF64_ST_BIND(sym->st_info) == STB_LOCAL || sym->st_name >= strings->sh_size)
        continue;
      const std::uint64_t name_at = strings->sh_offset + sym->st_name;
      if (name_at >= image.size())
        continue;
      const std::size_t room = image.size() - name_at;
      const char* name = image.data() + name_at;
      if (::strnlen(name, room) == room)
        continue;
      if (symbol == name)
        return sym->st_value;
    }
  }
  return 0;
}

} // namespace lanai::vipl
