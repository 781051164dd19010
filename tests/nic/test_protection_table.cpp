// The protection table on its own: handles are never 0, carry their node,
// go stale on removal, and checks tell bad handle, wrong tag and bounds apart.
#include <doctest/doctest.h>

#include <stdexcept>

#include "emulator/nic/protection_table.hpp"

using lanai::nic::Access;
using lanai::nic::ProtectionCheck;
using lanai::nic::ProtectionTable;
using lanai::nic::Registration;

TEST_CASE("protection table checks handle, tag and bounds in that order") {
  ProtectionTable t(3);
  const std::uint32_t h = t.add(Registration{0x10000, 0x100, 7, false, false});
  CHECK(h != 0);
  CHECK(t.live() == 1);
  REQUIRE(t.find(h) != nullptr);
  CHECK(t.find(h)->length == 0x100);

  CHECK(t.check(h, 7, 0x10000, 0x100) == ProtectionCheck::ok);
  CHECK(t.check(h, 7, 0x100FF, 1) == ProtectionCheck::ok);
  CHECK(t.check(h, 7, 0x10100, 0) == ProtectionCheck::ok); // empty transfer at the end
  CHECK(t.check(h, 7, 0x100FF, 2) == ProtectionCheck::out_of_bounds);
  CHECK(t.check(h, 7, 0xFFFF, 1) == ProtectionCheck::out_of_bounds);
  CHECK(t.check(h, 7, 0x10001, ~std::uint64_t{0}) == ProtectionCheck::out_of_bounds);
  CHECK(t.check(h, 8, 0x10000, 1) == ProtectionCheck::wrong_tag);
  CHECK(t.check(h, 8, 0, 1 << 30) == ProtectionCheck::wrong_tag);
  CHECK(t.check(0, 7, 0x10000, 1) == ProtectionCheck::bad_handle);
  CHECK(t.check(h + 1, 7, 0x10000, 1) == ProtectionCheck::bad_handle);
  CHECK(to_string(ProtectionCheck::wrong_tag) == "wrong_tag");
}

TEST_CASE("handles of another node and removed handles never match") {
  ProtectionTable a(0), b(1);
  const Registration r{0x5000, 64, 1, false, false};
  const std::uint32_t ha = a.add(r);
  const std::uint32_t hb = b.add(r);
  CHECK(ha != hb);
  CHECK(a.check(hb, 1, 0x5000, 64) == ProtectionCheck::bad_handle);
  CHECK(b.check(ha, 1, 0x5000, 64) == ProtectionCheck::bad_handle);

  CHECK(a.remove(ha));
  CHECK_FALSE(a.remove(ha));
  CHECK(a.live() == 0);
  CHECK(a.check(ha, 1, 0x5000, 64) == ProtectionCheck::bad_handle);
  // The slot is reused under a new handle; the old one stays dead.
  const std::uint32_t again = a.add(r);
  CHECK(again != ha);
  CHECK(a.check(again, 1, 0x5000, 64) == ProtectionCheck::ok);
  CHECK(a.check(ha, 1, 0x5000, 64) == ProtectionCheck::bad_handle);
}

TEST_CASE("a full protection table refuses more regions") {
  ProtectionTable t(0);
  for (std::size_t i = 0; i < ProtectionTable::max_regions; ++i)
    t.add(Registration{i * 16, 16, 0});
  CHECK(t.live() == ProtectionTable::max_regions);
  CHECK_THROWS_AS(t.add(Registration{}), std::length_error);
}

TEST_CASE("a region's tag and permissions change in place; stale handles change nothing") {
  lanai::nic::ProtectionTable table(2);
  const std::uint32_t handle = table.add({0x1000, 0x100, 5, false, false});
  CHECK(table.change(handle, 9, true, false));
  CHECK(table.check(handle, 5, 0x1000, 4) == lanai::nic::ProtectionCheck::wrong_tag);
  CHECK(table.check(handle, 9, 0x1000, 4) == lanai::nic::ProtectionCheck::ok);
  CHECK(table.find(handle)->rdma_write);
  CHECK(table.find(handle)->length == 0x100);
  CHECK(table.remove(handle));
  CHECK_FALSE(table.change(handle, 5, false, false));
  CHECK(table.live() == 0);
}

TEST_CASE("a remote write needs a region open to remote writes, after every other check") {
  using lanai::nic::ProtectionCheck;
  lanai::nic::ProtectionTable table(1);
  const std::uint32_t closed = table.add({0x1000, 0x100, 5, false, false});
  const std::uint32_t open = table.add({0x2000, 0x100, 5, true, false});
  CHECK(table.check(closed, 5, 0x1000, 4) == ProtectionCheck::ok);
  CHECK(table.check(closed, 5, 0x1000, 4, Access::remote_write) == ProtectionCheck::remote_refused);
  CHECK(table.check(open, 5, 0x2000, 0x100, Access::remote_write) == ProtectionCheck::ok);
  CHECK(table.check(open, 6, 0x2000, 4, Access::remote_write) == ProtectionCheck::wrong_tag);
  CHECK(table.check(open, 5, 0x20F0, 0x20, Access::remote_write) == ProtectionCheck::out_of_bounds);
  CHECK(to_string(ProtectionCheck::remote_refused) == "remote_refused");
  // Opened later, it takes remote writes from then on.
  CHECK(table.change(closed, 5, true, false));
  CHECK(table.check(closed, 5, 0x1000, 4, Access::remote_write) == ProtectionCheck::ok);
}

TEST_CASE("a remote read needs a region open to remote reads, whatever it allows writers") {
  lanai::nic::ProtectionTable table(1);
  const std::uint32_t writable = table.add({0x1000, 0x100, 5, true, false});
  const std::uint32_t readable = table.add({0x2000, 0x100, 5, false, true});
  CHECK(table.check(writable, 5, 0x1000, 4, Access::remote_read) ==
        ProtectionCheck::remote_refused);
  CHECK(table.check(readable, 5, 0x2000, 0x100, Access::remote_read) == ProtectionCheck::ok);
  CHECK(table.check(readable, 5, 0x2000, 4, Access::remote_write) ==
        ProtectionCheck::remote_refused);
  CHECK(table.check(readable, 6, 0x2000, 4, Access::remote_read) == ProtectionCheck::wrong_tag);
  CHECK(table.check(readable, 5, 0x20F0, 0x20, Access::remote_read) ==
        ProtectionCheck::out_of_bounds);
  CHECK(table.change(writable, 5, true, true));
  CHECK(table.check(writable, 5, 0x1000, 4, Access::remote_read) == ProtectionCheck::ok);
}
