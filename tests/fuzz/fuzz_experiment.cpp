// Fuzzing the experiment-file reader: any text is an experiment or one
// error naming the file and key. Relative paths in it resolve against an
// empty folder of its own.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "bench/sweep/experiment_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path base = [] {
    auto dir = std::filesystem::temp_directory_path() / "lanai-emu-fuzz-experiment";
    std::filesystem::create_directories(dir);
    return dir;
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)lanai::bench::parse_experiment(text, base / "fuzz.toml", base);
  } catch (const lanai::bench::ExperimentError&) {
  }
  return 0;
}
