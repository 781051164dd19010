/* Bulk transfer: node0 streams MSGS messages of SIZE bytes to node1 over
 * VIS reliable VIs, keeping WINDOW sends posted per VI; node1 has a receive
 * posted for every message before it accepts the connections, so none ever
 * finds its queue empty. node1 prints the throughput, from virtual time:
 * payload bytes over the time from the last connection accepted to the
 * last message received.
 * Run: ./vipl_bulk --nodes 2 -- [VIS] [MSGS per VI] [SIZE] [WINDOW] */
#include <stdio.h>
#include <stdlib.h>
#include <vipl.h>

#include "vipl_test_util.h"

#define MAX_VIS 16
#define MAX_MSGS 64
#define MAX_WINDOW 16

struct bulk {
  VIP_NIC_HANDLE nic;
  VIP_MEM_HANDLE mh;
  VIP_VI_HANDLE vis[MAX_VIS];
  VIP_DESCRIPTOR* desc[MAX_VIS][MAX_MSGS];
  unsigned char* buf[MAX_VIS][MAX_MSGS];
};

static int completed(VIP_VI_HANDLE vi, int recv) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d);
  return r == VIP_SUCCESS && (d->CS.Status & VIP_STATUS_DONE) &&
         !(d->CS.Status & VIP_STATUS_ERROR_MASK);
}

int via_main(int argc, char** argv) {
  int nvis = argc > 1 ? atoi(argv[1]) : 4, msgs = argc > 2 ? atoi(argv[2]) : 16;
  int size = argc > 3 ? atoi(argv[3]) : 16384, window = argc > 4 ? atoi(argv[4]) : 4;
  if (nvis < 1 || nvis > MAX_VIS || msgs < 1 || msgs > MAX_MSGS || size < 1 || size > 65536 ||
      window < 1 || window > MAX_WINDOW)
    return 64;
  int me = lanai_emu_node();
  if (me > 1)
    return 0;
  int sender = me == 0, peer = 1 - me;
  /* A sender reuses WINDOW buffers per VI; the receiver has one per message. */
  int per_vi = sender ? window : msgs;
  struct bulk* b = calloc(1, sizeof *b);
  VIP_PROTECTION_HANDLE ptag;
  VT_CHECK(VipOpenNic("nic0", &b->nic) == VIP_SUCCESS);
  VT_CHECK(VipCreatePtag(b->nic, &ptag) == VIP_SUCCESS);
  size_t slot = ((size_t)size + 64 + 63) & ~(size_t)63;
  size_t bytes = (size_t)nvis * per_vi * slot;
  unsigned char *mem = aligned_alloc(64, bytes), *p = mem;
  VT_CHECK(mem != NULL);
  for (int v = 0; v < nvis; v++)
    for (int i = 0; i < per_vi; i++, p += slot) {
      b->desc[v][i] = (VIP_DESCRIPTOR*)p;
      b->buf[v][i] = p + 64;
      for (int k = 0; k < size; k++)
        b->buf[v][i][k] = (unsigned char)(v + i + k);
    }
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipRegisterMem(b->nic, mem, bytes, &mattrs, &b->mh) == VIP_SUCCESS);

  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, (VIP_UINT32)size, NULL, ptag, VIP_FALSE, VIP_FALSE};
  for (int v = 0; v < nvis; v++) {
    VT_CHECK(VipCreateVi(b->nic, &attrs, NULL, NULL, &b->vis[v]) == VIP_SUCCESS);
    if (!sender)
      for (int i = 0; i < msgs; i++)
        VT_CHECK(vt_post(b->vis[v], b->desc[v][i], b->buf[v][i], (VIP_UINT32)size, b->mh, 1) ==
                 VIP_SUCCESS);
    VT_CHECK(vt_connect(b->nic, b->vis[v], me, peer, (VIP_UINT8)v, sender) == VIP_SUCCESS);
  }

  uint64_t start = lanai_emu_now_ns();
  if (sender) {
    int posted[MAX_VIS] = {0}, done[MAX_VIS] = {0}, left = nvis * msgs;
    /* Fill every VI's window, then refill a slot as each send completes,
     * going round the VIs so all channels stay busy. */
    for (int v = 0; v < nvis; v++)
      for (; posted[v] < window && posted[v] < msgs; posted[v]++)
        VT_CHECK(vt_post(b->vis[v], b->desc[v][posted[v]], b->buf[v][posted[v]], (VIP_UINT32)size,
                         b->mh, 0) == VIP_SUCCESS);
    while (left > 0)
      for (int v = 0; v < nvis; v++) {
        if (done[v] == posted[v])
          continue;
        VT_CHECK(completed(b->vis[v], 0));
        done[v]++, left--;
        if (posted[v] < msgs) {
          int s = posted[v]++ % window;
          VT_CHECK(vt_post(b->vis[v], b->desc[v][s], b->buf[v][s], (VIP_UINT32)size, b->mh, 0) ==
                   VIP_SUCCESS);
        }
      }
  } else {
    for (int i = 0; i < msgs; i++)
      for (int v = 0; v < nvis; v++) {
        VT_CHECK(completed(b->vis[v], 1));
        VT_CHECK(b->desc[v][i]->CS.Length == (VIP_UINT32)size);
      }
    uint64_t ns = lanai_emu_now_ns() - start;
    double total = (double)nvis * msgs * size;
    printf("node1: %d messages of %d bytes on %d VIs in %llu ns: %.2f MB/s\n", nvis * msgs, size,
           nvis, (unsigned long long)ns, ns ? total * 1000.0 / (double)ns : 0.0);
  }
  free(mem);
  free(b);
  return 0;
}
