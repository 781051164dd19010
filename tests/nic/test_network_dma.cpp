// Network send and receive DMA between two cards: exact bytes and source
// node, the start-up and receive set-up times, refusals, truncation, bad
// checksums, and stop/go backpressure while the receiver is not armed.
#include "tests/nic/nic_fixture.hpp"
#include "emulator/nic/net_recv_dma.hpp"
#include "emulator/nic/net_send_dma.hpp"

using namespace nic_test;
using lanai::kernel::microseconds;
using lanai::kernel::nanoseconds;
using lanai::kernel::picoseconds;

namespace {

constexpr std::uint32_t send_buffer = 0x2000;
constexpr std::uint32_t recv_buffer = 0x6000;

std::vector<std::uint8_t> payload_of(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> p(size);
  for (std::size_t i = 0; i < size; ++i)
    p[i] = static_cast<std::uint8_t>(seed * 17 + i * 5 + 1);
  return p;
}

// Puts route + payload at the send buffer of node `from` and starts it.
std::uint32_t send(Fixture& f, std::size_t from, std::size_t to,
                   const std::vector<std::uint8_t>& payload) {
  auto bytes = f.net->route(from, to);
  const auto route_len = static_cast<std::uint32_t>(bytes.size());
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  f.card(from).write_sram(send_buffer, bytes);
  f.write(from, LANAI_REG_NSDMA_SRAM, send_buffer);
  f.write(from, LANAI_REG_NSDMA_LENGTH, static_cast<std::uint32_t>(bytes.size()));
  f.write(from, LANAI_REG_NSDMA_ROUTE_LEN, route_len);
  f.write(from, LANAI_REG_NSDMA_START, 1);
  return f.read(from, LANAI_REG_NSDMA_RESULT);
}

std::uint32_t arm(Fixture& f, std::size_t n, std::uint32_t capacity) {
  f.write(n, LANAI_REG_NRDMA_SRAM, recv_buffer);
  f.write(n, LANAI_REG_NRDMA_CAPACITY, capacity);
  f.write(n, LANAI_REG_NRDMA_ARM, 1);
  return f.read(n, LANAI_REG_NRDMA_RESULT);
}

std::vector<std::uint8_t> received(Fixture& f, std::size_t n, std::size_t len) {
  std::vector<std::uint8_t> out(len);
  for (std::size_t i = 0; i < len; ++i) {
    const auto at = recv_buffer + static_cast<std::uint32_t>(i);
    out[i] = static_cast<std::uint8_t>(f.card(n).read_sram_word(at & ~3u) >> (8 * (3 - (at & 3))));
  }
  return out;
}

} // namespace

TEST_CASE("a packet goes from card 0's SRAM to card 1's SRAM with its source node") {
  Fixture f;
  const auto payload = payload_of(100, 1);
  CHECK(arm(f, 1, 256) == LANAI_NRDMA_ACCEPTED);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == LANAI_NRDMA_STATUS_ARMED);
  CHECK(arm(f, 1, 256) == LANAI_NRDMA_BUSY);

  const SimTime t0 = f.kernel.now();
  CHECK(send(f, 0, 1, payload) == LANAI_NSDMA_ACCEPTED);
  CHECK(f.read(0, LANAI_REG_NSDMA_STATUS) == LANAI_NSDMA_STATUS_BUSY);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_NSDMA_IDLE) == 0u);
  CHECK(send(f, 0, 1, payload) == LANAI_NSDMA_BUSY);
  CHECK_FALSE(f.card(0).devices_idle());

  // The head enters the link after the send start-up time.
  auto& tx = f.net->link("wire.node0.tx");
  f.kernel.run_until(t0 + nanoseconds(200) - picoseconds(1));
  CHECK_FALSE(tx.busy());
  f.kernel.run_until(t0 + nanoseconds(200));
  CHECK(tx.busy());

  // The receive DMA is done exactly its set-up time after the tail arrived.
  SimTime tail{}, dma_done{}, send_done{};
  f.advance(microseconds(100), [&] {
    if (tail == SimTime{} && f.counter("wire.node1.received") == 1)
      tail = f.kernel.now();
    if (dma_done == SimTime{} && (f.read(1, LANAI_REG_EVENT_STATUS) & LANAI_EV_NRDMA_DONE))
      dma_done = f.kernel.now();
    if (send_done == SimTime{} && (f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_NSDMA_IDLE))
      send_done = f.kernel.now();
  });
  REQUIRE(tail > t0);
  CHECK(dma_done - tail == nanoseconds(200));
  CHECK(send_done > t0 + nanoseconds(200));
  CHECK(send_done <= tail);

  CHECK(f.read(0, LANAI_REG_NSDMA_STATUS) == 1u << 8);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == LANAI_NRDMA_STATUS_DONE);
  CHECK(f.read(1, LANAI_REG_NRDMA_LENGTH) == 100u);
  CHECK(f.read(1, LANAI_REG_NRDMA_SOURCE) == 0u);
  // The arrival stamp is the receiver's cycle at the tail, not at the DMA's end.
  const std::uint64_t arrived = (std::uint64_t{f.read(1, LANAI_REG_NRDMA_TIME_HI)} << 32) |
                                f.read(1, LANAI_REG_NRDMA_TIME_LO);
  CHECK(arrived == f.card(1).core().cycle_at(tail));
  f.write(1, LANAI_REG_NRDMA_TIME_LO, 0); // read-only
  CHECK(f.read(1, LANAI_REG_NRDMA_TIME_LO) == static_cast<std::uint32_t>(arrived));
  CHECK(received(f, 1, 100) == payload);
  CHECK(received(f, 1, 104)[100] == 0u);
  CHECK_FALSE(f.card(1).devices_idle());
  CHECK(arm(f, 1, 256) == LANAI_NRDMA_BUSY); // DONE not yet acknowledged

  f.write(1, LANAI_REG_NRDMA_STATUS, 0); // no DONE bit: no acknowledgement
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == LANAI_NRDMA_STATUS_DONE);
  f.write(1, LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == 0u);
  CHECK((f.read(1, LANAI_REG_EVENT_STATUS) & LANAI_EV_NRDMA_DONE) == 0u);
  CHECK(f.card(0).devices_idle());
  CHECK(f.card(1).devices_idle());

  CHECK(f.counter("node0.nsdma.packets") == 1);
  CHECK(f.counter("node0.nsdma.bytes") == 100);
  CHECK(f.counter("node0.nsdma.busy_ps") == static_cast<std::uint64_t>((send_done - t0).ps()));
  CHECK(f.counter("node1.nrdma.packets") == 1);
  CHECK(f.counter("node1.nrdma.bytes") == 100);
  CHECK(f.counter("node1.nrdma.busy_ps") == 200'000u);
}

TEST_CASE("the send DMA refuses bad buffers and leaves nothing started") {
  Fixture f;
  const std::uint32_t sram = f.profile.lanai.sram_bytes;
  auto start = [&](std::uint32_t at, std::uint32_t length, std::uint32_t route_len) {
    f.write(0, LANAI_REG_NSDMA_SRAM, at);
    f.write(0, LANAI_REG_NSDMA_LENGTH, length);
    f.write(0, LANAI_REG_NSDMA_ROUTE_LEN, route_len);
    f.write(0, LANAI_REG_NSDMA_START, 1);
    return f.read(0, LANAI_REG_NSDMA_RESULT);
  };
  CHECK(start(0x100, 64, 0) == LANAI_NSDMA_NO_ROUTE);
  CHECK(start(0x100, 1, 2) == LANAI_NSDMA_SRAM_RANGE);
  CHECK(start(sram - 16, 32, 1) == LANAI_NSDMA_SRAM_RANGE);
  CHECK(start(0xFFFFFFF0u, 0x20, 1) == LANAI_NSDMA_SRAM_RANGE);
  CHECK(start(0, f.profile.wire.max_payload_bytes + 2, 1) == LANAI_NSDMA_TOO_LARGE);
  CHECK(f.read(0, LANAI_REG_NSDMA_STATUS) == 0u);
  CHECK(f.kernel.pending() == 0);
  // The largest payload the wire carries is accepted.
  CHECK(start(0, f.profile.wire.max_payload_bytes + 1, 1) == LANAI_NSDMA_ACCEPTED);
}

TEST_CASE("the receive DMA truncates to its buffer and flags damaged packets") {
  Fixture f;
  std::vector<std::uint8_t> guard(64, 0xEE);
  f.card(1).write_sram(recv_buffer, guard);
  REQUIRE(arm(f, 1, 40) == LANAI_NRDMA_ACCEPTED);
  const auto big = payload_of(100, 2);
  REQUIRE(send(f, 0, 1, big) == LANAI_NSDMA_ACCEPTED);
  f.kernel.run();
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) ==
        (LANAI_NRDMA_STATUS_DONE | LANAI_NRDMA_STATUS_TRUNCATED));
  CHECK(f.read(1, LANAI_REG_NRDMA_LENGTH) == 100u);
  const auto got = received(f, 1, 44);
  CHECK(std::vector<std::uint8_t>(got.begin(), got.begin() + 40) ==
        std::vector<std::uint8_t>(big.begin(), big.begin() + 40));
  CHECK(got[40] == 0xEE); // nothing beyond the capacity
  CHECK(f.counter("node1.nrdma.bytes") == 40);
  f.write(1, LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE);

  f.net->link("wire.node0.tx").set_in_flight_hook([](lanai::wire::Packet& p) {
    p.corrupt_byte(3, 0x10);
  });
  REQUIRE(arm(f, 1, 256) == LANAI_NRDMA_ACCEPTED);
  const auto small = payload_of(20, 3);
  REQUIRE(send(f, 0, 1, small) == LANAI_NSDMA_ACCEPTED);
  f.kernel.run();
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) ==
        (LANAI_NRDMA_STATUS_DONE | LANAI_NRDMA_STATUS_BAD_CRC));
  CHECK(f.read(1, LANAI_REG_NRDMA_LENGTH) == 20u);
  auto damaged = small;
  damaged[3] ^= 0x10;
  CHECK(received(f, 1, 20) == damaged);
  f.write(1, LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == 0u);

  // Receive buffers must lie in SRAM.
  f.write(1, LANAI_REG_NRDMA_SRAM, f.profile.lanai.sram_bytes - 8);
  f.write(1, LANAI_REG_NRDMA_CAPACITY, 16);
  f.write(1, LANAI_REG_NRDMA_ARM, 1);
  CHECK(f.read(1, LANAI_REG_NRDMA_RESULT) == LANAI_NRDMA_SRAM_RANGE);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == 0u);
}

TEST_CASE("an unarmed receiver holds packets in the fabric; re-armed, it gets them all in order") {
  Fixture f;
  constexpr std::uint32_t total = 3;
  std::uint32_t started = 0;
  // Card 0 sends the next packet whenever its send DMA is idle.
  auto pump = [&] {
    if (started < total && (f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_NSDMA_IDLE)) {
      REQUIRE(send(f, 0, 1, payload_of(64 + 16 * started, static_cast<std::uint8_t>(started))) ==
              LANAI_NSDMA_ACCEPTED);
      ++started;
    }
  };
  pump();
  f.advance(microseconds(100), pump);
  // The first packet waits at card 1's port and holds card 0's send DMA.
  CHECK(started == 1);
  CHECK(f.read(0, LANAI_REG_NSDMA_STATUS) == LANAI_NSDMA_STATUS_BUSY);
  CHECK(f.read(1, LANAI_REG_NRDMA_STATUS) == 0u);
  CHECK(f.counter("wire.node1.received") == 0);

  for (std::uint32_t k = 0; k < total; ++k) {
    CAPTURE(k);
    REQUIRE(arm(f, 1, 1024) == LANAI_NRDMA_ACCEPTED);
    f.advance(f.kernel.now() + microseconds(50), pump);
    REQUIRE(f.read(1, LANAI_REG_NRDMA_STATUS) == LANAI_NRDMA_STATUS_DONE);
    const auto expected = payload_of(64 + 16 * k, static_cast<std::uint8_t>(k));
    CHECK(f.read(1, LANAI_REG_NRDMA_LENGTH) == expected.size());
    CHECK(f.read(1, LANAI_REG_NRDMA_SOURCE) == 0u);
    CHECK(received(f, 1, expected.size()) == expected);
    // Held as DONE for 50 us: the next packet (if any) waits, it is not lost.
    CHECK(f.counter("wire.node1.received") == std::uint64_t{k} + 1);
    f.write(1, LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE);
  }
  f.advance(f.kernel.now() + microseconds(50), pump);
  CHECK(started == total);
  CHECK(f.read(0, LANAI_REG_NSDMA_STATUS) == total << 8);
  CHECK(f.counter("node1.nrdma.packets") == std::uint64_t{total});
  CHECK(f.counter("wire.node1.checksum_errors") == 0);
  CHECK(f.counter("wire.node1.misrouted") == 0);
  CHECK(f.card(0).devices_idle());
  CHECK(f.card(1).devices_idle());
}
