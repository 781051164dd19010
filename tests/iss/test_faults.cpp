// Each kind of processor fault stops the LANai precisely: the faulting pc,
// the address, the instruction word and its disassembly are reported and
// no register or memory changed by the faulting instruction. A core is
// not made with an SRAM it cannot address.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include <lanai/register_map.h>

#include "emulator/iss/cpu.hpp"
#include "emulator/iss/fault.hpp"
#include "tests/iss/lanai_encoding.hpp"
#include "tests/iss/program_runner.hpp"

using namespace lanai::test;
using lanai::iss::FaultKind;
using lanai::iss::StopReason;

namespace {

ProgramRun run_faulting(const std::vector<std::uint32_t>& words) {
  ProgramRun p(words);
  p.cpu->set_reg(r6, 0x1000);
  p.run();
  return p;
}

} // namespace

TEST_CASE("bus error: data access outside SRAM and the register window") {
  auto p =
      run_faulting({ri(add, r3, r0, 1), sli(r7, 0x100000), rm(false, r9, r7, 2, 0), exit_with(r3)});
  REQUIRE(p.stop == StopReason::fault);
  const auto& f = p.cpu->fault();
  CHECK(f.kind == FaultKind::bus_error);
  CHECK(f.pc == 8);
  CHECK(f.address == 0x100000u);
  CHECK(f.word == rm(false, r9, r7, 2, 0));
  CHECK(p.cpu->pc() == 8);
  CHECK(p.cpu->reg(r9) == 0);
  const std::string report = lanai::iss::format_fault(f, "main+0x8");
  CHECK(report.find("bus error") != std::string::npos);
  CHECK(report.find("0x00000008 <main+0x8>") != std::string::npos);
  CHECK(report.find("ld 0[%r7], %r9") != std::string::npos);
}

TEST_CASE("misaligned access: word load from an odd address, half-word store") {
  auto p = run_faulting({ri(add, r7, r0, 0x102), rm(false, r9, r7, 2, 0)});
  CHECK(p.cpu->fault().kind == FaultKind::misaligned_access);
  CHECK(p.cpu->fault().address == 0x102u);
  auto q = run_faulting({ri(add, r7, r0, 0x101), spls(true, false, false, r6, r7, 2, 0)});
  CHECK(q.cpu->fault().kind == FaultKind::misaligned_access);
  CHECK(q.cpu->fault().is_store);
  CHECK(q.cpu->read_word(0x100) == 0);
}

TEST_CASE("pre-increment that faults leaves the base register untouched") {
  auto p = run_faulting({sli(r7, 0x100000), rm(false, r9, r7, 3, 4)});
  CHECK(p.cpu->fault().kind == FaultKind::bus_error);
  CHECK(p.cpu->reg(r7) == 0x100000u);
}

TEST_CASE("fetch error: jumping outside SRAM or to a misaligned pc") {
  auto p = run_faulting({sli(r7, 0x10000 * 2), rr(add, pc, r7, r0), nop});
  CHECK(p.cpu->fault().kind == FaultKind::fetch_error);
  CHECK(p.cpu->fault().pc == 0x20000u);
  CHECK_FALSE(p.cpu->fault().word_valid);
  auto q = run_faulting({ri(add, r7, r0, 0x102), rr(add, pc, r7, r0), nop});
  CHECK(q.cpu->fault().kind == FaultKind::fetch_error);
  CHECK(q.cpu->fault().pc == 0x102u);
}

TEST_CASE("undefined instruction: reports the word and counts nothing for it") {
  const std::uint32_t bad = 0xC0000008u; // RR add with a non-zero J field
  auto p = run_faulting({ri(add, r3, r0, 1), bad});
  CHECK(p.cpu->fault().kind == FaultKind::undefined_instruction);
  CHECK(p.cpu->fault().pc == 4);
  CHECK(p.cpu->fault().word == bad);
  CHECK(p.cpu->instructions() == 1);
  CHECK(lanai::iss::format_fault(p.cpu->fault()).find("<invalid>") != std::string::npos);
}

TEST_CASE("unmapped device register and part-word register access") {
  auto p = run_faulting({sls(false, r9, 0x1F0100)});
  CHECK(p.cpu->fault().kind == FaultKind::unmapped_register);
  CHECK(p.cpu->fault().address == 0xFFFF0100u);
  auto q = run_faulting({sli(r7, 0x1F0000), ri(or_, r7, r7, 0xFFE0, false, true),
                         spls(false, true, true, r9, r7, 2, 0)});
  CHECK(q.cpu->fault().kind == FaultKind::register_width);
}

TEST_CASE("a faulted CPU stays stopped") {
  auto p = run_faulting({0xC0000008u});
  CHECK(p.cpu->run(1000000) == StopReason::fault);
  CHECK(p.cpu->instructions() == 0);
}

TEST_CASE("an SRAM size that is zero, not whole words or reaches the register window is refused") {
  const lanai::iss::CycleCosts costs{};
  for (const std::uint32_t bytes : {0u, 6u, static_cast<std::uint32_t>(LANAI_MMIO_BASE) + 4u}) {
    CAPTURE(bytes);
    CHECK_THROWS_WITH_AS(lanai::iss::Cpu(bytes, costs, nullptr),
                         "SRAM size must be a non-zero multiple of 4 below the register window",
                         std::invalid_argument);
  }
  // A card-sized SRAM starts as zeros, code and data alike.
  lanai::iss::Cpu cpu(2u << 20, costs, nullptr);
  std::array<std::uint8_t, 16> bytes{};
  bytes.fill(0xAA);
  cpu.read_sram((2u << 20) - 16u, bytes);
  for (const std::uint8_t b : bytes)
    CHECK(b == 0);
}

TEST_CASE(
    "host-side SRAM reads outside the SRAM are refused, and a view shows the bytes in place") {
  const lanai::iss::CycleCosts costs{};
  lanai::iss::Cpu cpu(4096, costs, nullptr);
  const std::array<std::uint8_t, 4> word{1, 2, 3, 4};
  cpu.write_sram(4092, word);
  const auto view = cpu.sram_view(4092, 4);
  REQUIRE(view.size() == 4);
  CHECK(std::equal(view.begin(), view.end(), word.begin()));
  CHECK(cpu.sram_view(4096, 0).empty());
  std::array<std::uint8_t, 8> out{};
  for (const auto& range :
       {std::pair{4093u, 4u}, std::pair{4097u, 0u}, std::pair{0u, 4100u}, std::pair{~0u, 2u}}) {
    CAPTURE(range.first);
    CAPTURE(range.second);
    CHECK_THROWS_WITH_AS(cpu.sram_view(range.first, range.second), "SRAM read outside the SRAM",
                         std::out_of_range);
  }
  CHECK_THROWS_WITH_AS(cpu.read_sram(4092, out), "SRAM read outside the SRAM", std::out_of_range);
}
