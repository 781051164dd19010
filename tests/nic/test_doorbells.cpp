// The doorbell FIFO through its registers: arrival order across VIs, the
// latches, overflow counting with its sticky bit, and per-VI queues.
#include "tests/nic/nic_fixture.hpp"
#include "emulator/nic/doorbell_fifo.hpp"

using namespace nic_test;
using lanai::profile::default_profile;

namespace {

via_doorbell doorbell(std::uint32_t vi_queue, std::uint32_t handle, std::uint64_t descriptor) {
  return via_doorbell{vi_queue, handle, descriptor};
}

struct Entry {
  std::uint32_t vi, addr_lo, addr_hi, handle;
  friend bool operator==(const Entry&, const Entry&) = default;
};

Entry pop(Fixture& f, std::size_t n) {
  REQUIRE(f.read(n, LANAI_REG_DB_POP) == 1u);
  return {f.read(n, LANAI_REG_DB_ENTRY_VI), f.read(n, LANAI_REG_DB_ENTRY_ADDR_LO),
          f.read(n, LANAI_REG_DB_ENTRY_ADDR_HI), f.read(n, LANAI_REG_DB_ENTRY_HANDLE)};
}

} // namespace

TEST_CASE("FIFO mode keeps arrival order across VIs and latches whole entries") {
  Fixture f;
  auto& card = f.card(0);
  CHECK(f.read(0, LANAI_REG_DB_MODE) == 0u);
  CHECK(f.read(0, LANAI_REG_DB_CAPACITY) == 64u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL) == 0u);

  CHECK(card.ring_doorbell(doorbell(3, 0x11, 0x0000'0001'2345'6780)));
  CHECK(card.ring_doorbell(doorbell(1 | VIA_DOORBELL_RECV, 0x22, 0x40)));
  CHECK(card.ring_doorbell(doorbell(3 | VIA_DOORBELL_RECV, 0x33, 0xFFFF'FFFF'0000'0080)));
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == 3u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL) != 0u);
  CHECK_FALSE(card.devices_idle());

  CHECK(pop(f, 0) == Entry{3, 0x23456780, 0x1, 0x11});
  CHECK(pop(f, 0) == Entry{1 | LANAI_DB_ENTRY_RECV, 0x40, 0, 0x22});
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == 1u);
  CHECK(pop(f, 0) == Entry{3 | LANAI_DB_ENTRY_RECV, 0x80, 0xFFFFFFFF, 0x33});
  // Empty: POP answers 0 and the latches keep the last entry.
  CHECK(f.read(0, LANAI_REG_DB_POP) == 0u);
  CHECK(f.read(0, LANAI_REG_DB_ENTRY_HANDLE) == 0x33u);
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == 0u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL) == 0u);
  CHECK(card.devices_idle());
  CHECK(f.counter("node0.doorbell.rung") == 3);
  // The other card saw none of it.
  CHECK(f.read(1, LANAI_REG_DB_STATUS) == 0u);
}

TEST_CASE("each entry carries the LANai cycle at which it was rung") {
  Fixture f;
  auto& card = f.card(0);
  f.kernel.run_until(lanai::kernel::microseconds(2));
  const std::uint64_t first = f.cycle(0);
  CHECK(card.ring_doorbell(doorbell(1, 0x11, 0x40)));
  f.kernel.run_until(lanai::kernel::microseconds(5));
  const std::uint64_t second = f.cycle(0);
  CHECK(card.ring_doorbell(doorbell(2, 0x22, 0x80)));
  f.kernel.run_until(lanai::kernel::microseconds(9));
  auto stamp = [&] {
    return (std::uint64_t{f.read(0, LANAI_REG_DB_ENTRY_TIME_HI)} << 32) |
           f.read(0, LANAI_REG_DB_ENTRY_TIME_LO);
  };
  // Popped late, both still tell when the host rang.
  CHECK(pop(f, 0) == Entry{1, 0x40, 0, 0x11});
  CHECK(stamp() == first);
  CHECK(pop(f, 0) == Entry{2, 0x80, 0, 0x22});
  CHECK(stamp() == second);
  CHECK(second > first);
  CHECK(first > 0u);
  f.write(0, LANAI_REG_DB_ENTRY_TIME_LO, 0); // read-only
  CHECK(stamp() == second);
}

TEST_CASE("a full FIFO drops, counts and flags until the firmware clears the flag") {
  auto p = default_profile();
  p.nic.doorbell_entries = 4;
  Fixture f(p);
  auto& card = f.card(0);
  for (std::uint32_t i = 0; i < 4; ++i)
    CHECK(card.ring_doorbell(doorbell(i, i, i * 64)));
  CHECK_FALSE(card.ring_doorbell(doorbell(9, 9, 9)));
  CHECK_FALSE(card.ring_doorbell(doorbell(10, 10, 10)));
  CHECK(f.read(0, LANAI_REG_DB_OVERFLOWS) == 2u);
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == (4u | LANAI_DB_STATUS_OVERFLOW));
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW)) ==
        (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW));
  CHECK(f.counter("node0.doorbell.overflows") == 2);

  // Popping makes room but the flag is sticky.
  CHECK(pop(f, 0).vi == 0u);
  CHECK(card.ring_doorbell(doorbell(11, 11, 11)));
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == (4u | LANAI_DB_STATUS_OVERFLOW));
  // Writing anything but the overflow bit leaves it.
  f.write(0, LANAI_REG_DB_STATUS, 0x7FFFFFFF);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL_OVERFLOW) != 0u);
  f.write(0, LANAI_REG_DB_STATUS, LANAI_DB_STATUS_OVERFLOW);
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == 4u);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL_OVERFLOW) == 0u);
  CHECK(f.read(0, LANAI_REG_DB_OVERFLOWS) == 2u); // the count is not cleared
  // The survivors, in order: the dropped ones are gone.
  CHECK(pop(f, 0).vi == 1u);
  CHECK(pop(f, 0).vi == 2u);
  CHECK(pop(f, 0).vi == 3u);
  CHECK(pop(f, 0).vi == 11u);
  CHECK(f.read(0, LANAI_REG_DB_POP) == 0u);
}

TEST_CASE("per-VI mode keeps one bounded queue per VI behind DB_SELECT") {
  auto p = default_profile();
  p.nic.per_vi_doorbells = 1;
  p.nic.doorbell_entries = 2;
  Fixture f(p);
  auto& card = f.card(0);
  CHECK(f.read(0, LANAI_REG_DB_MODE) == 1u);
  CHECK(f.read(0, LANAI_REG_DB_CAPACITY) == 2u);

  CHECK(card.ring_doorbell(doorbell(5, 0x51, 0x500)));
  CHECK(card.ring_doorbell(doorbell(5 | VIA_DOORBELL_RECV, 0x52, 0x540)));
  CHECK_FALSE(card.ring_doorbell(doorbell(5, 0x53, 0x580)));   // VI 5's queue is full
  CHECK(card.ring_doorbell(doorbell(7, 0x71, 0x700)));         // VI 7 is not affected
  CHECK_FALSE(card.ring_doorbell(doorbell(VIA_MAX_VI, 1, 1))); // no such VI
  CHECK(f.read(0, LANAI_REG_DB_OVERFLOWS) == 1u);
  CHECK(f.counter("node0.doorbell.overflows") == 1);
  CHECK(f.counter("node0.doorbell.bad_vi") == 1);
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL) != 0u);

  // DB_SELECT starts at VI 0, whose queue is empty.
  CHECK(f.read(0, LANAI_REG_DB_SELECT) == 0u);
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == LANAI_DB_STATUS_OVERFLOW);
  CHECK(f.read(0, LANAI_REG_DB_POP) == 0u);

  f.write(0, LANAI_REG_DB_SELECT, 7);
  CHECK(f.read(0, LANAI_REG_DB_SELECT) == 7u);
  CHECK(f.read(0, LANAI_REG_DB_STATUS) == (1u | LANAI_DB_STATUS_OVERFLOW));
  CHECK(pop(f, 0) == Entry{7, 0x700, 0, 0x71});
  CHECK(f.read(0, LANAI_REG_DB_POP) == 0u);

  f.write(0, LANAI_REG_DB_SELECT, 5);
  CHECK((f.read(0, LANAI_REG_DB_STATUS) & LANAI_DB_STATUS_COUNT_MASK) == 2u);
  CHECK(pop(f, 0) == Entry{5, 0x500, 0, 0x51});
  CHECK(pop(f, 0) == Entry{5 | LANAI_DB_ENTRY_RECV, 0x540, 0, 0x52});
  CHECK((f.read(0, LANAI_REG_EVENT_STATUS) & LANAI_EV_DOORBELL) == 0u);

  // A selection beyond the VIs shows an empty queue.
  f.write(0, LANAI_REG_DB_SELECT, 1000);
  CHECK(f.read(0, LANAI_REG_DB_POP) == 0u);
  CHECK(card.doorbells().waiting() == 0);
}
