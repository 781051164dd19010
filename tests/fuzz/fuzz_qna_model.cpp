// Fuzzing the QNA model reader and solver: any text is a model or one
// InputError; a model that reads is solved or refused with one error, never
// a crash.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_solver.hpp"
#include "emulator/text/table_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  lanai::models::QnaNetwork network;
  try {
    network = lanai::models::parse_qna_model(text, "fuzz.toml");
  } catch (const lanai::text::InputError&) {
    return 0;
  }
  try {
    (void)lanai::models::solve_qna(network);
  } catch (const lanai::models::QnaError&) {
  }
  return 0;
}
