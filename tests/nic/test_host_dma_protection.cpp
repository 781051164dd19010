// Host DMA protection: a request whose handle, tag or bounds fail the check,
// or a remote write (RDMA write) or read (RDMA read) to a region not open to it, completes
// after the setup time with its PROT status and moves no byte.
#include "tests/nic/nic_fixture.hpp"
#include "emulator/nic/host_dma.hpp"

using namespace nic_test;
using lanai::kernel::microseconds;
using lanai::kernel::picoseconds;

namespace {

void stage_and_append(Fixture& f, std::uint64_t host, std::uint32_t handle, std::uint32_t tag,
                      std::uint32_t sram, std::uint32_t length, std::uint32_t direction) {
  f.write(0, LANAI_REG_HDMA_HOST_LO, static_cast<std::uint32_t>(host));
  f.write(0, LANAI_REG_HDMA_HOST_HI, static_cast<std::uint32_t>(host >> 32));
  f.write(0, LANAI_REG_HDMA_HANDLE, handle);
  f.write(0, LANAI_REG_HDMA_PTAG, tag);
  f.write(0, LANAI_REG_HDMA_SRAM, sram);
  f.write(0, LANAI_REG_HDMA_LENGTH, length);
  f.write(0, LANAI_REG_HDMA_APPEND, direction);
  REQUIRE((f.read(0, LANAI_REG_HDMA_RESULT) & LANAI_HDMA_ACCEPTED) != 0u);
}

} // namespace

TEST_CASE("protection failures complete after setup with their status and move nothing") {
  Fixture f;
  std::vector<std::uint8_t> region(128, 0x5A);
  const std::uint64_t base = host_address(region.data());
  const std::uint32_t good = f.tables[0]->add({base, region.size(), 7, false, false});
  const std::uint32_t foreign = f.tables[1]->add({base, region.size(), 7, false, false});
  const std::uint32_t gone = f.tables[0]->add({base, region.size(), 7, false, false});
  const std::uint32_t open = f.tables[0]->add({base, region.size(), 7, true, false});
  const std::uint32_t readable = f.tables[0]->add({base, region.size(), 7, false, true});
  REQUIRE(f.tables[0]->remove(gone));
  int host_writes = 0;
  f.card(0).set_on_host_write([&](std::uint64_t, std::uint32_t) { ++host_writes; });
  for (std::uint32_t i = 0; i < 64; ++i)
    f.card(0).write_sram_word(0x400 + 4 * i, 0xCCCCCCCC);

  struct Case {
    std::uint32_t handle, tag;
    std::uint64_t host;
    std::uint32_t length, direction, status;
  };
  const std::vector<Case> cases = {
      {0x0BAD0001, 7, base, 16, LANAI_HDMA_TO_SRAM, LANAI_HDMA_PROT_HANDLE},
      {foreign, 7, base, 16, LANAI_HDMA_TO_SRAM, LANAI_HDMA_PROT_HANDLE},
      {good, 8, base, 16, LANAI_HDMA_TO_SRAM, LANAI_HDMA_PROT_TAG},
      {good, 7, base + 120, 16, LANAI_HDMA_TO_SRAM, LANAI_HDMA_PROT_BOUNDS},
      {good, 7, base - 1, 4, LANAI_HDMA_TO_HOST, LANAI_HDMA_PROT_BOUNDS},
      {gone, 7, base, 16, LANAI_HDMA_TO_SRAM, LANAI_HDMA_PROT_HANDLE},
      {good, 9, base, 16, LANAI_HDMA_TO_HOST, LANAI_HDMA_PROT_TAG},
      {good, 7, base, 16, LANAI_HDMA_TO_HOST_REMOTE, LANAI_HDMA_PROT_REMOTE},
      {open, 8, base, 16, LANAI_HDMA_TO_HOST_REMOTE, LANAI_HDMA_PROT_TAG},
      {open, 7, base, 16, LANAI_HDMA_TO_SRAM_REMOTE, LANAI_HDMA_PROT_REMOTE},
      {readable, 7, base + 120, 16, LANAI_HDMA_TO_SRAM_REMOTE, LANAI_HDMA_PROT_BOUNDS},
      {good, 7, base, 128, LANAI_HDMA_TO_HOST, LANAI_HDMA_OK},        // control: the check passes
      {open, 7, base, 128, LANAI_HDMA_TO_HOST_REMOTE, LANAI_HDMA_OK}, // open to remote writes
      {readable, 7, base, 64, LANAI_HDMA_TO_SRAM_REMOTE, LANAI_HDMA_OK}, // open to remote reads
  };
  for (const auto& c : cases)
    stage_and_append(f, c.host, c.handle, c.tag, 0x400, c.length, c.direction);

  const auto& dma = f.card(0).host_dma();
  SimTime t = f.kernel.now();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const auto& c = cases[i];
    t += c.status == LANAI_HDMA_OK ? dma.service_time(c.length) : microseconds(1);
    f.kernel.run_until(t - picoseconds(1));
    CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u);
    f.kernel.run_until(t);
    CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) ==
          (LANAI_HDMA_DONE_VALID | c.status << 16 | static_cast<std::uint32_t>(i + 1)));
    if (c.status != LANAI_HDMA_OK) {
      // Neither side changed.
      CHECK(f.card(0).read_sram_word(0x400) == 0xCCCCCCCCu);
      CHECK(region[0] == 0x5A);
      CHECK(host_writes == 0);
    }
  }
  CHECK(f.counter("node0.hdma.protection_errors") == 11);
  CHECK(f.counter("node0.hdma.bytes_to_sram") == 64);
  CHECK(f.counter("node0.hdma.bytes_to_host") == 256);
  CHECK(host_writes == 2);
  CHECK(region[0] == 0xCC);
  CHECK(region[127] == 0xCC);
}

TEST_CASE("a region deregistered while its request waits fails at the start of service") {
  Fixture f;
  std::vector<std::uint8_t> a(64, 1), b(64, 2);
  const std::uint32_t ha = f.tables[0]->add({host_address(a.data()), 64, 3, false, false});
  const std::uint32_t hb = f.tables[0]->add({host_address(b.data()), 64, 3, false, false});
  stage_and_append(f, host_address(a.data()), ha, 3, 0x100, 64, LANAI_HDMA_TO_SRAM);
  stage_and_append(f, host_address(b.data()), hb, 3, 0x200, 64, LANAI_HDMA_TO_SRAM);
  // The host deregisters b while a is in service.
  f.kernel.run_until(microseconds(1));
  REQUIRE(f.tables[0]->remove(hb));
  f.kernel.run();
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == (LANAI_HDMA_DONE_VALID | 1u));
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) ==
        (LANAI_HDMA_DONE_VALID | LANAI_HDMA_PROT_HANDLE << 16 | 2u));
  CHECK(f.card(0).read_sram_word(0x100) == 0x01010101u);
  CHECK(f.card(0).read_sram_word(0x200) == 0u);
}
