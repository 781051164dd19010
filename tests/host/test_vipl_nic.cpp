// The NIC as a whole through the VIPL: opening "nic0" writes the card's
// configuration block, other names and bad handles are refused, queries
// report the provider's limits, names resolve to node addresses, and every
// call charges the host its cost in virtual time.
#include <doctest/doctest.h>

#include <cstring>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

TEST_CASE("outside an emulated node every VIPL call refuses") {
  VIP_NIC_HANDLE nic = nullptr;
  CHECK(VipOpenNic("nic0", &nic) == VIP_ERROR_RESOURCE);
  CHECK(lanai_emu_node() == -1);
  CHECK(lanai_emu_nodes() == 0);
  CHECK(lanai_emu_now_ns() == 0);
}

TEST_CASE("opening nic0 hands the card its configuration") {
  ViplCluster vipl(3);
  const auto report = vipl.run({
      [] { return 0; },
      [] {
        VIP_NIC_HANDLE nic = nullptr;
        CHECK(VipOpenNic("nic1", &nic) == VIP_INVALID_PARAMETER);
        CHECK(VipOpenNic("/dev/via_eth1", &nic) == VIP_INVALID_PARAMETER);
        CHECK(VipOpenNic(nullptr, &nic) == VIP_INVALID_PARAMETER);
        CHECK(VipOpenNic("nic0", nullptr) == VIP_INVALID_PARAMETER);
        CHECK(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
        CHECK(nic != nullptr);
        CHECK(lanai_emu_node() == 1);
        CHECK(lanai_emu_nodes() == 3);
        return 0;
      },
      [] {
        // The device names of the common VIA providers open the same NIC.
        for (const char* name : {"/dev/via_eth0", "/dev/via_lo", "/dev/clanvi0"}) {
          VIP_NIC_HANDLE nic = nullptr;
          CHECK_MESSAGE(VipOpenNic(name, &nic) == VIP_SUCCESS, name);
          CHECK(VipCloseNic(nic) == VIP_SUCCESS);
        }
        return 0;
      },
  });
  CHECK(report.success());
  CHECK(vipl.config_word(1, offsetof(via_nic_config_block, magic)) == VIA_CONFIG_MAGIC);
  CHECK(vipl.config_word(1, offsetof(via_nic_config_block, node)) == 1);
  CHECK(vipl.config_word(1, offsetof(via_nic_config_block, nodes)) == 3);
  // Route lengths of nodes 0..3, one byte each: none to itself.
  const std::uint32_t lengths = vipl.config_word(1, offsetof(via_nic_config_block, route_len));
  CHECK((lengths >> 24) == 1);
  CHECK(((lengths >> 16) & 0xFF) == 0);
  CHECK(((lengths >> 8) & 0xFF) == 1);
  CHECK((lengths & 0xFF) == 0);
  const auto route = vipl.cluster().network().route(1, 2);
  REQUIRE(route.size() == 1);
  const std::uint32_t to_node2 =
      vipl.config_word(1, offsetof(via_nic_config_block, route) + 2 * VIA_MAX_ROUTE);
  CHECK((to_node2 >> 24) == route[0]);
  for (std::uint32_t slot = 0; slot < VIA_MAX_VI; ++slot)
    CHECK(vipl.vi_word(1, slot, offsetof(via_vi_config, state)) == VIA_VI_FREE);
  // Node 0 never opened its NIC.
  CHECK(vipl.config_word(0, offsetof(via_nic_config_block, magic)) != VIA_CONFIG_MAGIC);
}

TEST_CASE("stale, foreign and made-up handles are refused, never trusted") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    VIP_NIC_HANDLE nic = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    VIP_PROTECTION_HANDLE ptag = nullptr;
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    VIP_NIC_ATTRIBUTES attributes{};
    CHECK(VipQueryNic(nullptr, &attributes) == VIP_INVALID_PARAMETER);
    CHECK(VipQueryNic(reinterpret_cast<VIP_NIC_HANDLE>(0x1234), &attributes) ==
          VIP_INVALID_PARAMETER);
    // A tag handle is no NIC handle, and the other way round.
    CHECK(VipQueryNic(ptag, &attributes) == VIP_INVALID_PARAMETER);
    CHECK(VipDestroyVi(nic) == VIP_INVALID_PARAMETER);
    CHECK(VipDestroyCQ(ptag) == VIP_INVALID_PARAMETER);
    CHECK(VipConnectReject(nic) == VIP_INVALID_PARAMETER);
    CHECK(VipCloseNic(nic) == VIP_SUCCESS);
    CHECK(VipCloseNic(nic) == VIP_INVALID_PARAMETER);
    CHECK(VipQueryNic(nic, &attributes) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("a handle of another node is refused on this one") {
  ViplCluster vipl(2);
  VIP_NIC_HANDLE node0_nic = nullptr;
  const auto report = vipl.run({
      [&] { return VipOpenNic("nic0", &node0_nic) == VIP_SUCCESS ? 0 : 1; },
      [&] {
        VIP_NIC_HANDLE mine = nullptr;
        REQUIRE(VipOpenNic("nic0", &mine) == VIP_SUCCESS);
        lanai_emu_compute_ns(1'000'000);
        REQUIRE(node0_nic != nullptr);
        CHECK(node0_nic != mine);
        VIP_NIC_ATTRIBUTES attributes{};
        CHECK(VipQueryNic(node0_nic, &attributes) == VIP_INVALID_PARAMETER);
        CHECK(VipQueryNic(mine, &attributes) == VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("VipQueryNic reports this provider's address and limits") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [] { return 0; },
      [] {
        VIP_NIC_HANDLE nic = nullptr;
        REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
        VIP_NIC_ATTRIBUTES a{};
        CHECK(VipQueryNic(nic, nullptr) == VIP_INVALID_PARAMETER);
        REQUIRE(VipQueryNic(nic, &a) == VIP_SUCCESS);
        CHECK(std::strcmp(a.Name, "nic0") == 0);
        CHECK(a.NicAddressLen == 2);
        REQUIRE(a.LocalNicAddress != nullptr);
        CHECK(a.LocalNicAddress[0] == 0);
        CHECK(a.LocalNicAddress[1] == 1);
        CHECK(a.MaxVI == VIA_MAX_VI);
        CHECK(a.MaxTransferSize == VIA_MAX_TRANSFER);
        CHECK(a.MaxSegmentsPerDesc == VIA_MAX_SEGMENTS);
        CHECK(a.MaxDescriptorsPerQueue == VIA_QUEUE_DEPTH);
        CHECK(a.RDMAReadSupport == 0);
        CHECK(a.ReliabilityLevelSupport == (VIP_SERVICE_UNRELIABLE | VIP_SERVICE_RELIABLE_DELIVERY |
                                            VIP_SERVICE_RELIABLE_RECEPTION));
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("the name service maps nodeK to node K's address and back") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [] {
        VIP_NIC_HANDLE nic = nullptr;
        REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
        CHECK(VipNSInit(nic, nullptr) == VIP_SUCCESS);
        Address address(0, 0);
        char name[16];
        std::strcpy(name, "node1");
        REQUIRE(VipNSGetHostByName(nic, name, address.get(), 0) == VIP_SUCCESS);
        CHECK(address.header.HostAddressLen == 2);
        CHECK(address.byte(0) == 0);
        CHECK(address.byte(1) == 1);
        CHECK(VipNSGetHostByName(nic, name, address.get(), 1) == VIP_ERROR_NAMESERVICE);
        for (const char* bad : {"node2", "node01", "node", "nodeX", "host1", "node-1", ""}) {
          std::strcpy(name, bad);
          CHECK_MESSAGE(VipNSGetHostByName(nic, name, address.get(), 0) == VIP_ERROR_NAMESERVICE,
                        bad);
        }
        CHECK(VipNSGetHostByName(nic, nullptr, address.get(), 0) == VIP_INVALID_PARAMETER);
        char back[16];
        VIP_ULONG length = sizeof back;
        Address node1(1, 9);
        REQUIRE(VipNSGetHostByAddr(nic, node1.get(), back, &length) == VIP_SUCCESS);
        CHECK(std::strcmp(back, "node1") == 0);
        CHECK(length == 6);
        length = 3;
        CHECK(VipNSGetHostByAddr(nic, node1.get(), back, &length) == VIP_ERROR_RESOURCE);
        length = sizeof back;
        Address nowhere(7, 0);
        CHECK(VipNSGetHostByAddr(nic, nowhere.get(), back, &length) == VIP_ERROR_NAMESERVICE);
        CHECK(VipNSShutdown(nic) == VIP_SUCCESS);
        return 0;
      },
      [] { return 0; },
  });
  CHECK(report.success());
}

TEST_CASE("each call charges the host's call cost; posting adds build and PCI write") {
  ViplCluster vipl(1);
  const auto& host = vipl.cluster().profile().host;
  std::uint64_t query_ns = 0;
  std::uint64_t post_ns = 0;
  std::uint64_t done_ns = 0;
  const auto report = vipl.run({[&] {
    NodeSetup node;
    VIP_NIC_ATTRIBUTES attributes{};
    std::uint64_t before = now_ns();
    CHECK(VipQueryNic(node.nic, &attributes) == VIP_SUCCESS);
    query_ns = now_ns() - before;
    before = now_ns();
    CHECK(VipPostRecv(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
    post_ns = now_ns() - before;
    VIP_DESCRIPTOR* done = nullptr;
    before = now_ns();
    CHECK(VipRecvDone(node.vi, &done) == VIP_NOT_DONE);
    done_ns = now_ns() - before;
    lanai_emu_compute_ns(12345);
    CHECK(now_ns() - before == done_ns + 12345);
    return 0;
  }});
  CHECK(report.success());
  CHECK(query_ns == host.call_ns);
  CHECK(post_ns == host.call_ns + host.post_ns + host.pio_write_ns);
  CHECK(done_ns == host.call_ns + host.poll_ns);
}

TEST_CASE("the launcher's seed reaches the programs") {
  auto config = test_config(1);
  config.seed = 424242;
  lanai::host::Cluster cluster(std::move(config));
  std::uint64_t seen = 0;
  const auto report = lanai::vipl::run_programs(cluster, {[&] {
                                                  seen = lanai_emu_seed();
                                                  return 0;
                                                }});
  CHECK(report.success());
  CHECK(seen == 424242);
}

TEST_CASE("system management information is the NIC's counters so far") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    NodeSetup node;
    LANAI_EMU_NIC_COUNTERS counters{};
    REQUIRE(VipQuerySystemManagementInfo(node.nic, LANAI_EMU_SMI_NIC_COUNTERS, &counters) ==
            VIP_SUCCESS);
    CHECK(counters.doorbells_rung == 0);
    CHECK(counters.packets_sent == 0);
    REQUIRE(VipPostRecv(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
    REQUIRE(VipPostRecv(node.vi, node.descriptor(1), node.memory) == VIP_SUCCESS);
    REQUIRE(VipQuerySystemManagementInfo(node.nic, LANAI_EMU_SMI_NIC_COUNTERS, &counters) ==
            VIP_SUCCESS);
    CHECK(counters.doorbells_rung == 2);
    CHECK(counters.doorbell_overflows == 0);
    CHECK(VipQuerySystemManagementInfo(node.nic, 7, &counters) == VIP_ERROR_NOT_SUPPORTED);
    CHECK(VipQuerySystemManagementInfo(node.nic, LANAI_EMU_SMI_NIC_COUNTERS, nullptr) ==
          VIP_INVALID_PARAMETER);
    CHECK(VipQuerySystemManagementInfo(nullptr, LANAI_EMU_SMI_NIC_COUNTERS, &counters) ==
          VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(report.success());
}
