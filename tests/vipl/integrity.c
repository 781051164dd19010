/* Integrity across many VIs: each even node sends to the next odd node on
 * VIS channels, ROUNDS rounds of DEPTH messages per VI, with sizes drawn at
 * random from 0 to 64 KiB. Every payload is a pattern of (vi, sequence,
 * offset), so the receiver checks each byte and the per-VI order without
 * being told what was sent. After each round the receiver acknowledges on
 * every VI, so no message ever finds its receive queue empty.
 * LEVEL is the VIs' reliability: rd (Reliable Delivery, the default) or rr
 * (Reliable Reception). FRAG, if given and above 0, has firmware that
 * pipelines cut the senders' messages into fragments of FRAG bytes.
 * Run: ./vipl_integrity --nodes 2 -- [VIS] [ROUNDS] [DEPTH] [LEVEL] [FRAG] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "vipl_test_util.h"

#define MAX_VIS 16
#define MAX_DEPTH 8
#define MAX_SIZE 65536

/* All nodes run in one process: per-node state lives in this struct. */
struct node {
  VIP_UINT64 rng;
  VIP_NIC_HANDLE nic;
  VIP_MEM_HANDLE mh;
  VIP_VI_HANDLE vis[MAX_VIS];
  VIP_DESCRIPTOR *desc[MAX_VIS][MAX_DEPTH], *ack_desc[MAX_VIS];
  unsigned char *buf[MAX_VIS][MAX_DEPTH], *ack_buf[MAX_VIS];
};

static VIP_UINT32 next_random(struct node* n) {
  n->rng = n->rng * 6364136223846793005ull + 1442695040888963407ull;
  return (VIP_UINT32)(n->rng >> 33);
}
static unsigned char pattern(int vi, int seq, VIP_UINT32 offset) {
  return (unsigned char)(vi * 31 + seq * 17 + offset * 7 + (offset >> 8));
}
/* Sizes favour the edges: 0, 1, small, around powers of two, and the MTU. */
static VIP_UINT32 random_size(struct node* n) {
  switch (next_random(n) % 6) {
  case 0:
    return next_random(n) % 5;
  case 1:
    return MAX_SIZE - next_random(n) % 3;
  case 2:
    return next_random(n) % 256;
  default:
    return next_random(n) % (MAX_SIZE + 1);
  }
}

static void post(struct node* n, VIP_VI_HANDLE vi, VIP_DESCRIPTOR* d, unsigned char* b,
                 VIP_UINT32 len, int recv) {
  VIP_RETURN r = vt_post(vi, d, b, len, n->mh, recv);
  if (r != VIP_SUCCESS) {
    fprintf(stderr, "post failed: %d\n", (int)r);
    exit(2);
  }
}

static VIP_DESCRIPTOR* wait_for(VIP_VI_HANDLE vi, int recv) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d);
  if (r != VIP_SUCCESS || !(d->CS.Status & VIP_STATUS_DONE) ||
      (d->CS.Status & VIP_STATUS_ERROR_MASK)) {
    fprintf(stderr, "node%d: %s completion failed: ret %d status 0x%x\n", lanai_emu_node(),
            recv ? "receive" : "send", (int)r, d ? (unsigned)d->CS.Status : 0u);
    exit(3);
  }
  return d;
}

int via_main(int argc, char** argv) {
  int nvis = argc > 1 ? atoi(argv[1]) : 8, rounds = argc > 2 ? atoi(argv[2]) : 3;
  int depth = argc > 3 ? atoi(argv[3]) : 4;
  VIP_RELIABILITY_LEVEL level = VIP_SERVICE_RELIABLE_DELIVERY;
  if (argc > 4 && strcmp(argv[4], "rr") == 0)
    level = VIP_SERVICE_RELIABLE_RECEPTION;
  else if (argc > 4 && strcmp(argv[4], "rd") != 0)
    return 64;
  const int frag = argc > 5 ? atoi(argv[5]) : 0;
  if (nvis < 1 || nvis > MAX_VIS || depth < 1 || depth > MAX_DEPTH || rounds < 1 || frag < 0)
    return 64;
  int me = lanai_emu_node(), sender = me % 2 == 0, peer = sender ? me + 1 : me - 1;
  if (peer >= lanai_emu_nodes())
    return 0; /* an odd node out has no partner */
  struct node* n = calloc(1, sizeof *n);
  n->rng = lanai_emu_seed() * 1000003u + (VIP_UINT64)(me / 2);

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS || VipCreatePtag(n->nic, &ptag) != VIP_SUCCESS)
    return 10;
  size_t bytes = (size_t)nvis * (depth * (MAX_SIZE + 128) + 128);
  unsigned char *mem = aligned_alloc(64, bytes), *p = mem;
  for (int v = 0; v < nvis; v++) {
    for (int i = 0; i < depth; i++, p += MAX_SIZE + 128)
      n->desc[v][i] = (VIP_DESCRIPTOR*)p, n->buf[v][i] = p + 64;
    n->ack_desc[v] = (VIP_DESCRIPTOR*)p, n->ack_buf[v] = p + 64, p += 128;
  }
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(n->nic, mem, bytes, &mattrs, &n->mh) != VIP_SUCCESS)
    return 11;

  VIP_VI_ATTRIBUTES attrs = {level, MAX_SIZE, NULL, ptag, VIP_FALSE, VIP_FALSE};
  for (int v = 0; v < nvis; v++) {
    if (VipCreateVi(n->nic, &attrs, NULL, NULL, &n->vis[v]) != VIP_SUCCESS)
      return 13;
    const LANAI_EMU_FRAGMENTATION cut = {VIA_FRAG_STATIC, (uint32_t)frag, {0, 0, 0, 0}};
    if (frag > 0 && lanai_emu_set_fragmentation(n->vis[v], &cut) != VIP_SUCCESS)
      return 15;
    if (sender)
      post(n, n->vis[v], n->ack_desc[v], n->ack_buf[v], 4, 1);
    else
      for (int i = 0; i < depth; i++)
        post(n, n->vis[v], n->desc[v][i], n->buf[v][i], MAX_SIZE, 1);
    /* the discriminator tells the channels apart */
    if (vt_connect(n->nic, n->vis[v], me, peer, (VIP_UINT8)v, sender) != VIP_SUCCESS)
      return 14;
  }

  unsigned long long checked = 0;
  int seq[MAX_VIS] = {0};
  for (int r = 0; r < rounds; r++) {
    if (sender) {
      /* interleave the VIs so the doorbells of all channels mix */
      for (int i = 0; i < depth; i++)
        for (int v = 0; v < nvis; v++) {
          VIP_UINT32 size = random_size(n);
          for (VIP_UINT32 k = 0; k < size; k++)
            n->buf[v][i][k] = pattern(v, seq[v], k);
          seq[v]++;
          post(n, n->vis[v], n->desc[v][i], n->buf[v][i], size, 0);
        }
      for (int i = 0; i < depth; i++)
        for (int v = 0; v < nvis; v++)
          wait_for(n->vis[v], 0);
      for (int v = 0; v < nvis; v++) {
        wait_for(n->vis[v], 1);
        if (r + 1 < rounds)
          post(n, n->vis[v], n->ack_desc[v], n->ack_buf[v], 4, 1);
      }
    } else {
      for (int i = 0; i < depth; i++)
        for (int v = 0; v < nvis; v++) {
          VIP_DESCRIPTOR* d = wait_for(n->vis[v], 1);
          VIP_UINT32 expected = random_size(n); /* same stream as the sender's */
          if (d->CS.Length != expected) {
            fprintf(stderr, "vi %d message %d: length %u, sent %u\n", v, seq[v],
                    (unsigned)d->CS.Length, (unsigned)expected);
            return 22;
          }
          if (d != n->desc[v][i]) {
            fprintf(stderr, "vi %d: completion out of posting order\n", v);
            return 20;
          }
          for (VIP_UINT32 k = 0; k < d->CS.Length; k++)
            if (n->buf[v][i][k] != pattern(v, seq[v], k)) {
              fprintf(stderr, "vi %d message %d: byte %u wrong (length %u)\n", v, seq[v], k,
                      (unsigned)d->CS.Length);
              return 21;
            }
          checked += d->CS.Length;
          seq[v]++;
        }
      /* Receives for the next round only: the card may read a posted
         descriptor at any time, so none may still be posted when the
         memory is freed below. */
      if (r + 1 < rounds)
        for (int v = 0; v < nvis; v++)
          for (int i = 0; i < depth; i++)
            post(n, n->vis[v], n->desc[v][i], n->buf[v][i], MAX_SIZE, 1);
      for (int v = 0; v < nvis; v++) {
        post(n, n->vis[v], n->ack_desc[v], n->ack_buf[v], 4, 0);
        wait_for(n->vis[v], 0);
      }
    }
  }
  if (!sender)
    printf("node%d: %d messages on %d VIs, %llu bytes intact and in order\n"
           "node%d: finished at %llu ns\n",
           me, rounds * depth * nvis, nvis, checked, me, (unsigned long long)lanai_emu_now_ns());
  free(mem);
  free(n);
  return 0;
}
