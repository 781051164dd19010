// Connections through the VIPL on cards whose firmware serves nothing: the
// client-server handshake and its costs, rejection, attribute mismatches,
// unreachable nodes, timeouts on either side, disconnection flushing the
// posted descriptors (into the CQ too), deadlock reports naming the VIPL
// call, and error callbacks fed by the firmware's host interrupts.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

namespace {

// A server on node 0 (discriminator 7) and a client on node 1 connect, the
// client disconnects; returns the virtual times (ns) of the milestones.
std::vector<std::uint64_t> connect_and_disconnect(ViplCluster& vipl) {
  std::vector<std::uint64_t> times(6);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        REQUIRE(VipPostRecv(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
        REQUIRE(VipPostRecv(node.vi, node.descriptor(1), node.memory) == VIP_SUCCESS);
        Address local(0, 7);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES remote_attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(),
                               &remote_attributes, &conn) == VIP_SUCCESS);
        times[0] = now_ns();
        CHECK(remote.header.HostAddressLen == 2);
        CHECK(remote.byte(1) == 1);
        CHECK(remote.header.DiscriminatorLen == 1);
        CHECK(remote.byte(2) == 9);
        CHECK(remote_attributes.MaxTransferSize == 8192);
        CHECK(remote_attributes.ReliabilityLevel == VIP_SERVICE_RELIABLE_DELIVERY);
        REQUIRE(VipConnectAccept(conn, node.vi) == VIP_SUCCESS);
        times[1] = now_ns();
        CHECK(VipConnectAccept(conn, node.vi) == VIP_INVALID_PARAMETER);
        CHECK(state_of(node.vi) == VIP_STATE_CONNECTED);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, state)) == VIA_VI_CONNECTED);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, remote_node)) == 1);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, remote_vi)) == 0);

        // The client's disconnection breaks the connection here (VIA's
        // connection lost: error state) and flushes both receives, in order.
        VIP_DESCRIPTOR* done = nullptr;
        REQUIRE(VipRecvWait(node.vi, VIP_INFINITE, &done) == VIP_SUCCESS);
        times[2] = now_ns();
        CHECK(done == &node.buffer->descriptors[0]);
        CHECK(done->CS.Status ==
              (VIP_STATUS_DONE | VIP_STATUS_DESC_FLUSHED_ERROR | VIP_STATUS_OP_RECEIVE));
        CHECK(state_of(node.vi) == VIP_STATE_ERROR);
        REQUIRE(VipRecvDone(node.vi, &done) == VIP_SUCCESS);
        CHECK(done == &node.buffer->descriptors[1]);
        return 0;
      },
      [&] {
        NodeSetup node;
        Address local(1, 9);
        Address remote(0, 7);
        VIP_VI_ATTRIBUTES server{};
        const auto before = now_ns();
        REQUIRE(VipConnectRequest(node.vi, local.get(), remote.get(), VIP_INFINITE, &server) ==
                VIP_SUCCESS);
        times[3] = now_ns();
        times[4] = before;
        CHECK(server.MaxTransferSize == 8192);
        CHECK(state_of(node.vi) == VIP_STATE_CONNECTED);
        CHECK(vipl.vi_word(1, 0, offsetof(via_vi_config, state)) == VIA_VI_CONNECTED);
        CHECK(vipl.vi_word(1, 0, offsetof(via_vi_config, remote_node)) == 0);
        CHECK(VipConnectRequest(node.vi, local.get(), remote.get(), 1, &server) ==
              VIP_INVALID_STATE);

        // A send on the connected VI is accepted; the idle firmware never
        // serves it, so the disconnection, after waiting 10 ms for it,
        // completes it as flushed.
        REQUIRE(VipPostSend(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
        lanai_emu_compute_ns(100'000);
        times[5] = now_ns();
        REQUIRE(VipDisconnect(node.vi) == VIP_SUCCESS);
        CHECK(VipDisconnect(node.vi) == VIP_INVALID_STATE);
        VIP_DESCRIPTOR* done = nullptr;
        REQUIRE(VipSendDone(node.vi, &done) == VIP_SUCCESS);
        CHECK(done->CS.Status == (VIP_STATUS_DONE | VIP_STATUS_DESC_FLUSHED_ERROR));
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        CHECK(VipPostSend(node.vi, node.descriptor(1), node.memory) == VIP_INVALID_STATE);
        CHECK(VipDestroyVi(node.vi) == VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.success());
  return times;
}

// Node 1's side of several tests: connects to node 0's discriminator 1 and
// disconnects at once.
int connect_to_node0_then_disconnect() {
  NodeSetup node;
  Address local(1, 2);
  Address remote(0, 1);
  VIP_VI_ATTRIBUTES attributes{};
  REQUIRE(VipConnectRequest(node.vi, local.get(), remote.get(), VIP_INFINITE, &attributes) ==
          VIP_SUCCESS);
  REQUIRE(VipDisconnect(node.vi) == VIP_SUCCESS);
  return 0;
}

} // namespace

TEST_CASE("a client and a server connect, then a disconnection flushes both sides") {
  ViplCluster vipl(2);
  const auto times = connect_and_disconnect(vipl);
  const auto connect_ns = vipl.cluster().profile().host.connect_ns;
  // The request takes one message time to reach the waiting server, the
  // acceptance one more to reach the client; the server's accept returns
  // once the client's VI is connected.
  CHECK(times[0] >= times[4] + connect_ns);
  CHECK(times[3] >= times[0] + connect_ns);
  CHECK(times[1] >= times[3]);
  CHECK(times[1] - times[3] < 5'000);
  // The server learns of the disconnection one message time after it, and
  // the disconnection came 10 ms after it was asked for.
  CHECK(times[2] >= times[5] + 10'000'000 + connect_ns);
  CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, state)) == VIA_VI_ERROR);
  CHECK(vipl.vi_word(1, 0, offsetof(via_vi_config, state)) == VIA_VI_FREE);

  ViplCluster again(2);
  CHECK(connect_and_disconnect(again) == times);
}

TEST_CASE("a peer's disconnection flushes every posted receive, in posting order") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        for (std::size_t i = 0; i < 3; ++i)
          REQUIRE(VipPostRecv(node.vi, node.descriptor(i), node.memory) == VIP_SUCCESS);
        Address local(0, 1);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &attributes,
                               &conn) == VIP_SUCCESS);
        REQUIRE(VipConnectAccept(conn, node.vi) == VIP_SUCCESS);
        VIP_VI_STATE state = VIP_STATE_CONNECTED;
        while (state == VIP_STATE_CONNECTED) {
          lanai_emu_compute_ns(10'000);
          state = state_of(node.vi);
        }
        for (std::size_t i = 0; i < 3; ++i) {
          VIP_DESCRIPTOR* done = nullptr;
          REQUIRE(VipRecvDone(node.vi, &done) == VIP_SUCCESS);
          CHECK(done == &node.buffer->descriptors[i]);
          CHECK((done->CS.Status & VIP_STATUS_DESC_FLUSHED_ERROR) != 0);
        }
        return 0;
      },
      connect_to_node0_then_disconnect,
  });
  CHECK(report.success());
}

TEST_CASE("a completion queue names the VI and queue of each completion") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        VIP_NIC_HANDLE nic = nullptr;
        VIP_PROTECTION_HANDLE ptag = nullptr;
        REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
        REQUIRE(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
        auto buffer = std::make_unique<Buffer>();
        VIP_MEM_ATTRIBUTES memory_attributes{ptag, VIP_FALSE, VIP_FALSE};
        VIP_MEM_HANDLE memory = 0;
        REQUIRE(VipRegisterMem(nic, buffer.get(), sizeof(Buffer), &memory_attributes, &memory) ==
                VIP_SUCCESS);
        VIP_CQ_HANDLE cq = nullptr;
        REQUIRE(VipCreateCQ(nic, 2, &cq) == VIP_SUCCESS);
        VIP_VI_ATTRIBUTES a = vi_attributes(ptag);
        VIP_VI_HANDLE vi = nullptr;
        REQUIRE(VipCreateVi(nic, &a, nullptr, cq, &vi) == VIP_SUCCESS);
        for (std::size_t i = 0; i < 2; ++i) {
          buffer->descriptors[i] = VIP_DESCRIPTOR{};
          REQUIRE(VipPostRecv(vi, &buffer->descriptors[i], memory) == VIP_SUCCESS);
        }
        Address local(0, 1);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(nic, local.get(), VIP_INFINITE, remote.get(), &attributes, &conn) ==
                VIP_SUCCESS);
        REQUIRE(VipConnectAccept(conn, vi) == VIP_SUCCESS);
        VIP_VI_HANDLE which = nullptr;
        VIP_BOOLEAN receive = VIP_FALSE;
        REQUIRE(VipCQWait(cq, VIP_INFINITE, &which, &receive) == VIP_SUCCESS);
        CHECK(which == vi);
        CHECK(receive == VIP_TRUE);
        REQUIRE(VipCQDone(cq, &which, &receive) == VIP_SUCCESS);
        CHECK(which == vi);
        CHECK(VipCQDone(cq, &which, &receive) == VIP_NOT_DONE);
        VIP_DESCRIPTOR* done = nullptr;
        CHECK(VipRecvDone(vi, &done) == VIP_SUCCESS);
        CHECK(VipRecvDone(vi, &done) == VIP_SUCCESS);
        CHECK(VipRecvDone(vi, &done) == VIP_NOT_DONE);
        CHECK(VipDestroyCQ(cq) == VIP_INVALID_STATE);
        return 0;
      },
      connect_to_node0_then_disconnect,
  });
  CHECK(report.success());
}

TEST_CASE("a rejected request, then attribute mismatches, then an accept") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        VIP_VI_ATTRIBUTES small = vi_attributes(node.ptag, 1024);
        VIP_VI_ATTRIBUTES unreliable = vi_attributes(node.ptag, 8192, VIP_SERVICE_UNRELIABLE);
        VIP_VI_HANDLE small_vi = nullptr;
        VIP_VI_HANDLE unreliable_vi = nullptr;
        REQUIRE(VipCreateVi(node.nic, &small, nullptr, nullptr, &small_vi) == VIP_SUCCESS);
        REQUIRE(VipCreateVi(node.nic, &unreliable, nullptr, nullptr, &unreliable_vi) ==
                VIP_SUCCESS);
        Address local(0, 3);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &attributes,
                               &conn) == VIP_SUCCESS);
        CHECK(VipConnectReject(conn) == VIP_SUCCESS);
        CHECK(VipConnectReject(conn) == VIP_INVALID_PARAMETER);
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &attributes,
                               &conn) == VIP_SUCCESS);
        CHECK(VipConnectAccept(conn, small_vi) == VIP_INVALID_MTU);
        CHECK(VipConnectAccept(conn, unreliable_vi) == VIP_INVALID_RELIABILITY_LEVEL);
        CHECK(VipConnectAccept(conn, node.vi) == VIP_SUCCESS);
        CHECK(state_of(small_vi) == VIP_STATE_IDLE);
        CHECK(VipDestroyVi(node.vi) == VIP_INVALID_STATE);
        return 0;
      },
      [&] {
        NodeSetup node;
        Address local(1, 4);
        Address remote(0, 3);
        VIP_VI_ATTRIBUTES attributes{};
        CHECK(VipConnectRequest(node.vi, local.get(), remote.get(), VIP_INFINITE, &attributes) ==
              VIP_REJECT);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        CHECK(VipConnectRequest(node.vi, local.get(), remote.get(), VIP_INFINITE, &attributes) ==
              VIP_SUCCESS);
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("requests to nowhere, with malformed addresses, or unanswered, fail cleanly") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        Address local(0, 1);
        VIP_VI_ATTRIBUTES attributes{};
        Address absent(5, 1);
        CHECK(VipConnectRequest(node.vi, local.get(), absent.get(), 1, &attributes) ==
              VIP_NOT_REACHABLE);
        Address self(0, 2);
        CHECK(VipConnectRequest(node.vi, local.get(), self.get(), 1, &attributes) ==
              VIP_NOT_REACHABLE);
        Address malformed(1, 1);
        malformed.header.HostAddressLen = 3;
        CHECK(VipConnectRequest(node.vi, local.get(), malformed.get(), 1, &attributes) ==
              VIP_INVALID_PARAMETER);
        Address not_mine(1, 1);
        Address listener(1, 1);
        CHECK(VipConnectRequest(node.vi, not_mine.get(), listener.get(), 1, &attributes) ==
              VIP_INVALID_PARAMETER);
        CHECK(VipConnectRequest(node.vi, nullptr, listener.get(), 1, &attributes) ==
              VIP_INVALID_PARAMETER);
        // Node 1 waits on discriminator 1 only after this request gave up.
        const auto before = now_ns();
        CHECK(VipConnectRequest(node.vi, local.get(), listener.get(), 2, &attributes) ==
              VIP_TIMEOUT);
        CHECK(now_ns() - before >= 2'000'000);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        return 0;
      },
      [&] {
        NodeSetup node;
        Address local(1, 1);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        lanai_emu_compute_ns(5'000'000);
        // The withdrawn request is gone: nothing arrives.
        const auto before = now_ns();
        CHECK(VipConnectWait(node.nic, local.get(), 3, remote.get(), &attributes, &conn) ==
              VIP_TIMEOUT);
        CHECK(now_ns() - before >= 3'000'000);
        Address foreign(0, 1);
        CHECK(VipConnectWait(node.nic, foreign.get(), 3, remote.get(), &attributes, &conn) ==
              VIP_INVALID_PARAMETER);
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("an acceptance that comes after the requester gave up fails on both sides") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        Address local(0, 5);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &attributes,
                               &conn) == VIP_SUCCESS);
        lanai_emu_compute_ns(3'000'000);
        CHECK(VipConnectAccept(conn, node.vi) == VIP_TIMEOUT);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        CHECK(vipl.vi_word(0, 0, offsetof(via_vi_config, state)) == VIA_VI_IDLE);
        return 0;
      },
      [&] {
        NodeSetup node;
        Address local(1, 6);
        Address remote(0, 5);
        VIP_VI_ATTRIBUTES attributes{};
        CHECK(VipConnectRequest(node.vi, local.get(), remote.get(), 1, &attributes) == VIP_TIMEOUT);
        CHECK(state_of(node.vi) == VIP_STATE_IDLE);
        return 0;
      },
  });
  CHECK(report.success());
}

TEST_CASE("a program blocked forever in a VIPL wait is reported by call and VI") {
  ViplCluster vipl(2);
  const auto report = vipl.run({
      [&] {
        NodeSetup node;
        REQUIRE(VipPostRecv(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
        VIP_DESCRIPTOR* done = nullptr;
        VipRecvWait(node.vi, VIP_INFINITE, &done);
        return 0;
      },
      [] {
        VIP_NIC_HANDLE nic = nullptr;
        REQUIRE(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
        Address local(1, 0x2a);
        Address remote(0, 0);
        VIP_VI_ATTRIBUTES attributes{};
        VIP_CONN_HANDLE conn = nullptr;
        VipConnectWait(nic, local.get(), VIP_INFINITE, remote.get(), &attributes, &conn);
        return 0;
      },
  });
  CHECK(report.outcome == lanai::host::RunOutcome::deadlock);
  const std::string& detail = report.detail;
  CHECK(detail.find("node0: waits in VipRecvWait(vi 0, recv queue) since ") == 0);
  CHECK(detail.find("\nnode1: waits in VipConnectWait(discriminator 2a) since ") !=
        std::string::npos);
}

namespace {
struct ErrorLog {
  std::vector<VIP_ERROR_DESCRIPTOR> errors;
  std::vector<int> nodes; // where each callback ran
};
void record_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* error) {
  auto* log = static_cast<ErrorLog*>(context);
  log->errors.push_back(*error);
  log->nodes.push_back(lanai_emu_node());
}
} // namespace

TEST_CASE("a firmware's host interrupts become error callbacks on the program's stack") {
  ViplCluster vipl(2, "host_interrupting_via");
  ErrorLog logs[2];
  VIP_VI_HANDLE vis[2] = {};
  VIP_NIC_HANDLE nics[2] = {};
  const auto program = [&](int me) {
    return [&, me] {
      NodeSetup node;
      vis[me] = node.vi;
      nics[me] = node.nic;
      REQUIRE(VipErrorCallback(node.nic, &logs[me], record_error) == VIP_SUCCESS);
      VIP_VI_ATTRIBUTES attributes{};
      if (me == 0) {
        Address local(0, 1);
        Address remote(0, 0);
        VIP_CONN_HANDLE conn = nullptr;
        REQUIRE(VipConnectWait(node.nic, local.get(), VIP_INFINITE, remote.get(), &attributes,
                               &conn) == VIP_SUCCESS);
        REQUIRE(VipConnectAccept(conn, node.vi) == VIP_SUCCESS);
      } else {
        Address local(1, 2);
        Address remote(0, 1);
        REQUIRE(VipConnectRequest(node.vi, local.get(), remote.get(), VIP_INFINITE, &attributes) ==
                VIP_SUCCESS);
      }
      VIP_DESCRIPTOR* done = nullptr;
      CHECK(VipRecvWait(node.vi, 1, &done) == VIP_TIMEOUT);
      CHECK(logs[me].errors.size() == 3);
      // A reliable VI that lost a message is broken.
      CHECK(state_of(node.vi) == VIP_STATE_ERROR);
      CHECK(VipPostSend(node.vi, node.descriptor(0), node.memory) == VIP_INVALID_STATE);
      CHECK(VipDisconnect(node.vi) == VIP_SUCCESS);
      CHECK(state_of(node.vi) == VIP_STATE_IDLE);
      return 0;
    };
  };
  const auto report = vipl.run({program(0), program(1)});
  CHECK(report.success());
  for (int me = 0; me < 2; ++me) {
    const auto& errors = logs[me].errors;
    REQUIRE(errors.size() == 3);
    CHECK(logs[me].nodes == std::vector<int>{me, me, me});
    CHECK(errors[0].ErrorCode == VIP_ERROR_RECVQ_EMPTY);
    CHECK(errors[0].ResourceCode == VIP_RESOURCE_VI);
    CHECK(errors[0].ViHandle == vis[me]);
    CHECK(errors[0].NicHandle == nics[me]);
    CHECK(errors[1].ErrorCode == VIP_ERROR_POST_DESC);
    CHECK(errors[1].ResourceCode == VIP_RESOURCE_NIC);
    CHECK(errors[1].ViHandle == nullptr);
    CHECK(errors[1].NicHandle == nics[me]);
    // A damaged packet ends a reliable connection.
    CHECK(errors[2].ErrorCode == VIP_ERROR_CONN_LOST);
    CHECK(errors[2].ResourceCode == VIP_RESOURCE_VI);
    CHECK(errors[2].ViHandle == vis[me]);
  }
}
