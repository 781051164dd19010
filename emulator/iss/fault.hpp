// Precise processor faults: what stopped the LANai, at which instruction and
// address, so a firmware author can find the bug from the report alone.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lanai::iss {

enum class FaultKind : std::uint8_t {
  bus_error,             // data access outside SRAM and the register window
  misaligned_access,     // data address not a multiple of the access width
  fetch_error,           // instruction fetch outside SRAM or from a misaligned pc
  undefined_instruction, // word that decodes to no Lanai instruction
  unmapped_register,     // access inside the register window where no register is
  register_width,        // part-word access to a device register
};

std::string_view fault_kind_name(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::bus_error;
  std::uint32_t pc = 0;      // address of the faulting instruction
  std::uint32_t address = 0; // data or fetch address involved
  std::uint32_t word = 0;    // the instruction word (0 if it could not be fetched)
  bool word_valid = false;
  std::uint32_t width = 0; // access width in bytes for data faults
  bool is_store = false;
};

// Multi-line report: kind, pc (with symbol if known), address, word and its
// disassembly.
std::string format_fault(const Fault& fault, std::string_view pc_symbol = {});

} // namespace lanai::iss
