// Sanity checks of the differential corpus as compiled for the host, and of
// the constants start.S repeats from the register map. A case whose result
// ignores its input, or varies between runs, would compare equal on the
// LANai without proving anything.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <lanai/register_map.h>

#include "diff_cases.h"
#include "start_abi.h"
#include "test_values.h"

using namespace lanai_test;

namespace {

std::vector<std::array<uint64_t, 4>> sample_inputs() {
  std::vector<std::array<uint64_t, 4>> inputs = {
      {0u, 0u, 0u, 0u},
      {1u, 2u, 3u, 4u},
      {~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}},
      {0x8000000000000000u, 0x7FFFFFFFFFFFFFFFu, 0x80000000u, 0xFFFFFFFFu},
  };
  random_source rng(7);
  for (unsigned i = 0; i < 12; ++i)
    inputs.push_back({rng.next(), rng.next(), rng.next(), rng.next()});
  return inputs;
}

} // namespace

TEST_CASE("the corpus table is complete and fits the exchange buffers") {
  REQUIRE(diff_case_count >= 32u);
  REQUIRE(diff_case_count <= static_cast<uint32_t>(DIFF_MAX_CASES));
  std::set<std::string> names;
  for (uint32_t c = 0; c < diff_case_count; ++c) {
    REQUIRE(diff_cases[c].name != nullptr);
    REQUIRE(static_cast<bool>(diff_cases[c].fn));
    names.insert(diff_cases[c].name);
  }
  CHECK(names.size() == diff_case_count);
}

TEST_CASE("every corpus case is deterministic and depends on its input") {
  auto inputs = sample_inputs();
  for (uint32_t c = 0; c < diff_case_count; ++c) {
    const diff_case& dc = diff_cases[c];
    CAPTURE(dc.name);
    std::set<uint64_t> distinct;
    for (const auto& in : inputs) {
      uint64_t first = dc.fn(in.data());
      uint64_t second = dc.fn(in.data());
      CHECK(first == second);
      distinct.insert(first);
    }
    CHECK(distinct.size() > 1u);
  }
}

TEST_CASE("start.S writes main's result to the register map's exit register") {
  CHECK(static_cast<uint32_t>(LANAI_RT_MMIO_BASE) == LANAI_MMIO_BASE);
  CHECK(static_cast<uint32_t>(LANAI_RT_MMIO_BASE + LANAI_RT_EXIT_OFFSET) == LANAI_REG_EXIT);
}
