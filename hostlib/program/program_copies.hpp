// A program loaded once per node, each copy with its own globals and
// statics: the executable is read, marked loadable as a shared object, and
// loaded from a private in-memory file per copy, so that the dynamic linker
// maps each copy's data anew. Its shared libraries (the VIPL, the C
// library) are loaded once and shared by all copies.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "hostlib/launch/launch_abi.h"

namespace lanai::vipl {

// Why a program cannot be loaded, in words for its author.
class ProgramError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class ProgramCopies {
public:
  // Loads `copies` copies of `program`. Throws ProgramError if it is not a
  // position-independent executable (or shared object) for this machine,
  // has neither main nor via_main, is not linked with the VIPL shared
  // library, or fails to load.
  ProgramCopies(const std::filesystem::path& program, std::size_t copies);
  // The copies stay loaded until the process ends: their atexit handlers
  // and C library state may refer to them.
  ~ProgramCopies() = default;
  ProgramCopies(const ProgramCopies&) = delete;
  ProgramCopies& operator=(const ProgramCopies&) = delete;

  const std::vector<lanai_vipl_node_program>& programs() const { return programs_; }
  // The launch entry of the VIPL the copies are linked with.
  lanai_vipl_launch_fn launcher() const { return launcher_; }

private:
  std::vector<lanai_vipl_node_program> programs_;
  lanai_vipl_launch_fn launcher_ = nullptr;
};

// The executable's bytes made loadable as a shared object (the dynamic
// linker refuses to load a position-independent executable otherwise);
// throws ProgramError if `image` is no such file for this machine.
std::string loadable_image(std::string image, const std::string& name);

// The offset of the defined function `symbol` in an ELF image's symbol
// table (.symtab), or 0 if it has none.
std::size_t function_offset(const std::string& image, const std::string& symbol);

} // namespace lanai::vipl
