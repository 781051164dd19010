// Protection tags and memory registration through the VIPL: registering
// puts the region into the NIC's protection table with its tag, for the
// profile's registration time; bad arguments, foreign tags and unknown
// handles are refused; a tag in use cannot be destroyed; a region can be
// given another tag and RDMA permission.
#include <doctest/doctest.h>

#include <vector>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

TEST_CASE("registering memory enters the NIC's protection table, with the tag's number") {
  ViplCluster vipl(1);
  auto& table = vipl.cluster().protection(0);
  const auto register_ns = vipl.cluster().profile().host.register_ns;
  const auto call_ns = vipl.cluster().profile().host.call_ns;
  std::vector<unsigned char> memory(1000);
  const auto report = vipl.run({[&] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_PROTECTION_HANDLE ptag = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    VIP_MEM_ATTRIBUTES attributes{ptag, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE handle = 0;
    const auto before = now_ns();
    REQUIRE(VipRegisterMem(nic, memory.data(), memory.size(), &attributes, &handle) == VIP_SUCCESS);
    CHECK(now_ns() - before == call_ns + register_ns);
    CHECK(handle != 0);
    CHECK(table.live() == 1);
    const auto* region = table.find(handle);
    REQUIRE(region != nullptr);
    CHECK(region->address == reinterpret_cast<std::uintptr_t>(memory.data()));
    CHECK(region->length == memory.size());
    CHECK(region->ptag >= 1);
    CHECK(table.check(handle, region->ptag, region->address + 10, 100) ==
          lanai::nic::ProtectionCheck::ok);

    VIP_MEM_ATTRIBUTES queried{};
    CHECK(VipQueryMem(nic, memory.data() + 999, handle, &queried) == VIP_SUCCESS);
    CHECK(queried.Ptag == ptag);
    CHECK(VipQueryMem(nic, memory.data() + 1000, handle, &queried) == VIP_INVALID_PARAMETER);

    // Deregistering names the region by its start.
    CHECK(VipDeregisterMem(nic, memory.data() + 1, handle) == VIP_INVALID_PARAMETER);
    CHECK(VipDeregisterMem(nic, memory.data(), handle + 12345) == VIP_INVALID_PARAMETER);
    CHECK(VipDeregisterMem(nic, memory.data(), handle) == VIP_SUCCESS);
    CHECK(table.live() == 0);
    CHECK(table.find(handle) == nullptr);
    CHECK(VipDeregisterMem(nic, memory.data(), handle) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("registration arguments are checked before anything is registered") {
  ViplCluster vipl(1);
  auto& table = vipl.cluster().protection(0);
  std::vector<unsigned char> memory(256);
  const auto report = vipl.run({[&] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_NIC_HANDLE other = nullptr;
    VIP_PROTECTION_HANDLE ptag = nullptr;
    VIP_PROTECTION_HANDLE foreign = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipOpenNic("nic0", &other) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(other, &foreign) == VIP_SUCCESS);
    VIP_MEM_ATTRIBUTES good{ptag, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE handle = 0;
    CHECK(VipRegisterMem(nic, nullptr, 16, &good, &handle) == VIP_INVALID_PARAMETER);
    CHECK(VipRegisterMem(nic, memory.data(), 0, &good, &handle) == VIP_INVALID_PARAMETER);
    CHECK(VipRegisterMem(nic, memory.data(), 16, nullptr, &handle) == VIP_INVALID_PARAMETER);
    CHECK(VipRegisterMem(nic, memory.data(), 16, &good, nullptr) == VIP_INVALID_PARAMETER);
    CHECK(VipRegisterMem(nullptr, memory.data(), 16, &good, &handle) == VIP_INVALID_PARAMETER);
    VIP_MEM_ATTRIBUTES no_tag{nullptr, VIP_FALSE, VIP_FALSE};
    CHECK(VipRegisterMem(nic, memory.data(), 16, &no_tag, &handle) == VIP_INVALID_PTAG);
    VIP_MEM_ATTRIBUTES other_nics_tag{foreign, VIP_FALSE, VIP_FALSE};
    CHECK(VipRegisterMem(nic, memory.data(), 16, &other_nics_tag, &handle) == VIP_INVALID_PTAG);
    VIP_MEM_ATTRIBUTES rdma_read{ptag, VIP_FALSE, VIP_TRUE};
    CHECK(VipRegisterMem(nic, memory.data(), 16, &rdma_read, &handle) == VIP_INVALID_RDMAREAD);
    CHECK(table.live() == 0);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("tags are numbered per NIC and cannot be destroyed while in use") {
  ViplCluster vipl(1);
  std::vector<unsigned char> memory(64);
  const auto report = vipl.run({[&] {
    VIP_NIC_HANDLE nic = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    VIP_PROTECTION_HANDLE a = nullptr;
    VIP_PROTECTION_HANDLE b = nullptr;
    CHECK(VipCreatePtag(nic, nullptr) == VIP_INVALID_PARAMETER);
    REQUIRE(VipCreatePtag(nic, &a) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &b) == VIP_SUCCESS);
    CHECK(a != b);

    VIP_MEM_ATTRIBUTES attributes{a, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE handle = 0;
    REQUIRE(VipRegisterMem(nic, memory.data(), memory.size(), &attributes, &handle) == VIP_SUCCESS);
    CHECK(VipDestroyPtag(nic, a) == VIP_INVALID_STATE);
    REQUIRE(VipDeregisterMem(nic, memory.data(), handle) == VIP_SUCCESS);

    VIP_VI_ATTRIBUTES vi_attrs = vi_attributes(b);
    VIP_VI_HANDLE vi = nullptr;
    REQUIRE(VipCreateVi(nic, &vi_attrs, nullptr, nullptr, &vi) == VIP_SUCCESS);
    CHECK(VipDestroyPtag(nic, b) == VIP_INVALID_STATE);
    REQUIRE(VipDestroyVi(vi) == VIP_SUCCESS);

    CHECK(VipDestroyPtag(nic, a) == VIP_SUCCESS);
    CHECK(VipDestroyPtag(nic, b) == VIP_SUCCESS);
    CHECK(VipDestroyPtag(nic, a) == VIP_INVALID_PARAMETER);
    CHECK(VipDestroyPtag(nic, nic) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("closing the NIC releases its regions") {
  ViplCluster vipl(1);
  auto& table = vipl.cluster().protection(0);
  std::vector<unsigned char> memory(64);
  const auto report = vipl.run({[&] {
    NodeSetup node;
    VIP_MEM_ATTRIBUTES attributes{node.ptag, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE handle = 0;
    REQUIRE(VipRegisterMem(node.nic, memory.data(), memory.size(), &attributes, &handle) ==
            VIP_SUCCESS);
    CHECK(table.live() == 2);
    CHECK(VipCloseNic(node.nic) == VIP_SUCCESS);
    CHECK(table.live() == 0);
    CHECK(VipDestroyVi(node.vi) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE(
    "a region's tag and RDMA permission change in the NIC's table; bad changes change nothing") {
  ViplCluster vipl(1);
  auto& table = vipl.cluster().protection(0);
  std::vector<unsigned char> memory(4096);
  const auto report = vipl.run({[&] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_PROTECTION_HANDLE first = nullptr;
    VIP_PROTECTION_HANDLE second = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &first) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &second) == VIP_SUCCESS);
    VIP_MEM_ATTRIBUTES attributes{first, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE handle = 0;
    REQUIRE(VipRegisterMem(nic, memory.data(), memory.size(), &attributes, &handle) == VIP_SUCCESS);
    const std::uint32_t first_number = table.find(handle)->ptag;

    // Refused: not the region's start, unknown handle, no attributes, a
    // tag that is none of this NIC's, RDMA read.
    VIP_MEM_ATTRIBUTES change{second, VIP_TRUE, VIP_FALSE};
    CHECK(VipSetMemAttributes(nic, memory.data() + 1, handle, &change) == VIP_INVALID_PARAMETER);
    CHECK(VipSetMemAttributes(nic, memory.data(), handle + 12345, &change) ==
          VIP_INVALID_PARAMETER);
    CHECK(VipSetMemAttributes(nic, memory.data(), handle, nullptr) == VIP_INVALID_PARAMETER);
    VIP_MEM_ATTRIBUTES no_tag{nullptr, VIP_FALSE, VIP_FALSE};
    CHECK(VipSetMemAttributes(nic, memory.data(), handle, &no_tag) == VIP_INVALID_PTAG);
    VIP_MEM_ATTRIBUTES read{second, VIP_FALSE, VIP_TRUE};
    CHECK(VipSetMemAttributes(nic, memory.data(), handle, &read) == VIP_INVALID_RDMAREAD);
    CHECK(table.find(handle)->ptag == first_number);
    CHECK_FALSE(table.find(handle)->rdma_write);

    CHECK(VipSetMemAttributes(nic, memory.data(), handle, &change) == VIP_SUCCESS);
    const auto* region = table.find(handle);
    REQUIRE(region != nullptr);
    CHECK(region->ptag != first_number);
    CHECK(region->rdma_write);
    CHECK(region->length == memory.size());
    CHECK(table.check(handle, first_number, region->address, 64) ==
          lanai::nic::ProtectionCheck::wrong_tag);
    VIP_MEM_ATTRIBUTES queried{};
    CHECK(VipQueryMem(nic, memory.data(), handle, &queried) == VIP_SUCCESS);
    CHECK(queried.Ptag == second);
    CHECK(queried.EnableRdmaWrite == VIP_TRUE);
    // The first tag is free now, the second in use.
    CHECK(VipDestroyPtag(nic, second) == VIP_INVALID_STATE);
    CHECK(VipDestroyPtag(nic, first) == VIP_SUCCESS);
    return 0;
  }});
  CHECK(report.success());
}
