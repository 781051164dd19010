// The system registers the NIC adds: event status composed from the
// devices, the countdown timer in core cycles, host interrupts delivered by
// an event, the node number, and faults for addresses with no register.
#include <set>
#include <string>

#include "tests/nic/nic_fixture.hpp"

using namespace nic_test;
using lanai::iss::MmioStatus;
using lanai::kernel::microseconds;
using lanai::kernel::picoseconds;

TEST_CASE("a fresh card is idle: only the DMA idle bits are set") {
  Fixture f;
  CHECK(f.read(0, LANAI_REG_EVENT_STATUS) == (LANAI_EV_HDMA_IDLE | LANAI_EV_NSDMA_IDLE));
  CHECK(f.read(0, LANAI_REG_NODE_ID) == 0u);
  CHECK(f.read(1, LANAI_REG_NODE_ID) == 1u);
  CHECK(f.read(0, LANAI_REG_SRAM_SIZE) == f.profile.lanai.sram_bytes);
  CHECK(f.read(0, LANAI_REG_TIMER) == 0u);
  CHECK(f.read(0, LANAI_REG_HOST_INTERRUPT) == 0u);
  CHECK(f.card(0).devices_idle());
  CHECK(f.card(0).activity() == 0);
  CHECK(f.card(0).console().empty());
  CHECK_FALSE(f.card(0).firmware_running());
  CHECK(f.card(0).stop_report().empty());
  // Read-only registers ignore writes.
  f.write(0, LANAI_REG_NODE_ID, 9);
  f.write(0, LANAI_REG_EVENT_STATUS, 0xFFFFFFFF);
  CHECK(f.read(0, LANAI_REG_NODE_ID) == 0u);
  CHECK(f.read(0, LANAI_REG_EVENT_STATUS) == (LANAI_EV_HDMA_IDLE | LANAI_EV_NSDMA_IDLE));
}

TEST_CASE("addresses without a register are unmapped") {
  Fixture f;
  auto& bus = f.card(0).bus();
  std::uint32_t v = 0;
  for (const std::uint32_t a :
       {LANAI_REG(0x0038), LANAI_REG(0x00FC), LANAI_REG(0x0130), LANAI_REG(0x022C),
        LANAI_REG(0x0318), LANAI_REG(0x0424), LANAI_REG(0x0500), LANAI_REG(0xFFFC), 0x1000u}) {
    CAPTURE(a);
    CHECK(bus.read(a, 0, v) == MmioStatus::unmapped);
    CHECK(bus.write(a, 0, 0) == MmioStatus::unmapped);
  }
  CHECK(bus.write(LANAI_REG_EXIT, 0, 3) == MmioStatus::halt);
}

TEST_CASE("the timer counts core cycles down and sets a sticky bit at zero") {
  Fixture f;
  f.kernel.run_until(microseconds(3));
  const std::uint64_t c0 = f.cycle(0);
  f.write(0, LANAI_REG_TIMER, 1000);
  CHECK(f.read(0, LANAI_REG_TIMER) == 1000u);
  f.kernel.run_until(f.time_of_cycle(0, c0 + 100));
  CHECK(f.read(0, LANAI_REG_TIMER) == 900u);
  f.kernel.run_until(f.time_of_cycle(0, c0 + 1000) - picoseconds(1));
  CHECK(f.read(0, LANAI_REG_TIMER) == 1u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) == 0u);
  f.kernel.run_until(f.time_of_cycle(0, c0 + 1000));
  CHECK(f.read(0, LANAI_REG_TIMER) == 0u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) != 0u);
  f.kernel.run_until(f.kernel.now() + microseconds(50));
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) != 0u); // sticky
  CHECK((f.read(1, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) == 0u);
  f.write(0, LANAI_REG_TIMER, 0);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) == 0u);

  // Writing 0 cancels a running countdown.
  f.write(0, LANAI_REG_TIMER, 500);
  f.kernel.run_until(f.kernel.now() + microseconds(1));
  f.write(0, LANAI_REG_TIMER, 0);
  CHECK(f.read(0, LANAI_REG_TIMER) == 0u);
  f.kernel.run_until(f.kernel.now() + microseconds(100));
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) == 0u);
  CHECK(f.kernel.pending() == 0);

  // A new value restarts the countdown from the write.
  const std::uint64_t c1 = f.cycle(0);
  f.write(0, LANAI_REG_TIMER, 300);
  f.kernel.run_until(f.time_of_cycle(0, c1 + 200));
  f.write(0, LANAI_REG_TIMER, 400);
  f.kernel.run_until(f.time_of_cycle(0, c1 + 599));
  CHECK(f.read(0, LANAI_REG_TIMER) == 1u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) == 0u);
  f.kernel.run_until(f.time_of_cycle(0, c1 + 600));
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) != 0u);
  CHECK(f.card(0).activity() == 6); // four countdowns started, two expired
}

TEST_CASE("a host interrupt reaches the host by an event at the access time") {
  Fixture f;
  std::vector<std::pair<SimTime, std::uint32_t>> seen;
  f.card(1).set_on_host_interrupt([&](std::uint32_t w) { seen.emplace_back(f.kernel.now(), w); });
  f.kernel.run_until(microseconds(2));
  const std::uint32_t word = VIA_INTR_WORD(VIA_INTR_BAD_PACKET, 5);
  f.write(1, LANAI_REG_HOST_INTERRUPT, word);
  f.write(1, LANAI_REG_HOST_INTERRUPT, VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, 0xFFFF));
  CHECK(seen.empty()); // never inside the register write
  f.kernel.run_until(f.kernel.now());
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == std::pair<SimTime, std::uint32_t>{microseconds(2), word});
  CHECK(VIA_INTR_CODE(seen[1].second) == VIA_INTR_DOORBELL_LOST);
  CHECK(f.card(1).activity() == 2);
}

TEST_CASE("a register access ahead of the kernel takes effect at the core's time") {
  Fixture f;
  std::vector<SimTime> seen;
  f.card(0).set_on_host_interrupt([&](std::uint32_t) { seen.push_back(f.kernel.now()); });
  // The core may run ahead of the kernel's now within its slice.
  const std::uint64_t ahead = f.cycle(0) + 660; // 10 us at 66 MHz
  REQUIRE(f.card(0).bus().write(LANAI_REG_HOST_INTERRUPT, ahead, 1) == MmioStatus::ok);
  f.kernel.run();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == f.card(0).core().time_at(ahead));
  CHECK(seen[0] == microseconds(10));
}

TEST_CASE("the trace port keeps what the firmware wrote and costs nothing without a recorder") {
  Fixture f;
  auto& bus = f.card(0).bus();
  std::uint32_t v = 0;
  CHECK(bus.read(LANAI_REG_TRACE_TAG, 0, v) == MmioStatus::ok);
  CHECK(v == 0xFFFFFFFFu); // unlabelled until written
  CHECK(bus.write(LANAI_REG_TRACE_TAG, 0, (3u << 16) | 7u) == MmioStatus::ok);
  CHECK(bus.read(LANAI_REG_TRACE_TAG, 0, v) == MmioStatus::ok);
  CHECK(v == ((3u << 16) | 7u));
  CHECK(bus.write(LANAI_REG_TRACE_STATE, 0, 0x100) == MmioStatus::ok);
  CHECK(bus.read(LANAI_REG_TRACE_STATE, 0, v) == MmioStatus::ok);
  CHECK(v == 0x100u);
  CHECK(bus.write(LANAI_REG_TRACE_STAMP_LO, 0, 0x89ABCDEF) == MmioStatus::ok);
  CHECK(bus.write(LANAI_REG_TRACE_STAMP_HI, 0, 0x01234567) == MmioStatus::ok);
  CHECK(bus.read(LANAI_REG_TRACE_STAMP_LO, 0, v) == MmioStatus::ok);
  CHECK(v == 0x89ABCDEFu);
  CHECK(bus.read(LANAI_REG_TRACE_STAMP_HI, 0, v) == MmioStatus::ok);
  CHECK(v == 0x01234567u);
}

TEST_CASE("the LANai work meter counts marked states and leaves out marked waits") {
  Fixture f;
  const auto& meter = f.card(0).lanai_work();
  f.kernel.run_until(microseconds(1));
  CHECK_FALSE(meter.busy());
  f.write(0, LANAI_REG_TRACE_STATE, 0x100); // working from 1 us
  CHECK(meter.busy());
  f.kernel.run_until(microseconds(3));
  f.write(0, LANAI_REG_TRACE_WAIT, 1); // waiting on a device: 2 us of work so far
  CHECK_FALSE(meter.busy());
  CHECK(f.read(0, LANAI_REG_TRACE_WAIT) == 1u);
  f.kernel.run_until(microseconds(4));
  f.write(0, LANAI_REG_TRACE_WAIT, 0); // works again from 4 us
  CHECK(meter.busy());
  f.kernel.run_until(microseconds(5));
  CHECK(meter.busy_until(f.kernel.now()) == microseconds(3));
  f.write(0, LANAI_REG_TRACE_STATE, 0x200); // a new state clears the wait mark
  CHECK(f.read(0, LANAI_REG_TRACE_WAIT) == 0u);
  f.kernel.run_until(microseconds(6));
  f.write(0, LANAI_REG_TRACE_STATE, 0); // back to polling
  CHECK_FALSE(meter.busy());
  f.kernel.run_until(microseconds(10));
  CHECK(meter.total() == microseconds(4));
  CHECK(f.counter("node0.lanai.busy_ps") == static_cast<std::uint64_t>(microseconds(4).ps()));
  // The other card's firmware did nothing.
  CHECK(f.card(1).lanai_work().total() == lanai::kernel::SimTime::zero());
}

TEST_CASE("a state's name is the string at the address written, up to 64 bytes and SRAM's end") {
  Fixture f;
  lanai::trace::Recorder recorder;
  f.card(0).set_trace(&recorder);
  auto& cpu = f.card(0).cpu();
  const std::uint32_t sram = cpu.sram_bytes();
  auto put = [&](std::uint32_t at, const std::string& s, bool terminated) {
    std::vector<std::uint8_t> bytes(s.begin(), s.end());
    if (terminated)
      bytes.push_back(0);
    cpu.write_sram(at, bytes);
  };
  const std::string long_name(70, 'x');
  put(0x100, "serve", true);
  put(0x200, long_name, true);
  put(sram - 3, "end", false); // runs into the end of SRAM
  // Each state's span closes when the next one begins.
  const std::uint32_t states[] = {0x100, 0x200, sram - 3, sram + 16, 0};
  for (const std::uint32_t at : states) {
    f.kernel.run_until(f.kernel.now() + microseconds(1));
    f.write(0, LANAI_REG_TRACE_STATE, at);
  }
  std::vector<std::string> names;
  for (const auto& e : recorder.events())
    if (e.track == lanai::trace::Track::lanai)
      names.push_back(e.name);
  // A state with no name (outside SRAM) is polling: it leaves no span.
  CHECK(names == std::vector<std::string>{"serve", long_name.substr(0, 64), "end"});
}

TEST_CASE("the card's one clock register is the core's cycle counter, read at the access cycle") {
  // What the core's fast-forward of waits on the clock relies on: only
  // CYCLE_LO is a clock, and it reads the access cycle's low word; the
  // card's own registers of the system block are not clocks.
  Fixture f;
  auto& bus = f.card(0).bus();
  CHECK(bus.clock_read(LANAI_REG_CYCLE_LO));
  for (const std::uint32_t a :
       {LANAI_REG_CYCLE_HI, LANAI_REG_EVENT_STATUS, LANAI_REG_TIMER, LANAI_REG_HOST_INTERRUPT,
        LANAI_REG_NODE_ID, LANAI_REG_TRACE_STATE, LANAI_REG_SRAM_SIZE, LANAI_REG_DB_STATUS,
        LANAI_REG_HDMA_RESULT, 0x1000u}) {
    CAPTURE(a);
    CHECK_FALSE(bus.clock_read(a));
  }
  // The stable registers are what they were.
  CHECK(bus.stable_read(LANAI_REG_EVENT_STATUS));
  CHECK(bus.stable_read(LANAI_REG_TRACE_STATE));
  CHECK_FALSE(bus.stable_read(LANAI_REG_TIMER));
  CHECK_FALSE(bus.stable_read(LANAI_REG_CYCLE_LO));
  std::uint32_t v = 0;
  CHECK(bus.read(LANAI_REG_CYCLE_LO, 0x1234567890ull, v) == MmioStatus::ok);
  CHECK(v == 0x34567890u);
  CHECK(bus.read(LANAI_REG_CYCLE_HI, 0, v) == MmioStatus::ok);
  CHECK(v == 0x12u);
}

TEST_CASE("the card's direct registers are its reads and writes, made in place") {
  // A core running blocks reads the event word through a function and
  // writes the staging registers into their words (iss::MmioBus::
  // direct_register); each must do exactly what read() and write() do.
  Fixture f;
  auto& bus = f.card(0).bus();
  const std::set<std::uint32_t> staging = {
      LANAI_REG_HDMA_HOST_LO, LANAI_REG_HDMA_HOST_HI,   LANAI_REG_HDMA_HANDLE,
      LANAI_REG_HDMA_PTAG,    LANAI_REG_HDMA_SRAM,      LANAI_REG_HDMA_LENGTH,
      LANAI_REG_NSDMA_SRAM,   LANAI_REG_NSDMA_LENGTH,   LANAI_REG_NSDMA_ROUTE_LEN,
      LANAI_REG_NRDMA_SRAM,   LANAI_REG_NRDMA_CAPACITY, LANAI_REG_TRACE_TAG};
  std::set<std::uint32_t> with_word, with_read, with_clock;
  for (std::uint32_t a = LANAI_MMIO_BASE; a < LANAI_MMIO_BASE + 0x1000; a += 4) {
    const lanai::iss::DirectRegister d = bus.direct_register(a);
    if (d.read_clock != nullptr) {
      with_clock.insert(a);
      CHECK(bus.clock_read(a));
    }
    if (d.word != nullptr) {
      with_word.insert(a);
      CAPTURE(a);
      f.write(0, a, 0x5A5A0000u | (a & 0xFFFFu));
      CHECK(*d.word == (0x5A5A0000u | (a & 0xFFFFu)));
    }
    if (d.read != nullptr) {
      with_read.insert(a);
      CHECK(bus.stable_read(a));
    }
  }
  CHECK(with_word == staging);
  CHECK(with_read == std::set<std::uint32_t>{LANAI_REG_EVENT_STATUS});
  CHECK(with_clock == std::set<std::uint32_t>{LANAI_REG_CYCLE_LO});
  // The cycle counter read in place gives the access cycle's low word and
  // latches its high word, as read() does.
  const lanai::iss::DirectRegister clock = bus.direct_register(LANAI_REG_CYCLE_LO);
  CHECK(clock.read_clock(clock.clock_owner, 0x0000000A87654321ull) == 0x87654321u);
  CHECK(f.read(0, LANAI_REG_CYCLE_HI) == 0x0Au);
  std::uint32_t lo = 0;
  REQUIRE(bus.read(LANAI_REG_CYCLE_LO, 0x0000000B00000007ull, lo) == lanai::iss::MmioStatus::ok);
  CHECK(lo == 7u);
  CHECK(f.read(0, LANAI_REG_CYCLE_HI) == 0x0Bu);
  // The event word read in place follows the devices as read() does.
  const lanai::iss::DirectRegister event = bus.direct_register(LANAI_REG_EVENT_STATUS);
  CHECK(event.read(event.owner) == f.read(0, LANAI_REG_EVENT_STATUS));
  f.write(0, LANAI_REG_TIMER, 10);
  f.kernel.run_until(f.kernel.now() + lanai::kernel::microseconds(1));
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_TIMER) != 0u);
  CHECK(event.read(event.owner) == f.read(0, LANAI_REG_EVENT_STATUS));
  // The trace tag written in place is the tag read back.
  *bus.direct_register(LANAI_REG_TRACE_TAG).word = 0x00070009u;
  CHECK(f.read(0, LANAI_REG_TRACE_TAG) == 0x00070009u);
}
