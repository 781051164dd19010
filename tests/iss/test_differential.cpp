// Differential execution: the corpus of C and C++ functions runs natively
// and on the emulated LANai (compiled by clang --target=lanai at -O0, -O1,
// -O2, -O3 and -Os, linked by the emulator's loader with the firmware
// runtime); every result must agree bit for bit.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "diff_cases.h"
#include "emulator/kernel/random_stream.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace {

std::vector<std::array<std::uint64_t, 4>> make_inputs() {
  const std::uint64_t edges[] = {0,
                                 1,
                                 2,
                                 3,
                                 7,
                                 0xFFFFFFFFFFFFFFFFull,
                                 0x8000000000000000ull,
                                 0x7FFFFFFFFFFFFFFFull,
                                 0x00000000FFFFFFFFull,
                                 0x0000000100000000ull,
                                 0x0000000080000000ull,
                                 0xFFFFFFFF80000000ull,
                                 63,
                                 64,
                                 31,
                                 32};
  std::vector<std::array<std::uint64_t, 4>> inputs;
  lanai::kernel::RandomStream rng(20261121, "differential-inputs");
  for (std::size_t i = 0; i < DIFF_MAX_INPUTS; ++i) {
    std::array<std::uint64_t, 4> in{};
    for (std::size_t k = 0; k < 4; ++k) {
      const std::uint64_t pick = rng.next_u64();
      if (i < 16)
        in[k] = edges[(i + 5 * k) % 16];
      else if (pick % 4 == 0)
        in[k] = edges[pick % 16 ^ (k & 1)] ^ (rng.next_u64() & 0xFF);
      else if (pick % 4 == 1)
        in[k] = rng.next_u64() & 0xFFFF;
      else
        in[k] = rng.next_u64();
    }
    inputs.push_back(in);
  }
  return inputs;
}

void check_level(const char* level) {
  const auto profile = lanai::profile::default_profile();
  const auto objects =
      lanai::machine::objects_in_manifest(std::string(LANAI_DIFF_DIR) + "/diff_lanai_" + level);
  REQUIRE(!objects.empty());
  const auto image = lanai::machine::link_program(objects, profile);
  lanai::machine::StandaloneMachine m(profile, image);
  const auto inputs = make_inputs();
  const std::uint32_t in_addr = m.symbol("diff_inputs");
  const std::uint32_t out_addr = m.symbol("diff_outputs");
  m.cpu().write_word(m.symbol("diff_input_count"), static_cast<std::uint32_t>(inputs.size()));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t k = 0; k < 4; ++k)
      m.write_u64(in_addr + static_cast<std::uint32_t>((i * 4 + k) * 8), inputs[i][k]);
  const auto result = m.run(2'000'000'000ull);
  INFO(result.fault_report);
  INFO("stopped in " << image.symbol_at(m.cpu().pc()).value_or("?"));
  INFO("cycles " << result.cycles << " instructions " << result.instructions);
  REQUIRE(result.stop == lanai::machine::ExecStop::exited);
  REQUIRE(result.exit_code == static_cast<std::int32_t>(diff_case_count));
  REQUIRE(diff_case_count >= 30);
  std::size_t mismatches = 0;
  for (std::uint32_t c = 0; c < diff_case_count; ++c) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const std::uint64_t native = diff_cases[c].fn(inputs[i].data());
      const std::uint64_t lanai =
          m.read_u64(out_addr + static_cast<std::uint32_t>((c * DIFF_MAX_INPUTS + i) * 8));
      if (native != lanai && ++mismatches <= 20) {
        MESSAGE(diff_cases[c].name << " input " << i << ": native 0x" << std::hex << native
                                   << " lanai 0x" << lanai);
      }
    }
  }
  CHECK(mismatches == 0);
}

} // namespace

TEST_CASE("corpus compiled at -O0 runs identically on the LANai and natively") {
  check_level("O0");
}

TEST_CASE("corpus compiled at -O1 runs identically on the LANai and natively") {
  check_level("O1");
}

TEST_CASE("corpus compiled at -O2 runs identically on the LANai and natively") {
  check_level("O2");
}

TEST_CASE("corpus compiled at -O3 runs identically on the LANai and natively") {
  check_level("O3");
}

TEST_CASE("corpus compiled at -Os runs identically on the LANai and natively") {
  check_level("Os");
}
