// Posting descriptors through the VIPL, on a card whose firmware serves
// nothing: what the library refuses before ringing a doorbell (handles,
// alignment, registration, format, VI state, queue room) and how Done and
// Wait behave when nothing completes.
#include <doctest/doctest.h>

#include <vector>

#include "emulator/nic/doorbell_fifo.hpp"
#include "tests/host/vipl_fixture.hpp"

using namespace host_test;

TEST_CASE("sends need a connected VI; receives may be posted on an idle one") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    NodeSetup node;
    CHECK(VipPostSend(node.vi, node.descriptor(0), node.memory) == VIP_INVALID_STATE);
    CHECK(VipPostRecv(node.vi, node.descriptor(1), node.memory) == VIP_SUCCESS);
    VIP_VI_STATE state{};
    VIP_VI_ATTRIBUTES attributes{};
    VIP_BOOLEAN send_empty = VIP_FALSE;
    VIP_BOOLEAN recv_empty = VIP_TRUE;
    REQUIRE(VipQueryVi(node.vi, &state, &attributes, &send_empty, &recv_empty) == VIP_SUCCESS);
    CHECK(send_empty == VIP_TRUE);
    CHECK(recv_empty == VIP_FALSE);
    CHECK(VipDestroyVi(node.vi) == VIP_INVALID_STATE);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("a posted receive clears its status and rings the VI's receive doorbell") {
  ViplCluster vipl(1);
  auto& doorbells = vipl.cluster().card(0).doorbells();
  std::uint64_t descriptor_address = 0;
  const auto report = vipl.run({[&] {
    NodeSetup node;
    VIP_DESCRIPTOR* d = node.descriptor(3);
    d->CS.Status = 0xDEAD;
    descriptor_address = reinterpret_cast<std::uintptr_t>(d);
    CHECK(doorbells.waiting() == 0);
    REQUIRE(VipPostRecv(node.vi, d, node.memory) == VIP_SUCCESS);
    CHECK(d->CS.Status == 0);
    CHECK(doorbells.waiting() == 1);
    return 0;
  }});
  CHECK(report.success());
  CHECK(descriptor_address % VIP_DESCRIPTOR_ALIGNMENT == 0);
}

TEST_CASE("descriptors must be aligned, registered with the VI's tag, and well formed") {
  ViplCluster vipl(1);
  std::vector<unsigned char> unregistered(256);
  const auto report = vipl.run({[&] {
    NodeSetup node;
    CHECK(VipPostRecv(node.vi, nullptr, node.memory) == VIP_INVALID_PARAMETER);
    CHECK(VipPostRecv(nullptr, node.descriptor(0), node.memory) == VIP_INVALID_PARAMETER);
    CHECK(VipPostRecv(node.nic, node.descriptor(0), node.memory) == VIP_INVALID_PARAMETER);
    auto* misaligned = reinterpret_cast<VIP_DESCRIPTOR*>(node.buffer->data + 8);
    CHECK(VipPostRecv(node.vi, misaligned, node.memory) == VIP_INVALID_PARAMETER);
    CHECK(VipPostRecv(node.vi, node.descriptor(0), node.memory + 999) == VIP_INVALID_PARAMETER);
    CHECK(VipPostRecv(node.vi, node.descriptor(0), 0) == VIP_INVALID_PARAMETER);

    // Memory registered under another tag does not do for this VI.
    VIP_PROTECTION_HANDLE other = nullptr;
    REQUIRE(VipCreatePtag(node.nic, &other) == VIP_SUCCESS);
    auto elsewhere = std::make_unique<Buffer>();
    VIP_MEM_ATTRIBUTES attributes{other, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE other_memory = 0;
    REQUIRE(VipRegisterMem(node.nic, elsewhere.get(), sizeof(Buffer), &attributes, &other_memory) ==
            VIP_SUCCESS);
    CHECK(VipPostRecv(node.vi, &elsewhere->descriptors[0], other_memory) == VIP_INVALID_PARAMETER);
    // The handle must cover the whole descriptor.
    VIP_MEM_ATTRIBUTES own{node.ptag, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE partial = 0;
    REQUIRE(VipRegisterMem(node.nic, &elsewhere->descriptors[1], 32, &own, &partial) ==
            VIP_SUCCESS);
    CHECK(VipPostRecv(node.vi, &elsewhere->descriptors[1], partial) == VIP_INVALID_PARAMETER);

    VIP_DESCRIPTOR* d = node.descriptor(1, VIA_MAX_SEGMENTS + 1);
    CHECK(VipPostRecv(node.vi, d, node.memory) == VIP_DESCRIPTOR_ERROR);
    for (VIP_UINT16 control :
         {VIP_CONTROL_OP_RESERVED, VIP_CONTROL_OP_RDMAREAD, VIP_CONTROL_OP_RDMAWRITE, 0x0100}) {
      d = node.descriptor(1);
      d->CS.Control = control;
      CHECK_MESSAGE(VipPostRecv(node.vi, d, node.memory) == VIP_DESCRIPTOR_ERROR, control);
    }
    // Nothing refused was queued.
    VIP_VI_STATE state{};
    VIP_VI_ATTRIBUTES vi_attrs{};
    VIP_BOOLEAN send_empty = VIP_FALSE;
    VIP_BOOLEAN recv_empty = VIP_FALSE;
    REQUIRE(VipQueryVi(node.vi, &state, &vi_attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
    CHECK(recv_empty == VIP_TRUE);
    return 0;
  }});
  CHECK(report.success());
}

TEST_CASE("a queue holds VIA_QUEUE_DEPTH descriptors; one descriptor is posted once") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    NodeSetup node;
    for (std::size_t i = 0; i < VIA_QUEUE_DEPTH; ++i)
      REQUIRE(VipPostRecv(node.vi, node.descriptor(i), node.memory) == VIP_SUCCESS);
    CHECK(VipPostRecv(node.vi, node.descriptor(VIA_QUEUE_DEPTH), node.memory) ==
          VIP_ERROR_RESOURCE);
    return 0;
  }});
  CHECK(report.success());

  ViplCluster again(1);
  const auto twice = again.run({[] {
    NodeSetup node;
    VIP_DESCRIPTOR* d = node.descriptor(0);
    REQUIRE(VipPostRecv(node.vi, d, node.memory) == VIP_SUCCESS);
    CHECK(VipPostRecv(node.vi, d, node.memory) == VIP_INVALID_PARAMETER);
    return 0;
  }});
  CHECK(twice.success());
}

TEST_CASE("Done answers NOT_DONE and Wait times out when nothing completes") {
  ViplCluster vipl(1);
  const auto report = vipl.run({[] {
    NodeSetup node;
    VIP_DESCRIPTOR* done = nullptr;
    CHECK(VipRecvDone(node.vi, &done) == VIP_NOT_DONE);
    CHECK(VipSendDone(node.vi, &done) == VIP_NOT_DONE);
    CHECK(VipRecvDone(node.vi, nullptr) == VIP_INVALID_PARAMETER);
    REQUIRE(VipPostRecv(node.vi, node.descriptor(0), node.memory) == VIP_SUCCESS);
    CHECK(VipRecvDone(node.vi, &done) == VIP_NOT_DONE);
    auto before = now_ns();
    CHECK(VipRecvWait(node.vi, 0, &done) == VIP_TIMEOUT);
    CHECK(now_ns() - before < 10'000);
    before = now_ns();
    CHECK(VipRecvWait(node.vi, 4, &done) == VIP_TIMEOUT);
    const auto waited = now_ns() - before;
    CHECK(waited >= 4'000'000);
    CHECK(waited < 4'010'000);
    CHECK(VipSendWait(node.vi, 1, &done) == VIP_TIMEOUT);
    CHECK(done == nullptr);
    return 0;
  }});
  CHECK(report.success());
}
