// Network send and receive DMA between two cards: exact bytes and source
// node, the start-up and receive set-up times, refusals, truncation, bad
// checksums, stop/go backpressure while the receiver is not armed, and a
// sleeping sender held by it that wakes at the cycle it would have polled.
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

namespace {

namespace t = lanai::test;

// Both cards run it: node 1 waits `wait` cycles on its timer, then arms its
// receive DMA and polls until the packet is in; node 0, after `pad` no-ops
// (which set the phase of its poll against node 1's arming), sends the
// packet the test put at send_buffer and polls its send DMA until the
// packet has left. Each keeps the cycle it saw its end at, at 0x1000.
std::vector<std::uint32_t> late_arm_program(std::uint32_t length, std::uint32_t route_len,
                                            std::uint32_t wait, std::uint32_t pad) {
  std::vector<std::uint32_t> p;
  auto here = [&p] { return static_cast<std::uint32_t>(4 * p.size()); };
  // Writes each value to its register.
  auto set = [&p](std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> writes) {
    for (const auto& [reg, value] : writes) {
      p.push_back(t::sli(t::r6, value));
      p.push_back(t::sls(true, t::r6, sls_reg(reg)));
    }
  };
  // Reads `reg` until `bits` of it are set (`while_set`: clear).
  auto poll = [&p, &here](std::uint32_t reg, std::uint32_t bits, bool while_set) {
    const std::uint32_t lap = here();
    p.push_back(t::sls(false, t::r7, sls_reg(reg)));
    p.push_back(t::ri(t::and_, t::r7, t::r7, bits, true));
    p.push_back(t::br(while_set ? 6 : 7, lap)); // bne or beq
    p.push_back(t::nop);
  };
  auto finish = [&p] {
    p.push_back(t::sls(false, t::r3, sls_reg(LANAI_REG_CYCLE_LO)));
    p.push_back(t::sls(true, t::r3, 0x1000));
    p.push_back(t::sli(t::r3, 0));
    p.push_back(t::exit_with(t::r3));
  };
  constexpr std::uint32_t sender = 0x100;
  p.push_back(t::sls(false, t::r3, sls_reg(LANAI_REG_NODE_ID)));
  p.push_back(t::ri(t::and_, t::r3, t::r3, 0xFFFF, true));
  p.push_back(t::br(7, sender)); // beq: node 0
  p.push_back(t::nop);
  // The receiver.
  set({{LANAI_REG_TIMER, wait}});
  poll(LANAI_REG_EVENT_STATUS, LANAI_EV_TIMER, false);
  set({{LANAI_REG_NRDMA_SRAM, recv_buffer},
       {LANAI_REG_NRDMA_CAPACITY, 1024},
       {LANAI_REG_NRDMA_ARM, 1}});
  poll(LANAI_REG_NRDMA_STATUS, LANAI_NRDMA_STATUS_DONE, false);
  finish();
  // The sender.
  REQUIRE(here() <= sender);
  p.resize(sender / 4, t::nop);
  p.insert(p.end(), pad, t::nop);
  set({{LANAI_REG_NSDMA_SRAM, send_buffer},
       {LANAI_REG_NSDMA_LENGTH, length},
       {LANAI_REG_NSDMA_ROUTE_LEN, route_len},
       {LANAI_REG_NSDMA_START, 1}});
  poll(LANAI_REG_NSDMA_STATUS, LANAI_NSDMA_STATUS_BUSY, true);
  finish();
  return p;
}

struct LateArmRun {
  std::uint32_t sender_saw = 0, receiver_saw = 0;
  std::uint64_t sender_cycles = 0, receiver_cycles = 0, skipped = 0;
};

// `route`: the route from card 0 to card 1.
LateArmRun run_late_arm(const std::vector<std::uint8_t>& route, std::uint32_t wait,
                        std::uint32_t pad, bool fast_forward) {
  const auto payload = payload_of(8, 3);
  const auto route_len = static_cast<std::uint32_t>(route.size());
  lanai::iss::set_default_fast_forward(fast_forward);
  Fixture g(lanai::profile::default_profile(),
            late_arm_program(route_len + static_cast<std::uint32_t>(payload.size()), route_len,
                             wait, pad));
  lanai::iss::set_default_fast_forward(true);
  std::vector<std::uint8_t> packet = route;
  packet.insert(packet.end(), payload.begin(), payload.end());
  g.card(0).write_sram(send_buffer, packet);
  g.card(0).start();
  g.card(1).start();
  g.kernel.run();
  REQUIRE_FALSE(g.card(0).firmware_running());
  REQUIRE_FALSE(g.card(1).firmware_running());
  CHECK(received(g, 1, payload.size()) == payload);
  LateArmRun r;
  r.sender_saw = g.card(0).read_sram_word(0x1000);
  r.receiver_saw = g.card(1).read_sram_word(0x1000);
  r.sender_cycles = g.card(0).cpu().cycles();
  r.receiver_cycles = g.card(1).cpu().cycles();
  r.skipped = g.card(0).cpu().skipped_cycles() + g.card(1).cpu().skipped_cycles();
  return r;
}

} // namespace

TEST_CASE("a sender asleep on a packet held by a receiver that arms late sees it leave at the "
          "same cycle as when it polls all along") {
  // The packet waits at card 1's port until the card arms. It is short
  // enough to have left card 0 whole (the switch holds it), so card 1's
  // arming, a late event of card 1, hands card 0's link back at that very
  // time, while card 0's core sleeps in its poll. Over arming times and
  // phases of card 0's poll against them, the cycles both cores see their
  // ends at are those of cores that never sleep.
  const std::vector<std::uint8_t> route = Fixture().net->route(0, 1);
  std::uint64_t skipped = 0;
  for (std::uint32_t wait = 6000; wait < 6016; ++wait)
    for (std::uint32_t pad = 0; pad < 8; ++pad) {
      CAPTURE(wait);
      CAPTURE(pad);
      const LateArmRun fast = run_late_arm(route, wait, pad, true),
                       plain = run_late_arm(route, wait, pad, false);
      CHECK(fast.sender_saw == plain.sender_saw);
      CHECK(fast.receiver_saw == plain.receiver_saw);
      CHECK(fast.sender_cycles == plain.sender_cycles);
      CHECK(fast.receiver_cycles == plain.receiver_cycles);
      CHECK(plain.skipped == 0);
      CHECK(fast.sender_saw > wait); // the packet left once card 1 had armed
      skipped += fast.skipped;
    }
  CHECK(skipped > 0); // the cores did sleep
}
