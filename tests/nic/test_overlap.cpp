// HDMA/NSDMA overlap: the level is 1 exactly while both busy levels are 1,
// its picosecond total is the length of the finished overlap periods, and
// on a card it follows the two engines' own busy levels to the picosecond.
#include "tests/nic/nic_fixture.hpp"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/nic/host_dma.hpp"
#include "emulator/nic/net_send_dma.hpp"

using namespace nic_test;
using lanai::kernel::nanoseconds;
using lanai::kernel::picoseconds;

TEST_CASE("the overlap level is the AND of two busy levels, at their exact times") {
  lanai::kernel::StatsRegistry stats;
  lanai::nic::BusyMeter a(stats, "x.a"), b(stats, "x.b");
  lanai::nic::OverlapMeter both(stats, "x.ab.overlap");
  a.watch_overlap(&both, 0);
  b.watch_overlap(&both, 1);
  auto& level = stats.time_weighted("x.ab.overlap");

  a.begin(nanoseconds(10));
  CHECK_FALSE(both.overlapping());
  b.begin(nanoseconds(30));
  CHECK(both.overlapping());
  CHECK(level.last_change() == nanoseconds(30));
  a.begin(nanoseconds(35)); // already busy: nothing changes
  CHECK(level.last_change() == nanoseconds(30));
  a.end(nanoseconds(50));
  CHECK_FALSE(both.overlapping());
  CHECK(both.total() == nanoseconds(20));
  b.end(nanoseconds(70));
  CHECK(both.total() == nanoseconds(20));
  // Both start and one stops at the same instant: a zero-length overlap.
  a.begin(nanoseconds(80));
  b.begin(nanoseconds(80));
  a.end(nanoseconds(80));
  CHECK(both.total() == nanoseconds(20));
  a.begin(nanoseconds(90));
  b.end(nanoseconds(100) + picoseconds(1));
  CHECK(both.total() == nanoseconds(30) + picoseconds(1));
  a.end(nanoseconds(110));
  CHECK(stats.counter("x.ab.overlap_ps").value() == 30'001u);
  CHECK(level.average(nanoseconds(200)) == doctest::Approx(30'001.0 / 200'000.0));
  CHECK(level.max() == 1.0);
  CHECK(level.current() == 0.0);
}

TEST_CASE("a meter watched while busy reports its busy period") {
  lanai::kernel::StatsRegistry stats;
  lanai::nic::BusyMeter a(stats, "y.a"), b(stats, "y.b");
  lanai::nic::OverlapMeter both(stats, "y.overlap");
  a.begin(nanoseconds(5));
  a.watch_overlap(&both, 0);
  b.watch_overlap(&both, 1);
  b.begin(nanoseconds(7));
  a.end(nanoseconds(9));
  CHECK(both.total() == nanoseconds(2));
}

namespace {

constexpr std::uint32_t overlap_ptag = 3;

} // namespace

TEST_CASE("a card's overlap follows its HDMA and NSDMA busy levels exactly") {
  Fixture f;
  std::vector<std::uint8_t> host(4096, 0x5A);
  const std::uint32_t handle =
      f.tables[0]->add({host_address(host.data()), host.size(), overlap_ptag, false, false});
  f.kernel.run_until(nanoseconds(5000));

  // Receiver armed so the packet leaves without backpressure.
  f.write(1, LANAI_REG_NRDMA_SRAM, 0x6000);
  f.write(1, LANAI_REG_NRDMA_CAPACITY, 4096);
  f.write(1, LANAI_REG_NRDMA_ARM, 1);

  const SimTime t0 = f.kernel.now();
  // A 2000-byte host read and, at the same instant, a 1000-byte packet.
  f.write(0, LANAI_REG_HDMA_HOST_LO, static_cast<std::uint32_t>(host_address(host.data())));
  f.write(0, LANAI_REG_HDMA_HOST_HI, static_cast<std::uint32_t>(host_address(host.data()) >> 32));
  f.write(0, LANAI_REG_HDMA_HANDLE, handle);
  f.write(0, LANAI_REG_HDMA_PTAG, overlap_ptag);
  f.write(0, LANAI_REG_HDMA_SRAM, 0x8000);
  f.write(0, LANAI_REG_HDMA_LENGTH, 2000);
  f.write(0, LANAI_REG_HDMA_APPEND, LANAI_HDMA_TO_SRAM);
  REQUIRE((f.read(0, LANAI_REG_HDMA_RESULT) & LANAI_HDMA_ACCEPTED) != 0u);

  auto bytes = f.net->route(0, 1);
  const auto route_len = static_cast<std::uint32_t>(bytes.size());
  bytes.resize(bytes.size() + 1000, 0x11);
  f.card(0).write_sram(0x2000, bytes);
  f.write(0, LANAI_REG_NSDMA_SRAM, 0x2000);
  f.write(0, LANAI_REG_NSDMA_LENGTH, static_cast<std::uint32_t>(bytes.size()));
  f.write(0, LANAI_REG_NSDMA_ROUTE_LEN, route_len);
  f.write(0, LANAI_REG_NSDMA_START, 1);
  REQUIRE(f.read(0, LANAI_REG_NSDMA_RESULT) == LANAI_NSDMA_ACCEPTED);

  auto& card = f.card(0);
  CHECK(card.hdma_nsdma_overlap().overlapping());
  SimTime hdma_end{}, nsdma_end{};
  f.advance(t0 + nanoseconds(100'000), [&] {
    CHECK(card.hdma_nsdma_overlap().overlapping() ==
          (card.host_dma().engine_busy() && card.send_dma().busy()));
    if (hdma_end == SimTime{} && !card.host_dma().engine_busy())
      hdma_end = f.kernel.now();
    if (nsdma_end == SimTime{} && !card.send_dma().busy())
      nsdma_end = f.kernel.now();
  });
  REQUIRE(hdma_end != SimTime{});
  REQUIRE(nsdma_end != SimTime{});
  CHECK(hdma_end - t0 == card.host_dma().service_time(2000));
  CHECK(card.host_dma().busy_time() == hdma_end - t0);
  CHECK(card.send_dma().busy_time() == nsdma_end - t0);
  const SimTime overlap = std::min(hdma_end, nsdma_end) - t0;
  CHECK(card.hdma_nsdma_overlap().total() == overlap);
  CHECK(f.counter("node0.hdma_nsdma.overlap_ps") == static_cast<std::uint64_t>(overlap.ps()));
  CHECK(f.counter("node1.hdma_nsdma.overlap_ps") == 0u);
  const SimTime end = f.kernel.now();
  CHECK(f.stats.time_weighted("node0.hdma_nsdma.overlap").average(end) ==
        doctest::Approx(static_cast<double>(overlap.ps()) / static_cast<double>(end.ps())));
}
