// Peer-to-peer connections through the VIPL: two ends asking for each
// other connect whichever asks first (or when the requests cross), the
// outcome is read by looking (Done) or blocking (Wait), attribute
// mismatches fail on both ends, an unanswered request times out, and the
// calls refuse what they cannot do.
#include <doctest/doctest.h>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

namespace {

// Node 0 (discriminator 1) and node 1 (discriminator 2) ask for each other,
// node 1 `delay_ns` later; node 0 waits, node 1 polls with Done.
void connect_peers(std::uint64_t delay_ns) {
  ViplCluster vipl(2);
  std::uint64_t connected_at[2] = {0, 0};
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        Address local(0, 1);
        Address remote(1, 2);
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), VIP_INFINITE) ==
                VIP_SUCCESS);
        CHECK(state_of(node.vi) == VIP_STATE_CONNECT_PENDING);
        CHECK(VipConnectPeerRequest(node.vi, local.get(), remote.get(), VIP_INFINITE) ==
              VIP_INVALID_STATE);
        VIP_VI_ATTRIBUTES attributes{};
        REQUIRE(VipConnectPeerWait(node.vi, &attributes) == VIP_SUCCESS);
        connected_at[0] = now_ns();
        CHECK(attributes.MaxTransferSize == 8192);
        CHECK(attributes.ReliabilityLevel == VIP_SERVICE_RELIABLE_DELIVERY);
        CHECK(state_of(node.vi) == VIP_STATE_CONNECTED);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, state)) == VIA_VI_CONNECTED);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, remote_node)) == 1);
        // The request is spent: there is nothing left to look at.
        CHECK(VipConnectPeerDone(node.vi, &attributes) == VIP_INVALID_STATE);
        return 0;
      },
      [&] {
        NodeSetup node;
        lanai_emu_compute_ns(delay_ns);
        Address local(1, 2);
        Address remote(0, 1);
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), VIP_INFINITE) ==
                VIP_SUCCESS);
        VIP_RETURN result = VIP_NOT_DONE;
        int looks = 0;
        while ((result = VipConnectPeerDone(node.vi, nullptr)) == VIP_NOT_DONE)
          ++looks;
        connected_at[1] = now_ns();
        CHECK(result == VIP_SUCCESS);
        CHECK(looks > 0);
        CHECK(state_of(node.vi) == VIP_STATE_CONNECTED);
        CHECK(vipl.vi_word(1, 0, offsetof(via_vi_config, remote_node)) == 0);
        return 0;
      },
  });
  CHECK(report.success());
  CHECK(connected_at[0] > 0);
  CHECK(connected_at[1] > 0);
}

} // namespace

TEST_CASE("two ends asking for each other connect, whichever asks first") {
  SUBCASE("node 0's request is waiting when node 1 asks") { connect_peers(500'000); }
  SUBCASE("the two requests cross") { connect_peers(0); }
  SUBCASE("node 1 asks while node 0's request travels") { connect_peers(1'000); }
}

TEST_CASE("peers whose attributes differ both fail, and their VIs are idle again") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        Address local(0, 1);
        Address remote(1, 2);
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), VIP_INFINITE) ==
                VIP_SUCCESS);
        CHECK(VipConnectPeerWait(node.vi, nullptr) == VIP_INVALID_MTU);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, state)) == VIA_VI_IDLE);
        return 0;
      },
      [&] {
        NodeSetup node(nullptr, 1024);
        lanai_emu_compute_ns(200'000);
        Address local(1, 2);
        Address remote(0, 1);
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), VIP_INFINITE) ==
                VIP_SUCCESS);
        CHECK(VipConnectPeerWait(node.vi, nullptr) == VIP_INVALID_MTU);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        CHECK(vipl.vi_word(1, 0, offsetof(via_vi_config, state)) == VIA_VI_IDLE);
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("an unanswered peer request times out; bad requests are refused") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        Address local(0, 1);
        Address remote(1, 2);
        CHECK(VipConnectPeerDone(node.vi, nullptr) == VIP_INVALID_STATE);
        CHECK(VipConnectPeerWait(nullptr, nullptr) == VIP_INVALID_PARAMETER);
        Address self(0, 9);
        CHECK(VipConnectPeerRequest(node.vi, local.get(), self.get(), 1) == VIP_NOT_REACHABLE);
        Address absent(5, 1);
        CHECK(VipConnectPeerRequest(node.vi, local.get(), absent.get(), 1) == VIP_NOT_REACHABLE);
        CHECK(VipConnectPeerRequest(node.vi, remote.get(), remote.get(), 1) ==
              VIP_INVALID_PARAMETER);
        CHECK(VipConnectPeerRequest(node.vi, nullptr, remote.get(), 1) == VIP_INVALID_PARAMETER);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        // Node 1 asks only after this request gave up.
        const auto before = now_ns();
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), 2) == VIP_SUCCESS);
        CHECK(VipConnectPeerWait(node.vi, nullptr) == VIP_TIMEOUT);
        CHECK(now_ns() - before >= 2'000'000);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        return 0;
      },
      [&] {
        NodeSetup node;
        lanai_emu_compute_ns(5'000'000);
        Address local(1, 2);
        Address remote(0, 1);
        // The withdrawn request is gone: this one finds nobody either.
        REQUIRE(VipConnectPeerRequest(node.vi, local.get(), remote.get(), 1) == VIP_SUCCESS);
        VIP_RETURN result = VIP_NOT_DONE;
        while ((result = VipConnectPeerDone(node.vi, nullptr)) == VIP_NOT_DONE) {
        }
        CHECK(result == VIP_TIMEOUT);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        return 0;
      },
  });
  CHECK(report.success());
}
