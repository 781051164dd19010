// Zeroed arrays (a card's SRAM and predecode tables): zeros at the start,
// every element usable from the first to the last, whether the array comes
// from calloc or is mapped, and whatever its size against the page (under
// AddressSanitizer a mapped array ends at a guard page, with the rest of
// its first page poisoned, so a misplaced array shows here).
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

#include "emulator/iss/zeroed_array.hpp"

namespace {

struct Wide {
  std::uint64_t a;
  std::uint32_t b;
};

// Under AddressSanitizer, the bytes just outside a mapped array are
// poisoned, or are an inaccessible page's.
void check_guarded([[maybe_unused]] const unsigned char* array,
                   [[maybe_unused]] std::size_t bytes) {
#ifdef LANAI_ZEROED_ARRAYS_GUARDED
  if (bytes < lanai::iss::zeroed_map_bytes)
    return;
  const std::size_t page = lanai::iss::ZeroedDeleter::page_bytes();
  const auto at = [](const unsigned char* p) { return reinterpret_cast<std::uintptr_t>(p); };
  CHECK((at(array) % page == 0 || __asan_address_is_poisoned(array - 1)));
  CHECK((at(array + bytes) % page == 0 || __asan_address_is_poisoned(array + bytes)));
  CHECK((page - at(array + bytes) % page) % page < 8); // within 8 bytes of the guard page
  CHECK(__asan_region_is_poisoned(const_cast<unsigned char*>(array), bytes) == nullptr);
#endif
}

template <class T>
void check_zeroed(std::size_t count) {
  CAPTURE(count);
  CAPTURE(sizeof(T));
  auto array = lanai::iss::zeroed_array<T>(count);
  REQUIRE(array != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(array.get()) % alignof(T) == 0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(array.get());
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < count * sizeof(T); ++i)
    nonzero += bytes[i] != 0;
  CHECK(nonzero == 0);
  auto* writable = reinterpret_cast<unsigned char*>(array.get());
  for (std::size_t i = 0; i < count * sizeof(T); ++i)
    writable[i] = static_cast<unsigned char>(i * 7 + 1);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count * sizeof(T); ++i)
    wrong += bytes[i] != static_cast<unsigned char>(i * 7 + 1);
  CHECK(wrong == 0);
  check_guarded(bytes, count * sizeof(T));
}

} // namespace

TEST_CASE("zeroed arrays start as zeros and hold every element, calloc'ed or mapped") {
  const std::size_t threshold = lanai::iss::zeroed_map_bytes;
  for (const std::size_t bytes : {std::size_t{1}, threshold - 1, threshold, threshold + 1,
                                  threshold + 4096, threshold + 4095, std::size_t{1} << 21}) {
    check_zeroed<std::uint8_t>(bytes);
    check_zeroed<std::uint32_t>((bytes + 3) / 4);
    check_zeroed<Wide>((bytes + sizeof(Wide) - 1) / sizeof(Wide));
  }
}

TEST_CASE("a zeroed array of nothing is made and freed") {
  CHECK_NOTHROW(lanai::iss::zeroed_array<std::uint32_t>(0));
}
