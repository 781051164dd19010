// Text form of Lanai instructions, in the syntax LLVM's Lanai printer uses
// (what llvm-objdump prints), so emulator traces and fault reports read
// like the compiler's own listings.
#pragma once

#include <string>

#include "emulator/iss/instruction.hpp"

namespace lanai::iss {

// "add\t%r3, 0x10, %rv"; "<invalid>" for undefined words.
std::string disassemble(const Instruction& in);
std::string disassemble(std::uint32_t word);
// The same text with tabs as single spaces, for one-line reports and traces.
std::string disassemble_inline(std::uint32_t word);

} // namespace lanai::iss
