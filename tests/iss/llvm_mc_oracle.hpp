// llvm-mc as a disassembly oracle: feeds instruction words to
// `llvm-mc --disassemble -triple=lanai` and returns its text per word, or
// nothing for words it calls invalid. LLVM 14 crashes on a few encodings,
// so batches that crash are split until the culprit is isolated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanai::test {

struct OracleAnswer {
  bool crashed = false;            // llvm-mc died on this word alone
  std::optional<std::string> text; // nullopt: invalid encoding
};

std::vector<OracleAnswer> ask_llvm_mc(const std::string& llvm_mc,
                                      const std::vector<std::uint32_t>& words);

} // namespace lanai::test
