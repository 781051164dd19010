// VI creation through the VIPL: attribute checks in VIA's order of
// precedence, the VI's entry in the card's configuration block (tag,
// reliability, MTU, QoS tick), queries, attribute changes, slot exhaustion
// and the rules for destroying a VI.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

namespace {
VIP_CQ_HANDLE make_cq(VIP_NIC_HANDLE nic) {
  VIP_CQ_HANDLE cq = nullptr;
  CHECK(VipCreateCQ(nic, 16, &cq) == VIP_SUCCESS);
  return cq;
}
} // namespace

TEST_CASE("VI attributes are checked: reliability, MTU, tag, RDMA, QoS, queues") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_NIC_HANDLE other = nullptr;
    VIP_PROTECTION_HANDLE ptag = nullptr;
    VIP_PROTECTION_HANDLE foreign = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipOpenNic("nic0", &other) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(other, &foreign) == VIP_SUCCESS);
    VIP_VI_HANDLE vi = nullptr;

    for (VIP_RELIABILITY_LEVEL level : {0ul, 3ul, 6ul, 8ul}) {
      VIP_VI_ATTRIBUTES a = vi_attributes(ptag, 8192, level);
      CHECK_MESSAGE(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_INVALID_RELIABILITY_LEVEL,
                    level);
    }
    for (VIP_ULONG mtu : {0ul, VIA_MAX_TRANSFER + 1ul}) {
      VIP_VI_ATTRIBUTES a = vi_attributes(ptag, mtu);
      CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_INVALID_MTU);
    }
    VIP_VI_ATTRIBUTES a = vi_attributes(nullptr);
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_INVALID_PTAG);
    a = vi_attributes(foreign);
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_INVALID_PTAG);
    a = vi_attributes(ptag);
    a.EnableRdmaRead = VIP_TRUE;
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_ERROR_NOT_SUPPORTED);
    CHECK(std::string(lanai_emu_last_error()) == "node0: the firmware does not do RDMA reads");
    a = vi_attributes(ptag);
    a.EnableRdmaWrite = VIP_TRUE;
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_ERROR_NOT_SUPPORTED);
    VIP_QOS_REQUEST too_fast{1'000'000'000ul};
    a = vi_attributes(ptag);
    a.QoS = &too_fast;
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_INVALID_QOS);
    VIP_CQ_HANDLE foreign_cq = make_cq(other);
    a = vi_attributes(ptag);
    CHECK(VipCreateVi(nic, &a, foreign_cq, nullptr, &vi) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(nic, &a, nullptr, ptag, &vi) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(nic, nullptr, nullptr, nullptr, &vi) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, nullptr) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(ptag, &a, nullptr, nullptr, &vi) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_SUCCESS);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("a new VI's entry in the configuration block carries its attributes") {
  ViplCluster vipl(1);
  const auto& profile = vipl.cluster().profile();
  const auto report = vipl.run({[] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_PROTECTION_HANDLE first = nullptr;
    VIP_PROTECTION_HANDLE second = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &first) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &second) == VIP_SUCCESS);
    VIP_VI_ATTRIBUTES best_effort = vi_attributes(first, 4096, VIP_SERVICE_UNRELIABLE);
    VIP_QOS_REQUEST rate{8'000'000ul};
    VIP_VI_ATTRIBUTES paced = vi_attributes(second, 4096, VIP_SERVICE_RELIABLE_RECEPTION);
    paced.QoS = &rate;
    VIP_VI_HANDLE a = nullptr;
    VIP_VI_HANDLE b = nullptr;
    REQUIRE(VipCreateVi(nic, &best_effort, nullptr, nullptr, &a) == VIP_SUCCESS);
    REQUIRE(VipCreateVi(nic, &paced, nullptr, nullptr, &b) == VIP_SUCCESS);
    // The request was copied: the program's struct may go away.
    rate.BandwidthBytesPerSec = 1;
    VIP_VI_STATE state{};
    VIP_VI_ATTRIBUTES seen{};
    VIP_BOOLEAN send_empty = VIP_FALSE;
    VIP_BOOLEAN recv_empty = VIP_FALSE;
    REQUIRE(VipQueryVi(b, &state, &seen, &send_empty, &recv_empty) == VIP_SUCCESS);
    CHECK(state == VIP_STATE_IDLE);
    CHECK(seen.ReliabilityLevel == VIP_SERVICE_RELIABLE_RECEPTION);
    CHECK(seen.MaxTransferSize == 4096);
    CHECK(seen.Ptag == second);
    REQUIRE(seen.QoS != nullptr);
    CHECK(seen.QoS->BandwidthBytesPerSec == 8'000'000ul);
    CHECK(send_empty == VIP_TRUE);
    CHECK(recv_empty == VIP_TRUE);
    CHECK(VipQueryVi(b, &state, &seen, nullptr, &recv_empty) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  REQUIRE(report.success());
  using F = via_vi_config;
  CHECK(vipl.vi_word(0, 0, offsetof(F, state)) == VIA_VI_IDLE);
  CHECK(vipl.vi_word(0, 0, offsetof(F, reliability)) == VIP_SERVICE_UNRELIABLE);
  CHECK(vipl.vi_word(0, 0, offsetof(F, mtu)) == 4096);
  CHECK(vipl.vi_word(0, 0, offsetof(F, vtick_lo)) == 0xFFFFFFFFu);
  CHECK(vipl.vi_word(0, 0, offsetof(F, vtick_hi)) == 0xFFFFFFFFu);
  CHECK(vipl.vi_word(0, 1, offsetof(F, state)) == VIA_VI_IDLE);
  CHECK(vipl.vi_word(0, 1, offsetof(F, reliability)) == VIP_SERVICE_RELIABLE_RECEPTION);
  const auto tag_a = vipl.vi_word(0, 0, offsetof(F, ptag));
  const auto tag_b = vipl.vi_word(0, 1, offsetof(F, ptag));
  CHECK(tag_a >= 1);
  CHECK(tag_b >= 1);
  CHECK(tag_a != tag_b);
  // 4096 bytes at 8 MB/s is 512 us between packets; in 66 MHz cycles:
  const double cycles = 4096.0 / 8e6 * profile.lanai.clock_mhz * 1e6;
  CHECK(vipl.vi_word(0, 1, offsetof(F, vtick_hi)) == 0);
  CHECK(vipl.vi_word(0, 1, offsetof(F, vtick_lo)) == static_cast<std::uint32_t>(cycles + 0.5));
  CHECK(vipl.vi_word(0, 2, offsetof(F, state)) == VIA_VI_FREE);
}

TEST_CASE("a NIC has VIA_MAX_VI VI slots; a destroyed VI frees its slot") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[&vipl] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_PROTECTION_HANDLE ptag = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    VIP_VI_ATTRIBUTES a = vi_attributes(ptag);
    std::vector<VIP_VI_HANDLE> vis(VIA_MAX_VI);
    for (auto& vi : vis)
      REQUIRE(VipCreateVi(nic, &a, nullptr, nullptr, &vi) == VIP_SUCCESS);
    VIP_VI_HANDLE extra = nullptr;
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &extra) == VIP_ERROR_RESOURCE);
    CHECK(VipDestroyVi(vis[5]) == VIP_SUCCESS);
    CHECK(vipl.vi_word(0, 5, offsetof(via_vi_config, state)) == VIA_VI_FREE);
    CHECK(VipDestroyVi(vis[5]) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateVi(nic, &a, nullptr, nullptr, &extra) == VIP_SUCCESS);
    CHECK(vipl.vi_word(0, 5, offsetof(via_vi_config, state)) == VIA_VI_IDLE);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("VipSetViAttributes re-checks and rewrites an idle VI") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[&vipl] {
    NodeSetup node;
    VIP_VI_ATTRIBUTES a = vi_attributes(node.ptag, 2048, VIP_SERVICE_UNRELIABLE);
    CHECK(VipSetViAttributes(node.vi, &a) == VIP_SUCCESS);
    CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, mtu)) == 2048);
    a.MaxTransferSize = 0;
    CHECK(VipSetViAttributes(node.vi, &a) == VIP_INVALID_MTU);
    CHECK(VipSetViAttributes(node.vi, nullptr) == VIP_INVALID_PARAMETER);
    CHECK(VipSetViAttributes(node.nic, &a) == VIP_INVALID_PARAMETER);
    CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, mtu)) == 2048);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("completion queues: sizes, attachment and emptiness") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    NodeSetup node(make_cq);
    VIP_CQ_HANDLE cq = nullptr;
    CHECK(VipCreateCQ(node.nic, 0, &cq) == VIP_INVALID_PARAMETER);
    CHECK(VipCreateCQ(node.nic, 1'000'000, &cq) == VIP_ERROR_RESOURCE);
    CHECK(VipCreateCQ(node.nic, 4, nullptr) == VIP_INVALID_PARAMETER);
    REQUIRE(VipCreateCQ(node.nic, 4, &cq) == VIP_SUCCESS);
    VIP_VI_HANDLE vi = nullptr;
    VIP_BOOLEAN receive = VIP_FALSE;
    CHECK(VipCQDone(cq, &vi, &receive) == VIP_NOT_DONE);
    CHECK(VipCQDone(cq, nullptr, &receive) == VIP_INVALID_PARAMETER);
    const auto before = now_ns();
    CHECK(VipCQWait(cq, 3, &vi, &receive) == VIP_TIMEOUT);
    CHECK(now_ns() - before >= 3'000'000);
    CHECK(VipResizeCQ(cq, 8) == VIP_SUCCESS);
    CHECK(VipResizeCQ(cq, 0) == VIP_INVALID_PARAMETER);
    CHECK(VipDestroyCQ(cq) == VIP_SUCCESS);
    CHECK(VipDestroyCQ(cq) == VIP_INVALID_PARAMETER);

    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("a CQ still fed by a VI cannot be destroyed") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    VIP_NIC_HANDLE nic = nullptr;
    VIP_PROTECTION_HANDLE ptag = nullptr;
    REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    VIP_CQ_HANDLE cq = make_cq(nic);
    VIP_VI_ATTRIBUTES a = vi_attributes(ptag);
    VIP_VI_HANDLE vi = nullptr;
    REQUIRE(VipCreateVi(nic, &a, nullptr, cq, &vi) == VIP_SUCCESS);
    CHECK(VipDestroyCQ(cq) == VIP_INVALID_STATE);
    REQUIRE(VipDestroyVi(vi) == VIP_SUCCESS);
    CHECK(VipDestroyCQ(cq) == VIP_SUCCESS);
    return 0;
  }});
  CHECK(report.success());
}
