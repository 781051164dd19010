// QoS admission control in the driver (host.admission_fraction): a VI's
// rate is reserved on its node's outgoing link at creation and on the
// receiving node's incoming link at connection set-up; what does not fit is
// refused with VIP_INVALID_QOS and a reason from lanai_emu_last_error();
// destroying and disconnecting give the reservations back. Off, nothing is
// refused below the link's bandwidth.
#include <doctest/doctest.h>

#include <string>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

namespace {

constexpr VIP_ULONG mbytes = 1'000'000;

lanai::host::ClusterConfig admission_config(std::size_t nodes, double fraction) {
  auto config = test_config(nodes);
  config.profile.host.admission_fraction = fraction;
  return config;
}

// A VI of `node` asking for `rate` bytes/s (0: best effort).
VIP_RETURN create(NodeSetup& node, VIP_ULONG rate, VIP_VI_HANDLE* vi, VIP_QOS_REQUEST& qos) {
  VIP_VI_ATTRIBUTES attributes = vi_attributes(node.ptag);
  qos.BandwidthBytesPerSec = rate;
  attributes.QoS = rate ? &qos : nullptr;
  return VipCreateVi(node.nic, &attributes, nullptr, nullptr, vi);
}

VIP_RETURN set_rate(NodeSetup& node, VIP_VI_HANDLE vi, VIP_ULONG rate, VIP_QOS_REQUEST& qos) {
  VIP_VI_ATTRIBUTES attributes = vi_attributes(node.ptag);
  qos.BandwidthBytesPerSec = rate;
  attributes.QoS = rate ? &qos : nullptr;
  return VipSetViAttributes(vi, &attributes);
}

VIP_RETURN request(VIP_VI_HANDLE vi, int me, int peer, unsigned char discriminator) {
  Address local(me, discriminator);
  Address remote(peer, discriminator);
  VIP_VI_ATTRIBUTES remote_attributes{};
  return VipConnectRequest(vi, local.get(), remote.get(), VIP_INFINITE, &remote_attributes);
}

VIP_RETURN serve(NodeSetup& node, VIP_VI_HANDLE vi, int me, unsigned char discriminator) {
  Address local(me, discriminator);
  Address remote(0, 0);
  VIP_VI_ATTRIBUTES remote_attributes{};
  VIP_CONN_HANDLE conn = nullptr;
  const VIP_RETURN r =
      VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &remote_attributes, &conn);
  return r != VIP_SUCCESS ? r : VipConnectAccept(conn, vi);
}

void wait_until_ns(std::uint64_t t) {
  if (now_ns() < t)
    lanai_emu_compute_ns(t - now_ns());
}

} // namespace

TEST_CASE("admission control refuses a VI over the outgoing link's share at creation") {
  ViplCluster vipl(admission_config(1, 0.5)); // 80 MB/s of 160
  const auto report = vipl.run({[&] {
    NodeSetup node;
    CHECK(std::string(lanai_emu_last_error()).empty());
    VIP_QOS_REQUEST q1{}, q2{}, q3{}, q4{};
    VIP_VI_HANDLE a = nullptr, b = nullptr, c = nullptr, d = nullptr;
    REQUIRE(create(node, 50 * mbytes, &a, q1) == VIP_SUCCESS);
    CHECK(create(node, 40 * mbytes, &b, q2) == VIP_INVALID_QOS);
    CHECK(std::string(lanai_emu_last_error()) ==
          "node0 outgoing link: 50000000 B/s reserved + 40000000 B/s requested > 0.5 x "
          "160000000 B/s");
    // Exactly the share fits; best effort needs no reservation.
    REQUIRE(create(node, 30 * mbytes, &c, q3) == VIP_SUCCESS);
    REQUIRE(create(node, 0, &d, q4) == VIP_SUCCESS);
    // A best-effort VI asking for a rate later is checked the same way, and
    // a refusal leaves it as it was.
    CHECK(set_rate(node, d, 1 * mbytes, q4) == VIP_INVALID_QOS);
    CHECK(std::string(lanai_emu_last_error()).find("80000000 B/s reserved + 1000000 B/s") !=
          std::string::npos);
    CHECK(state_of(d) == VIP_STATE_IDLE);
    // Lowering a rate gives the difference back.
    CHECK(set_rate(node, c, 20 * mbytes, q3) == VIP_SUCCESS);
    CHECK(set_rate(node, d, 10 * mbytes, q4) == VIP_SUCCESS);
    // Destroying gives a VI's reservation back.
    CHECK(create(node, 40 * mbytes, &b, q2) == VIP_INVALID_QOS);
    CHECK(VipDestroyVi(a) == VIP_SUCCESS);
    CHECK(create(node, 40 * mbytes, &b, q2) == VIP_SUCCESS);
    // Above the link itself is refused whether admission is on or not.
    CHECK(create(node, 200 * mbytes, &a, q1) == VIP_INVALID_QOS);
    CHECK(std::string(lanai_emu_last_error()) ==
          "node0: 200000000 B/s requested > link bandwidth 160000000 B/s");
    return 0;
  }});
  CHECK(report.outcome == lanai::host::RunOutcome::finished);
}

TEST_CASE("admission control off: the same requests all succeed") {
  ViplCluster vipl(admission_config(3, 0.0));
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        VIP_QOS_REQUEST q1{}, q2{};
        VIP_VI_HANDLE a = nullptr, b = nullptr;
        CHECK(create(node, 100 * mbytes, &a, q1) == VIP_SUCCESS);
        CHECK(create(node, 100 * mbytes, &b, q2) == VIP_SUCCESS);
        CHECK(request(a, 0, 1, 1) == VIP_SUCCESS);
        return 0;
      },
      [&] {
        NodeSetup node;
        VIP_QOS_REQUEST q1{}, q2{};
        VIP_VI_HANDLE a = nullptr, b = nullptr;
        REQUIRE(create(node, 0, &a, q1) == VIP_SUCCESS);
        REQUIRE(create(node, 0, &b, q2) == VIP_SUCCESS);
        CHECK(serve(node, a, 1, 1) == VIP_SUCCESS);
        CHECK(serve(node, b, 1, 2) == VIP_SUCCESS);
        CHECK(std::string(lanai_emu_last_error()).empty());
        return 0;
      },
      [&] {
        NodeSetup node;
        VIP_QOS_REQUEST q{};
        VIP_VI_HANDLE c = nullptr;
        CHECK(create(node, 150 * mbytes, &c, q) == VIP_SUCCESS);
        wait_until_ns(500'000);
        CHECK(request(c, 2, 1, 2) == VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.outcome == lanai::host::RunOutcome::finished);
}

TEST_CASE("a connection is refused when the server's incoming link is full; "
          "disconnecting gives the rate back") {
  ViplCluster vipl(admission_config(3, 0.5));
  const std::string full =
      "node1 incoming link: 60000000 B/s reserved + 30000000 B/s requested > 0.5 x 160000000 B/s";
  const auto report = vipl.run({
      [&] { // node0: 60 MB/s into node1, disconnected at 2 ms
        NodeSetup node;
        VIP_QOS_REQUEST q{};
        VIP_VI_HANDLE a = nullptr;
        REQUIRE(create(node, 60 * mbytes, &a, q) == VIP_SUCCESS);
        CHECK(request(a, 0, 1, 1) == VIP_SUCCESS);
        wait_until_ns(2'000'000);
        CHECK(VipDisconnect(a) == VIP_SUCCESS);
        return 0;
      },
      [&] { // node1: the server, best-effort VIs
        NodeSetup node;
        VIP_QOS_REQUEST q1{}, q2{};
        VIP_VI_HANDLE s1 = nullptr, s2 = nullptr;
        REQUIRE(create(node, 0, &s1, q1) == VIP_SUCCESS);
        REQUIRE(create(node, 0, &s2, q2) == VIP_SUCCESS);
        CHECK(serve(node, s1, 1, 1) == VIP_SUCCESS);
        CHECK(serve(node, s2, 1, 2) == VIP_INVALID_QOS);
        CHECK(std::string(lanai_emu_last_error()) == full);
        CHECK(state_of(s2) == VIP_STATE_IDLE);
        CHECK(serve(node, s2, 1, 2) == VIP_SUCCESS); // the best-effort retry
        // node2's disconnection breaks s2 here (connection lost); disconnected
        // on this side too, it serves again.
        while (state_of(s2) != VIP_STATE_ERROR)
          lanai_emu_compute_ns(10'000);
        CHECK(VipDisconnect(s2) == VIP_SUCCESS);
        CHECK(serve(node, s2, 1, 2) == VIP_SUCCESS); // after node0 let go
        return 0;
      },
      [&] { // node2: 30 MB/s into node1
        NodeSetup node;
        VIP_QOS_REQUEST q{};
        VIP_VI_HANDLE c = nullptr;
        REQUIRE(create(node, 30 * mbytes, &c, q) == VIP_SUCCESS);
        wait_until_ns(500'000);
        CHECK(request(c, 2, 1, 2) == VIP_INVALID_QOS);
        CHECK(std::string(lanai_emu_last_error()) == full);
        CHECK(state_of(c) == VIP_STATE_IDLE);
        // The VI stays usable: best effort connects.
        CHECK(set_rate(node, c, 0, q) == VIP_SUCCESS);
        CHECK(request(c, 2, 1, 2) == VIP_SUCCESS);
        CHECK(VipDisconnect(c) == VIP_SUCCESS);
        // After node0's disconnection, the rate fits again.
        wait_until_ns(3'000'000);
        REQUIRE(state_of(c) == VIP_STATE_IDLE);
        CHECK(set_rate(node, c, 30 * mbytes, q) == VIP_SUCCESS);
        CHECK(request(c, 2, 1, 2) == VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.outcome == lanai::host::RunOutcome::finished);
}

TEST_CASE("a connection is refused when the server's rate does not fit the requester's "
          "incoming link") {
  ViplCluster vipl(admission_config(3, 0.5));
  const std::string full =
      "node0 incoming link: 50000000 B/s reserved + 40000000 B/s requested > 0.5 x 160000000 B/s";
  const auto report = vipl.run({
      [&] { // node0: best-effort client of both servers
        NodeSetup node;
        VIP_QOS_REQUEST q1{}, q2{};
        VIP_VI_HANDLE x = nullptr, y = nullptr;
        REQUIRE(create(node, 0, &x, q1) == VIP_SUCCESS);
        REQUIRE(create(node, 0, &y, q2) == VIP_SUCCESS);
        CHECK(request(x, 0, 1, 1) == VIP_SUCCESS);
        CHECK(request(y, 0, 2, 2) == VIP_INVALID_QOS);
        CHECK(std::string(lanai_emu_last_error()) == full);
        CHECK(state_of(y) == VIP_STATE_IDLE);
        CHECK(request(y, 0, 2, 2) == VIP_SUCCESS); // node2 went best effort
        return 0;
      },
      [&] {
        NodeSetup node;
        VIP_QOS_REQUEST q{};
        VIP_VI_HANDLE s = nullptr;
        REQUIRE(create(node, 50 * mbytes, &s, q) == VIP_SUCCESS);
        CHECK(serve(node, s, 1, 1) == VIP_SUCCESS);
        return 0;
      },
      [&] {
        NodeSetup node;
        VIP_QOS_REQUEST q{};
        VIP_VI_HANDLE s = nullptr;
        REQUIRE(create(node, 40 * mbytes, &s, q) == VIP_SUCCESS);
        CHECK(serve(node, s, 2, 2) == VIP_INVALID_QOS);
        CHECK(std::string(lanai_emu_last_error()) == full);
        CHECK(state_of(s) == VIP_STATE_IDLE);
        CHECK(set_rate(node, s, 0, q) == VIP_SUCCESS);
        CHECK(serve(node, s, 2, 2) == VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.outcome == lanai::host::RunOutcome::finished);
}
