/* Messages cut into fragments by the sending firmware arrive whole, in
 * order and intact. node0 sends one message of each size in SIZES, in
 * order, on one VI whose fragmentation policy is POLICY (with BYTES and
 * the figures P0..P3); node1 receives each into a buffer with a guard after
 * it and checks the bytes, the length, the order and the guard.
 * Run: ./vipl_fragments --nodes 2 --firmware pvia -- POLICY BYTES P0 P1 P2 P3 SIZE...
 * Each node first checks that bad policies are refused with a reason.
 * Prints "node1: N messages intact" on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "pair_vi.h"

#define MAX_MESSAGES 32
#define GUARD 64

static unsigned char pattern(int message, int i) {
  return (unsigned char)(message * 31 + i * 7 + 1);
}

/* Unknown policy, static size 0, static size above MaxTransferSize,
 * fixed-optimal without g_b, ramp-up without G_0: each refused, with a
 * reason, and the VI's policy left as it was. */
static int refuses_bad_policies(VIP_VI_HANDLE vi, int me) {
  const LANAI_EMU_FRAGMENTATION bad[] = {{9, 0, {0, 0, 0, 0}},
                                         {1, 0, {0, 0, 0, 0}},
                                         {1, 1u << 20, {0, 0, 0, 0}},
                                         {2, 512, {0, 500, 0, 0}},
                                         {3, 256, {100, 0, 100, 100}}};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (lanai_emu_set_fragmentation(vi, &bad[i]) != VIP_INVALID_PARAMETER ||
        lanai_emu_last_error()[0] == '\0') {
      fprintf(stderr, "node%d: bad policy %u was not refused\n", me, i);
      return 0;
    }
  }
  printf("node%d: %u bad policies refused\n", me, (unsigned)(sizeof bad / sizeof bad[0]));
  return 1;
}

/* Registers MEM (BYTES long), sets HOW on one VI and has node0 send the
 * COUNT messages of SIZES to node1, which checks them. */
static int exchange(const LANAI_EMU_FRAGMENTATION* how, const int* sizes, int count,
                    unsigned char* mem, size_t bytes) {
  int me = lanai_emu_node();
  memset(mem, 0xEE, bytes);
  struct pair_vi p;
  if (open_pair_vi(mem, bytes, &p) || !refuses_bad_policies(p.vi, me) || set_fragmentation(&p, how))
    return 2;
  VIP_VI_HANDLE vi = p.vi;
  VIP_MEM_HANDLE mh = p.mh;
  unsigned char* buf[MAX_MESSAGES];
  VIP_DESCRIPTOR* desc[MAX_MESSAGES];
  unsigned char* at = mem + 64 * MAX_MESSAGES;
  for (int m = 0; m < count; m++) {
    desc[m] = (VIP_DESCRIPTOR*)(mem + 64 * m);
    buf[m] = at;
    at += sizes[m] + GUARD;
    if (me == 0)
      for (int i = 0; i < sizes[m]; i++)
        buf[m][i] = pattern(m, i);
    memset(desc[m], 0, sizeof *desc[m]);
    /* two segments, split unevenly, so fragments straddle them */
    int first = sizes[m] / 3;
    desc[m]->CS.SegCount = 2;
    desc[m]->CS.Length = (VIP_UINT32)sizes[m];
    desc[m]->DS[0].Local.Data.Address = buf[m];
    desc[m]->DS[0].Local.Handle = mh;
    desc[m]->DS[0].Local.Length = (VIP_UINT32)first;
    desc[m]->DS[1].Local.Data.Address = buf[m] + first;
    desc[m]->DS[1].Local.Handle = mh;
    desc[m]->DS[1].Local.Length = (VIP_UINT32)(sizes[m] - first);
    if (me == 1 && VipPostRecv(vi, desc[m], mh) != VIP_SUCCESS)
      return 3;
  }
  if (connect_pair(&p, me))
    return 3;
  int bad = 0;
  for (int m = 0; m < count; m++) {
    VIP_DESCRIPTOR* d;
    if (me == 0) {
      if (VipPostSend(vi, desc[m], mh) != VIP_SUCCESS)
        return 4;
      continue;
    }
    if (VipRecvWait(vi, VIP_INFINITE, &d) != VIP_SUCCESS)
      return 4;
    if (d != desc[m] || d->CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE) ||
        d->CS.Length != (VIP_UINT32)sizes[m]) {
      fprintf(stderr, "node1: message %d: status 0x%x length %u\n", m, (unsigned)d->CS.Status,
              (unsigned)d->CS.Length);
      bad = 1;
      continue;
    }
    for (int i = 0; i < sizes[m]; i++)
      if (buf[m][i] != pattern(m, i)) {
        fprintf(stderr, "node1: message %d byte %d is 0x%02x\n", m, i, buf[m][i]);
        bad = 1;
        break;
      }
    for (int i = 0; i < GUARD; i++)
      if (buf[m][sizes[m] + i] != 0xEE)
        bad = 1;
  }
  if (me == 0)
    for (int m = 0; m < count; m++) {
      VIP_DESCRIPTOR* d;
      if (VipSendWait(vi, VIP_INFINITE, &d) != VIP_SUCCESS || d->CS.Status != VIP_STATUS_DONE)
        return 5;
    }
  if (me == 1 && !bad)
    printf("node1: %d messages intact\n", count);
  return bad ? 6 : 0;
}

int via_main(int argc, char** argv) {
  if (argc < 8)
    return 1;
  LANAI_EMU_FRAGMENTATION how = fragmentation_from_args(argv + 1);
  int count = argc - 7, sizes[MAX_MESSAGES];
  if (count > MAX_MESSAGES)
    return 1;
  size_t bytes = 64 * MAX_MESSAGES;
  for (int m = 0; m < count; m++)
    sizes[m] = atoi(argv[7 + m]), bytes += (size_t)sizes[m] + GUARD;
  unsigned char* mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!mem)
    return 2;
  int status = exchange(&how, sizes, count, mem, bytes);
  free(mem);
  return status;
}
