// The kernel's slot storage: elements found by index across chunk
// boundaries, value-initialised, and never moved as the array grows (a
// running event's slot must stay put while its callback schedules more).
#include "emulator/kernel/stable_chunks.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

TEST_CASE("elements keep their place and their index as the array grows") {
  lanai::kernel::StableChunks<std::uint64_t, 2> a; // chunks of four
  std::vector<std::uint64_t*> where;
  for (std::uint64_t i = 0; i < 37; ++i) {
    std::uint64_t& e = a.emplace_back();
    CHECK(e == 0u); // value-initialised
    e = i * 7 + 1;
    where.push_back(&e);
    CHECK(a.size() == i + 1);
  }
  const auto& view = a;
  for (std::size_t i = 0; i < where.size(); ++i) {
    CAPTURE(i);
    CHECK(&a[i] == where[i]);
    CHECK(view[i] == i * 7 + 1);
  }
}
