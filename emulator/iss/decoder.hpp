// Decoding of 32-bit Lanai instruction words into Instruction records.
// The accepted encodings are those of LLVM's Lanai backend; everything else
// decodes to OpClass::invalid, which the CPU reports as an undefined
// instruction.
#pragma once

#include "emulator/iss/instruction.hpp"

namespace lanai::iss {

Instruction decode(std::uint32_t word);

} // namespace lanai::iss
