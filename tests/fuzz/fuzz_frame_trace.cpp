// Fuzzing the frame-size trace reader: any text is a list of positive
// frame sizes or one error naming the trace.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "bench/workloads/mpeg_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const std::uint32_t frame : lanai::bench::parse_frame_trace(text, "fuzz.trace"))
      if (frame == 0)
        __builtin_trap();
  } catch (const std::runtime_error& e) {
    if (std::string_view(e.what()).rfind("fuzz.trace", 0) != 0)
      __builtin_trap();
  }
  return 0;
}
