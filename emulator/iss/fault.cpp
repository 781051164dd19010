// Human-readable fault reports.
#include "emulator/iss/fault.hpp"

#include <fmt/format.h>

#include "emulator/iss/disassembler.hpp"

namespace lanai::iss {

std::string_view fault_kind_name(FaultKind kind) {
  switch (kind) {
  case FaultKind::bus_error:
    return "bus error";
  case FaultKind::misaligned_access:
    return "misaligned access";
  case FaultKind::fetch_error:
    return "instruction fetch error";
  case FaultKind::undefined_instruction:
    return "undefined instruction";
  case FaultKind::unmapped_register:
    return "unmapped device register";
  case FaultKind::register_width:
    return "part-word device register access";
  }
  return "unknown fault";
}

std::string format_fault(const Fault& f, std::string_view pc_symbol) {
  std::string out = fmt::format("LANai fault: {}\n", fault_kind_name(f.kind));
  out += fmt::format("  pc:          0x{:08x}{}\n", f.pc,
                     pc_symbol.empty() ? std::string() : fmt::format(" <{}>", pc_symbol));
  if (f.kind != FaultKind::undefined_instruction)
    out += fmt::format("  address:     0x{:08x}{}\n", f.address,
                       f.width ? fmt::format(" ({} of {} byte{})", f.is_store ? "store" : "load",
                                             f.width, f.width == 1 ? "" : "s")
                               : std::string());
  if (f.word_valid) {
    out += fmt::format("  instruction: 0x{:08x}  {}\n", f.word, disassemble_inline(f.word));
  } else {
    out += "  instruction: (not fetchable)\n";
  }
  return out;
}

} // namespace lanai::iss
