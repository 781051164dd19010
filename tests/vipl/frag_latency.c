/* The 1-way latency of a message under a fragmentation policy, for
 * comparing policies on messages of at most one fragment. node0 and node1
 * bounce one message of SIZE bytes ROUNDS times on one VI whose
 * fragmentation is POLICY BYTES P0..P3 on both sides (set before
 * connecting), after two untimed round trips, and node0 prints the mean
 * 1-way latency in virtual nanoseconds and whether the bytes came back.
 * Run: ./vipl_frag_latency --nodes 2 --firmware pvia -- SIZE ROUNDS POLICY BYTES P0 P1 P2 P3
 * Prints "node0: SIZE bytes one-way N ns, intact". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "pair_vi.h"

#define WARMUP 2

static int post(VIP_VI_HANDLE vi, VIP_DESCRIPTOR* d, unsigned char* buf, int size,
                VIP_MEM_HANDLE mh, int recv) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = (VIP_UINT32)size;
  d->DS[0].Local.Data.Address = buf;
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = (VIP_UINT32)size;
  return (recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) == VIP_SUCCESS ? 0 : 1;
}

/* Registers MEM (room for two descriptors and two SIZE-byte buffers) and
 * bounces the message ROUNDS times under HOW. */
static int bounce(const LANAI_EMU_FRAGMENTATION* how, int size, int rounds, unsigned char* mem) {
  int me = lanai_emu_node();
  VIP_DESCRIPTOR *sd = (VIP_DESCRIPTOR*)mem, *rd = (VIP_DESCRIPTOR*)(mem + 64);
  unsigned char *sbuf = mem + 128, *rbuf = sbuf + size;
  for (int i = 0; i < size; i++)
    sbuf[i] = (unsigned char)(i * 13 + 5), rbuf[i] = 0;
  struct pair_vi p;
  if (open_pair_vi(mem, 128 + 2 * (size_t)size, &p) || set_fragmentation(&p, how))
    return 2;
  VIP_VI_HANDLE vi = p.vi;
  VIP_MEM_HANDLE mh = p.mh;
  if (post(vi, rd, rbuf, size, mh, 1))
    return 3;
  if (connect_pair(&p, me))
    return 3;
  uint64_t start = 0;
  for (int round = 0; round < WARMUP + rounds; round++) {
    VIP_DESCRIPTOR* d;
    if (me == 0 && round == WARMUP)
      start = lanai_emu_now_ns();
    if (me == 0 && post(vi, sd, sbuf, size, mh, 0))
      return 4;
    if (VipRecvWait(vi, VIP_INFINITE, &d) != VIP_SUCCESS || d->CS.Length != (VIP_UINT32)size)
      return 4;
    if (round + 1 < WARMUP + rounds && post(vi, rd, rbuf, size, mh, 1))
      return 4;
    if (me == 1 && post(vi, sd, rbuf, size, mh, 0))
      return 4;
    if (VipSendWait(vi, VIP_INFINITE, &d) != VIP_SUCCESS || d->CS.Status != VIP_STATUS_DONE)
      return 5;
  }
  if (me == 0) {
    const uint64_t elapsed = lanai_emu_now_ns() - start;
    const int intact = memcmp(sbuf, rbuf, (size_t)size) == 0;
    printf("node0: %d bytes one-way %llu ns, %s\n", size,
           (unsigned long long)(elapsed / (2u * (uint64_t)rounds)), intact ? "intact" : "changed");
    if (!intact)
      return 6;
  }
  return 0;
}

int via_main(int argc, char** argv) {
  if (argc != 9)
    return 1;
  int size = atoi(argv[1]), rounds = atoi(argv[2]);
  LANAI_EMU_FRAGMENTATION how = fragmentation_from_args(argv + 3);
  if (size < 1 || size > 65536 || rounds < 1)
    return 1;
  unsigned char* mem = aligned_alloc(64, (128 + 2 * (size_t)size + 63) / 64 * 64);
  if (!mem)
    return 2;
  int status = bounce(&how, size, rounds, mem);
  free(mem);
  return status;
}
