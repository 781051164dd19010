// Fuzzing the firmware loader: the input is one to three relocatable
// objects linked together (its first byte says how many; each but the last
// follows a two-byte big-endian length, the last takes the rest). Any input
// links or fails with one LoadError; a linked image fits the SRAM.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "emulator/loader/firmware_linker.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lanai::loader;
  if (size == 0)
    return 0;
  const std::size_t count = 1 + data[0] % 3;
  std::vector<ObjectInput> objects;
  std::size_t at = 1;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t length = size - at;
    if (i + 1 < count) {
      if (size - at < 2)
        return 0;
      length = std::min<std::size_t>(std::size_t{data[at]} << 8 | data[at + 1], size - at - 2);
      at += 2;
    }
    objects.push_back({"fuzz" + std::to_string(i) + ".o",
                       std::vector<std::uint8_t>(data + at, data + at + length)});
    at += length;
  }
  LinkOptions options;
  try {
    const LinkedImage image = link(objects, options);
    if (image.image_end > options.sram_bytes - options.stack_reserve)
      __builtin_trap();
    if (image.bytes.size() != image.image_end - image.base)
      __builtin_trap();
  } catch (const LoadError&) {
  }
  return 0;
}
