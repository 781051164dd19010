// Host DMA through its registers: split-phase start and completion, service
// time = setup + bytes at the PCI rate, completions in service order, the
// insertion race, request ids and the refusals that change nothing.
#include "tests/nic/nic_fixture.hpp"
#include "emulator/nic/host_dma.hpp"

#include <numeric>

using namespace nic_test;
using lanai::kernel::microseconds;
using lanai::kernel::nanoseconds;
using lanai::kernel::picoseconds;
using lanai::profile::default_profile;

namespace {

constexpr std::uint32_t ptag = 7;

struct HostBuffer {
  std::vector<std::uint8_t> bytes;
  std::uint32_t handle = 0;
};

HostBuffer registered(Fixture& f, std::size_t n, std::size_t size, std::uint8_t seed) {
  HostBuffer b;
  b.bytes.resize(size);
  for (std::size_t i = 0; i < size; ++i)
    b.bytes[i] = static_cast<std::uint8_t>(seed + i * 3);
  b.handle = f.tables[n]->add({host_address(b.bytes.data()), size, ptag, false, false});
  return b;
}

void stage(Fixture& f, std::size_t n, std::uint64_t host, std::uint32_t handle, std::uint32_t tag,
           std::uint32_t sram, std::uint32_t length) {
  f.write(n, LANAI_REG_HDMA_HOST_LO, static_cast<std::uint32_t>(host));
  f.write(n, LANAI_REG_HDMA_HOST_HI, static_cast<std::uint32_t>(host >> 32));
  f.write(n, LANAI_REG_HDMA_HANDLE, handle);
  f.write(n, LANAI_REG_HDMA_PTAG, tag);
  f.write(n, LANAI_REG_HDMA_SRAM, sram);
  f.write(n, LANAI_REG_HDMA_LENGTH, length);
}

std::uint32_t append(Fixture& f, std::uint32_t direction) {
  f.write(0, LANAI_REG_HDMA_APPEND, direction);
  return f.read(0, LANAI_REG_HDMA_RESULT);
}

std::uint32_t done(std::uint32_t id, std::uint32_t status = LANAI_HDMA_OK) {
  return LANAI_HDMA_DONE_VALID | status << 16 | id;
}

std::vector<std::uint8_t> sram_bytes(Fixture& f, std::size_t n, std::uint32_t at, std::size_t len) {
  std::vector<std::uint8_t> out(len);
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint32_t w = f.card(n).read_sram_word((at + static_cast<std::uint32_t>(i)) & ~3u);
    out[i] = static_cast<std::uint8_t>(w >> (8 * (3 - ((at + i) & 3))));
  }
  return out;
}

} // namespace

TEST_CASE("a host-to-SRAM request completes once, after setup plus bytes at the PCI rate") {
  Fixture f;
  auto host = registered(f, 0, 256, 0x10);
  f.kernel.run_until(microseconds(10));
  const SimTime t0 = f.kernel.now();
  const SimTime service =
      nanoseconds(1000) + picoseconds(1'538'462); // 200 B at 130 MB/s, rounded up
  CHECK(f.card(0).host_dma().service_time(200) == service);

  stage(f, 0, host_address(host.bytes.data() + 8), host.handle, ptag, 0x8000, 200);
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 0u << 16 | 1u));
  // Nothing completes inside the start: queued, busy, no byte moved yet.
  CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 1u);
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & (LANAI_EV_HDMA_DONE | LANAI_EV_HDMA_IDLE)) == 0u);
  CHECK(f.card(0).read_sram_word(0x8000) == 0u);
  CHECK_FALSE(f.card(0).devices_idle());

  f.kernel.run_until(t0 + service - picoseconds(1));
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u);
  CHECK(f.card(0).read_sram_word(0x8000) == 0u);
  f.kernel.run_until(t0 + service);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & (LANAI_EV_HDMA_DONE | LANAI_EV_HDMA_IDLE)) ==
        (LANAI_EV_HDMA_DONE | LANAI_EV_HDMA_IDLE));
  CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 0u);
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == done(1));
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u); // exactly one completion
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_HDMA_DONE) == 0u);
  CHECK(sram_bytes(f, 0, 0x8000, 200) ==
        std::vector<std::uint8_t>(host.bytes.begin() + 8, host.bytes.begin() + 208));
  CHECK(f.card(0).read_sram_word(0x8000 + 200) == 0u);
  CHECK(f.kernel.pending() == 0);
  CHECK(f.card(0).devices_idle());

  CHECK(f.counter("node0.hdma.requests") == 1);
  CHECK(f.counter("node0.hdma.bytes_to_sram") == 200);
  CHECK(f.counter("node0.hdma.bytes_to_host") == 0);
  CHECK(f.counter("node0.hdma.busy_ps") == static_cast<std::uint64_t>(service.ps()));
  CHECK(f.card(0).host_dma().busy_time() == service);
  CHECK(f.stats.time_weighted("node0.hdma.busy").average(t0 + service) ==
        doctest::Approx(static_cast<double>(service.ps()) / (t0 + service).ps()));
}

TEST_CASE("requests are served back to back and complete in order, both directions") {
  Fixture f;
  auto host = registered(f, 0, 512, 0x40);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> host_writes;
  f.card(0).set_on_host_write([&](std::uint64_t a, std::uint32_t n) {
    host_writes.emplace_back(a, n);
    CHECK(f.kernel.now() > SimTime::zero());
  });
  for (std::uint32_t i = 0; i < 64; ++i)
    f.card(0).write_sram_word(0x1000 + 4 * i, 0xA0A1A2A3 + i);

  const SimTime t0 = f.kernel.now();
  const auto& dma = f.card(0).host_dma();
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x2000, 100);
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 1u));
  stage(f, 0, host_address(host.bytes.data() + 300), host.handle, ptag, 0x1000, 50);
  CHECK(append(f, LANAI_HDMA_TO_HOST) == (LANAI_HDMA_ACCEPTED | 1u << 16 | 2u));
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x3000, 0);
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 2u << 16 | 3u));
  CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 3u);

  const SimTime ta = t0 + dma.service_time(100);
  const SimTime tb = ta + dma.service_time(50);
  const SimTime tc = tb + dma.service_time(0);
  CHECK(tc - tb == microseconds(1)); // a 0-byte request still costs the setup
  const std::vector<std::pair<SimTime, std::uint32_t>> expected = {{ta, 1}, {tb, 2}, {tc, 3}};
  for (const auto& [t, id] : expected) {
    const std::uint32_t request = id;
    CAPTURE(request);
    f.kernel.run_until(t - picoseconds(1));
    CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u);
    f.kernel.run_until(t);
    CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == done(id));
  }
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == 0u);
  CHECK(f.kernel.pending() == 0);
  REQUIRE(host_writes.size() == 1);
  CHECK(host_writes[0] ==
        std::pair<std::uint64_t, std::uint32_t>{host_address(host.bytes.data() + 300), 50});
  for (std::uint32_t i = 0; i < 50; ++i) {
    const std::uint32_t word = 0xA0A1A2A3 + i / 4;
    CHECK(host.bytes[300 + i] == static_cast<std::uint8_t>(word >> (8 * (3 - i % 4))));
  }
  CHECK(host.bytes[350] == static_cast<std::uint8_t>(0x40 + 350 * 3));
  // One engine: busy from t0 to tc without a gap.
  CHECK(f.counter("node0.hdma.busy_ps") == static_cast<std::uint64_t>((tc - t0).ps()));
  CHECK(f.counter("node0.hdma.bytes_to_sram") == 100);
  CHECK(f.counter("node0.hdma.bytes_to_host") == 50);
  CHECK(f.counter("node0.hdma.requests") == 3);
}

TEST_CASE("INSERT lands behind the entries the engine may have taken") {
  for (std::uint32_t race : {0u, 1u, 2u}) {
    CAPTURE(race);
    auto p = default_profile();
    p.nic.hdma_race_entries = race;
    Fixture f(p);
    auto host = registered(f, 0, 64, 0);
    // A is in service, B and C wait: the queue holds 3.
    for (int i = 0; i < 3; ++i) {
      stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x100, 16);
      append(f, LANAI_HDMA_TO_SRAM);
    }
    stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x200, 4);
    f.write(0, LANAI_REG_HDMA_INSERT, LANAI_HDMA_TO_SRAM | 0u << LANAI_HDMA_POSITION_SHIFT);
    const std::uint32_t x = f.read(0, LANAI_REG_HDMA_RESULT);
    // Never ahead of the request in service, whatever the race window.
    const std::uint32_t landed = std::max(race, 1u);
    CHECK(x == (LANAI_HDMA_ACCEPTED | landed << 16 | 4u));
    CHECK(LANAI_HDMA_POSITION(x) == landed);
    // Far beyond the tail: lands at the tail.
    f.write(0, LANAI_REG_HDMA_INSERT, LANAI_HDMA_TO_HOST | 900u << LANAI_HDMA_POSITION_SHIFT);
    CHECK(f.read(0, LANAI_REG_HDMA_RESULT) == (LANAI_HDMA_ACCEPTED | 4u << 16 | 5u));
    // Position 2 is outside every race window tested here.
    f.write(0, LANAI_REG_HDMA_INSERT, LANAI_HDMA_TO_SRAM | 2u << LANAI_HDMA_POSITION_SHIFT);
    CHECK(f.read(0, LANAI_REG_HDMA_RESULT) == (LANAI_HDMA_ACCEPTED | 2u << 16 | 6u));
    CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 6u);

    f.kernel.run();
    std::vector<std::uint32_t> order;
    while (const std::uint32_t w = f.read(0, LANAI_REG_HDMA_DONE_POP))
      order.push_back(w & 0xFFFF);
    // The one in service always finishes first; then queue order.
    const std::vector<std::uint32_t> expected = race == 2
                                                    ? std::vector<std::uint32_t>{1, 2, 6, 4, 3, 5}
                                                    : std::vector<std::uint32_t>{1, 4, 6, 2, 3, 5};
    CHECK(order == expected);
  }
}

TEST_CASE("positions count from the oldest completion not yet popped") {
  // The firmware's picture of the queue is every request it has not seen
  // complete; a request finishing between its decision and its insertion
  // must not shift where the insertion lands.
  Fixture f(default_profile());
  auto host = registered(f, 0, 64, 0);
  for (int i = 0; i < 3; ++i) {
    stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x100, 16);
    append(f, LANAI_HDMA_TO_SRAM); // ids 1 (in service), 2, 3
  }
  // Request 1 finishes and its completion waits unpopped; 2 is in service.
  const SimTime one = f.card(0).host_dma().service_time(16);
  f.kernel.run_until(f.kernel.now() + SimTime::from_ps(one.ps() * 3 / 2));
  REQUIRE(f.read(0, LANAI_REG_HDMA_QUEUED) == 2u);
  // Position 2 (behind 1 and 2, ahead of 3) is position 1 of the queue.
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x200, 4);
  f.write(0, LANAI_REG_HDMA_INSERT, LANAI_HDMA_TO_SRAM | 2u << LANAI_HDMA_POSITION_SHIFT);
  CHECK(f.read(0, LANAI_REG_HDMA_RESULT) == (LANAI_HDMA_ACCEPTED | 2u << 16 | 4u));
  // Aimed at the completed request: lands behind the one in service.
  f.write(0, LANAI_REG_HDMA_INSERT, LANAI_HDMA_TO_SRAM | 0u << LANAI_HDMA_POSITION_SHIFT);
  CHECK(f.read(0, LANAI_REG_HDMA_RESULT) == (LANAI_HDMA_ACCEPTED | 2u << 16 | 5u));
  // APPEND reports the tail counted the same way.
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 5u << 16 | 6u));
  f.kernel.run();
  std::vector<std::uint32_t> order;
  while (const std::uint32_t w = f.read(0, LANAI_REG_HDMA_DONE_POP))
    order.push_back(w & 0xFFFF);
  CHECK(order == std::vector<std::uint32_t>{1, 2, 5, 4, 3, 6});
}

TEST_CASE("refused requests change nothing; ids count accepted requests only") {
  auto p = default_profile();
  p.nic.hdma_queue_entries = 2;
  Fixture f(p);
  auto host = registered(f, 0, 64, 0);
  const std::uint32_t sram = f.profile.lanai.sram_bytes;

  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, sram - 4, 8);
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == LANAI_HDMA_REFUSED_SRAM_RANGE);
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0xFFFFFFF0u, 0x20);
  CHECK(append(f, LANAI_HDMA_TO_HOST) == LANAI_HDMA_REFUSED_SRAM_RANGE);
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, sram + 4, 0);
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == LANAI_HDMA_REFUSED_SRAM_RANGE);
  CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 0u);
  CHECK(f.kernel.pending() == 0);

  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, sram - 8, 8); // the last 8 bytes
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 1u));
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 1u << 16 | 2u));
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == LANAI_HDMA_REFUSED_FULL);
  f.write(0, LANAI_REG_HDMA_INSERT, 0);
  CHECK(f.read(0, LANAI_REG_HDMA_RESULT) == LANAI_HDMA_REFUSED_FULL);
  CHECK(f.read(0, LANAI_REG_HDMA_QUEUED) == 2u);
  CHECK(f.counter("node0.hdma.requests") == 2);
  f.kernel.run();
  // Behind the two completions nobody has popped yet.
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 2u << 16 | 3u));
}

TEST_CASE("request ids wrap from 0xFFFF to 1, never 0") {
  auto p = default_profile();
  p.nic.hdma_queue_entries = 4096;
  Fixture f(p);
  auto host = registered(f, 0, 8, 0);
  stage(f, 0, host_address(host.bytes.data()), host.handle, ptag, 0x100, 0);
  std::uint32_t last = 0;
  for (std::uint32_t i = 0; i < 0x10001; ++i) {
    last = append(f, LANAI_HDMA_TO_SRAM) & LANAI_HDMA_ID_MASK;
    if (f.read(0, LANAI_REG_HDMA_QUEUED) == 4096) {
      f.kernel.run();
      while (f.read(0, LANAI_REG_HDMA_DONE_POP) != 0) {
      }
    }
    if (i == 0xFFFE)
      CHECK(last == 0xFFFFu);
    if (i == 0xFFFF)
      CHECK(last == 1u);
  }
  CHECK(last == 2u);
}

TEST_CASE("a request staged through the staging words the core writes in place is the same") {
  // What a core running blocks does (iss::MmioBus::direct_register): it
  // stores into the device's words instead of calling write().
  Fixture f;
  auto host = registered(f, 0, 256, 0x40);
  auto& bus = f.card(0).bus();
  const std::uint64_t address = host_address(host.bytes.data() + 16);
  const std::pair<std::uint32_t, std::uint32_t> staged[] = {
      {LANAI_REG_HDMA_HOST_LO, static_cast<std::uint32_t>(address)},
      {LANAI_REG_HDMA_HOST_HI, static_cast<std::uint32_t>(address >> 32)},
      {LANAI_REG_HDMA_HANDLE, host.handle},
      {LANAI_REG_HDMA_PTAG, ptag},
      {LANAI_REG_HDMA_SRAM, 0x9000},
      {LANAI_REG_HDMA_LENGTH, 64}};
  for (const auto& write : staged) {
    const std::uint32_t reg = write.first;
    CAPTURE(reg);
    std::uint32_t* word = bus.direct_register(reg).word;
    REQUIRE(word != nullptr);
    *word = write.second;
  }
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == (LANAI_HDMA_ACCEPTED | 0u << 16 | 1u));
  f.kernel.run_until(f.kernel.now() + microseconds(10));
  CHECK(f.read(0, LANAI_REG_HDMA_DONE_POP) == done(1));
  CHECK(sram_bytes(f, 0, 0x9000, 64) ==
        std::vector<std::uint8_t>(host.bytes.begin() + 16, host.bytes.begin() + 80));
  // A refused request leaves the words as they were, as it leaves the registers.
  *bus.direct_register(LANAI_REG_HDMA_LENGTH).word = 1u << 30;
  CHECK(append(f, LANAI_HDMA_TO_SRAM) == LANAI_HDMA_REFUSED_SRAM_RANGE);
  CHECK(*bus.direct_register(LANAI_REG_HDMA_SRAM).word == 0x9000u);
}
