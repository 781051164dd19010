// Loading the copies: each from its own in-memory file, which is what
// makes the dynamic linker treat them as distinct objects (it shares an
// object loaded twice from one file). Entry points are found in each
// copy's dynamic symbols, or failing that in its symbol table.
#include "hostlib/program/program_copies.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

namespace lanai::vipl {

namespace {

std::string read_program(const std::filesystem::path& program) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(program, error))
    throw ProgramError(fmt::format("{}: no such program", program.string()));
  std::ifstream in(program, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof())
    throw ProgramError(fmt::format("cannot read {}", program.string()));
  return image;
}

// An open descriptor, closed when it goes.
struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

// Loads one copy of `image` from a fresh in-memory file, left open in
// `files`: the dynamic linker knows an object by its path too, so no two
// copies may be loaded through the same /proc/self/fd/N.
void* load_copy(const std::string& image, const std::string& name, std::size_t node,
                std::vector<std::unique_ptr<Descriptor>>& files) {
  const std::string label =
      fmt::format("{}.node{}", std::filesystem::path(name).filename().string(), node);
  const int fd = ::memfd_create(label.c_str(), MFD_CLOEXEC);
  if (fd < 0)
    throw ProgramError(fmt::format("cannot load {}: {}", name, std::strerror(errno)));
  files.push_back(std::unique_ptr<Descriptor>(new Descriptor{fd}));
  std::size_t written = 0;
  while (written < image.size()) {
    const ssize_t n = ::write(fd, image.data() + written, image.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      throw ProgramError(fmt::format("cannot load {}: {}", name, std::strerror(errno)));
    }
    written += static_cast<std::size_t>(n);
  }
  void* handle = ::dlopen(fmt::format("/proc/self/fd/{}", fd).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    throw ProgramError(fmt::format("cannot load {}: {}", name, why ? why : "unknown error"));
  }
  return handle;
}

// The copy's own definition of `symbol` (not one of its libraries'), or
// nullptr.
void* own_function(void* handle, const std::string& image, const char* symbol) {
  link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
    return nullptr;
  if (void* exported = ::dlsym(handle, symbol)) {
    Dl_info where{};
    if (::dladdr(exported, &where) != 0 &&
        reinterpret_cast<ElfW(Addr)>(where.dli_fbase) == map->l_addr)
      return exported;
  }
  if (const std::size_t offset = function_offset(image, symbol); offset != 0)
    return reinterpret_cast<void*>(map->l_addr + offset);
  return nullptr;
}

} // namespace

ProgramCopies::ProgramCopies(const std::filesystem::path& program, std::size_t copies) {
  const std::string name = program.string();
  const std::string image = loadable_image(read_program(program), name);
  std::vector<std::unique_ptr<Descriptor>> files;
  for (std::size_t node = 0; node < copies; ++node) {
    void* handle = load_copy(image, name, node, files);
    lanai_vipl_node_program entry{};
    entry.main = reinterpret_cast<decltype(entry.main)>(own_function(handle, image, "main"));
    if (!entry.main)
      entry.via_main =
          reinterpret_cast<decltype(entry.via_main)>(own_function(handle, image, "via_main"));
    if (!entry.main && !entry.via_main)
      throw ProgramError(fmt::format(
          "{} has no main (nor via_main) the launcher can find: do not strip it, or link it with "
          "$(pkg-config --libs lanai-emu-vipl)",
          name));
    if (node == 0) {
      launcher_ = reinterpret_cast<lanai_vipl_launch_fn>(::dlsym(handle, LANAI_VIPL_LAUNCH_SYMBOL));
      if (!launcher_)
        throw ProgramError(
            fmt::format("{} is not linked with the VIPL shared library: build it with "
                        "$(pkg-config --cflags --libs lanai-emu-vipl)",
                        name));
    }
    programs_.push_back(entry);
  }
}

} // namespace lanai::vipl
