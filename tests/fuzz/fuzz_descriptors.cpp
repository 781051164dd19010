// Fuzzing the VIPL's descriptor path from a host program: node 0 posts
// descriptors built from the input (control bits, segment counts, lengths,
// immediate data; addresses in, at the edge of and outside its registered
// memory; good, stale, other and zero memory handles; RDMA targets in and
// around the peer's region) on a VI connected to node 1, on the firmware
// the first byte picks, with credit flow control on both VIs if its bit 2
// is set. Every call must return a VIP_* code, the cards must
// not fault, and nothing outside the registered regions may change: the
// guard bytes around both nodes' regions are checked after the run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "tests/fuzz/fuzz_cluster.hpp"

namespace {

using namespace fuzz;

// Reads the input a byte at a time, zero once it is spent.
struct Bytes {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  std::uint8_t next() { return at < size ? data[at++] : 0; }
  std::uint32_t next32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v = v << 8 | next();
    return v;
  }
  bool spent() const { return at >= size; }
};

// An address somewhere in, at the end of, or outside an arena's data.
void* address(std::uint32_t v, Arena& arena) {
  switch (v & 3u) {
  case 0:
    return arena.data + (v >> 2) % kData;
  case 1:
    return arena.data + kData - (v >> 2) % 64;
  case 2:
    return arena.before + (v >> 2) % kGuard;
  default:
    return arena.after + (v >> 2) % kGuard;
  }
}

VIP_MEM_HANDLE handle(std::uint8_t v, VIP_MEM_HANDLE good, VIP_MEM_HANDLE other) {
  switch (v % 4) {
  case 0:
    return 0;
  case 1:
    return other;
  case 2:
    return good + 1 + (v >> 2);
  default:
    return good;
  }
}

struct Run {
  Arena poster_arena;
  Arena receiver_arena;
  Target target;
  bool flow_control = false;
  bool poster_done = false;
  bool poster_guards = false;
  bool receiver_guards = false;
};

// One descriptor from the input, posted as a send or a receive.
void post_one(Bytes& in, Run& run, Endpoint& ep, VIP_MEM_HANDLE other, std::size_t slot,
              int& accepted) {
  Arena& arena = run.poster_arena;
  VIP_DESCRIPTOR* d = &arena.descriptors[slot];
  std::memset(d, 0, sizeof *d);
  d->CS.Control = static_cast<VIP_UINT16>(in.next() | in.next() << 8);
  d->CS.SegCount = static_cast<VIP_UINT16>(in.next() % (VIA_MAX_SEGMENTS + 3));
  d->CS.Length = in.next32() % (2 * kData);
  d->CS.ImmediateData = in.next32();
  const bool rdma = (d->CS.Control & VIP_CONTROL_OP_MASK) != VIP_CONTROL_OP_SENDRECV;
  const std::size_t segments = std::min<std::size_t>(d->CS.SegCount, VIA_MAX_SEGMENTS);
  for (std::size_t s = 0; s < segments; ++s) {
    if (s == 0 && rdma) {
      d->DS[0].Remote.Data.Address = address(in.next32(), *run.target.arena);
      d->DS[0].Remote.Handle = handle(in.next(), run.target.handle, other);
      continue;
    }
    d->DS[s].Local.Data.Address = address(in.next32(), arena);
    d->DS[s].Local.Handle = handle(in.next(), ep.memory(), other);
    d->DS[s].Local.Length = in.next32() % (kData + 64);
  }
  const bool send = (in.next() & 1u) != 0u;
  const VIP_MEM_HANDLE for_descriptor = handle(in.next(), ep.memory(), other);
  const VIP_RETURN r =
      send ? VipPostSend(ep.vi(), d, for_descriptor) : VipPostRecv(ep.vi(), d, for_descriptor);
  if (!known_return(r))
    __builtin_trap();
  if (r == VIP_SUCCESS)
    ++accepted;
}

// Takes whatever completes within `ms`; false once nothing does.
bool reap(Endpoint& ep, VIP_ULONG ms, VIP_DESCRIPTOR** done) {
  VIP_VI_HANDLE vi = nullptr;
  VIP_BOOLEAN recv = VIP_FALSE;
  if (VipCQWait(ep.cq(), ms, &vi, &recv) != VIP_SUCCESS)
    return false;
  const VIP_RETURN r = recv ? VipRecvDone(vi, done) : VipSendDone(vi, done);
  if (!known_return(r))
    __builtin_trap();
  return r == VIP_SUCCESS;
}

int poster(Bytes in, Run& run) {
  Endpoint ep(run.poster_arena, false);
  // A region of the same node that is no descriptor's buffer.
  static std::uint8_t elsewhere[256];
  const VIP_MEM_HANDLE other = ep.register_other(elsewhere, sizeof elsewhere);
  if (run.flow_control && lanai_emu_set_flow_control(ep.vi(), VIP_TRUE) != VIP_SUCCESS)
    __builtin_trap();
  if (ep.connect_to(1)) {
    int accepted = 0;
    for (std::size_t slot = 0; !in.spent() && slot < kDescriptors; ++slot)
      post_one(in, run, ep, other, slot, accepted);
    VIP_DESCRIPTOR* done = nullptr;
    for (int i = 0; i < accepted && reap(ep, 1, &done); ++i) {
    }
    VipDisconnect(ep.vi());
  }
  run.poster_done = true;
  run.poster_guards = run.poster_arena.guards_intact();
  return 0;
}

int receiver(Run& run) {
  Endpoint ep(run.receiver_arena, true);
  run.target = {&run.receiver_arena, ep.memory()};
  if (run.flow_control && lanai_emu_set_flow_control(ep.vi(), VIP_TRUE) != VIP_SUCCESS)
    __builtin_trap();
  for (std::size_t i = 0; i < kDescriptors; ++i) {
    VIP_DESCRIPTOR* d = &run.receiver_arena.descriptors[i];
    std::memset(d, 0, sizeof *d);
    d->CS.SegCount = 1;
    d->CS.Control = VIP_CONTROL_IMMEDIATE;
    d->DS[0].Local.Data.Address = run.receiver_arena.data;
    d->DS[0].Local.Handle = ep.memory();
    d->DS[0].Local.Length = kData;
    if (!known_return(VipPostRecv(ep.vi(), d, ep.memory())))
      __builtin_trap();
  }
  if (ep.accept()) {
    VIP_DESCRIPTOR* done = nullptr;
    while (!run.poster_done || reap(ep, 1, &done))
      reap(ep, 1, &done);
  }
  run.receiver_guards = run.receiver_arena.guards_intact();
  return 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2)
    return 0;
  static const char* const firmwares[] = {"svia", "pvia", "qosvia"};
  auto run = std::make_unique<Run>();
  run->flow_control = (data[0] & 4u) != 0u;
  run_pair(
      firmwares[data[0] % 3],
      [&] {
        return poster(Bytes{data + 1, size - 1}, *run);
      },
      [&] { return receiver(*run); });
  if (!run->poster_guards || !run->receiver_guards)
    __builtin_trap();
  return 0;
}
