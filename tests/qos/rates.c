/* Bandwidth shares under rate-based scheduling: node0 sends to node1 on
 * three reserved channels (rates in MB/s from the command line) and one
 * best-effort channel, keeping DEPTH messages of SIZE bytes posted on every
 * channel so the sender is always saturated. The receiver counts the bytes
 * each channel delivers over a window after a warm-up, in virtual time, and
 * prints the rates. The sender stops after the window and closes each
 * channel with a 4-byte message. Each message carries its number on its
 * channel, which the receiver checks: a channel's messages stay in order.
 * Usage: rates RATE0 RATE1 RATE2 [WARMUP_MS WINDOW_MS [EXPECT]]
 * EXPECT checks the rates: "reserved" (every reserved channel within 5% of
 * its rate, best effort some of the rest), "proportional" (every reserved
 * channel at least its rate, all of them the same multiple of it within 5%:
 * what VirtualClock gives sources that always have work), "starved" (best
 * effort under 1% of the total) or "shared" (best effort over 5% of the
 * total). A last argument "flow" puts every channel under credit flow
 * control: then each send waits on the card for a credit, and the shares
 * show that the scheduler still orders what has its credits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "tests/vipl/vipl_test_util.h"

enum { CHANNELS = 4, BEST_EFFORT = 3, SIZE = 4096, DEPTH = 8, RECV_DEPTH = 16, SLOT = SIZE + 128 };

struct node {
  VIP_NIC_HANDLE nic;
  VIP_MEM_HANDLE mh;
  VIP_CQ_HANDLE cq;
  VIP_VI_HANDLE vis[CHANNELS];
  VIP_QOS_REQUEST qos[CHANNELS];
  unsigned char* mem;
};

static int channel_of(struct node* n, VIP_VI_HANDLE vi) {
  for (int c = 0; c < CHANNELS; c++)
    if (n->vis[c] == vi)
      return c;
  return -1;
}

static VIP_DESCRIPTOR* slot_desc(struct node* n, int c, int i) {
  return (VIP_DESCRIPTOR*)(n->mem + ((size_t)c * RECV_DEPTH + i) * SLOT);
}
static unsigned char* slot_buf(struct node* n, int c, int i) {
  return (unsigned char*)slot_desc(n, c, i) + 64;
}

/* Waits for the next completion on the node's queue: its channel and descriptor. */
static VIP_DESCRIPTOR* next_done(struct node* n, int* channel) {
  VIP_VI_HANDLE vi;
  VIP_BOOLEAN recv;
  VIP_DESCRIPTOR* d = NULL;
  if (VipCQWait(n->cq, VIP_INFINITE, &vi, &recv) != VIP_SUCCESS)
    exit(3);
  VIP_RETURN r = recv ? VipRecvDone(vi, &d) : VipSendDone(vi, &d);
  if (r != VIP_SUCCESS || (d->CS.Status & VIP_STATUS_ERROR_MASK)) {
    fprintf(stderr, "node%d: completion failed: ret %d status 0x%x\n", lanai_emu_node(), (int)r,
            d ? (unsigned)d->CS.Status : 0u);
    exit(3);
  }
  *channel = channel_of(n, vi);
  return d;
}

static void number(VIP_DESCRIPTOR* d, uint32_t* sent) {
  memcpy(d->DS[0].Local.Data.Address, sent, sizeof *sent);
  ++*sent;
}

static int sender(struct node* n, uint64_t stop_ns) {
  int outstanding = 0;
  uint32_t sent[CHANNELS] = {0};
  for (int i = 0; i < DEPTH; i++)
    for (int c = 0; c < CHANNELS; c++) {
      vt_fill(slot_desc(n, c, i), slot_buf(n, c, i), SIZE, n->mh);
      number(slot_desc(n, c, i), &sent[c]);
      VT_CHECK(VipPostSend(n->vis[c], slot_desc(n, c, i), n->mh) == VIP_SUCCESS);
      outstanding++;
    }
  while (outstanding > 0) {
    int c;
    VIP_DESCRIPTOR* d = next_done(n, &c);
    outstanding--;
    if (lanai_emu_now_ns() < stop_ns) {
      number(d, &sent[c]);
      VT_CHECK(VipPostSend(n->vis[c], d, n->mh) == VIP_SUCCESS);
      outstanding++;
    }
  }
  for (int c = 0; c < CHANNELS; c++)
    VT_CHECK(vt_post(n->vis[c], slot_desc(n, c, 0), slot_buf(n, c, 0), 4, n->mh, 0) == VIP_SUCCESS);
  for (int closed = 0; closed < CHANNELS; closed++) {
    int c;
    next_done(n, &c);
  }
  return 0;
}

static int receiver(struct node* n, uint64_t from_ns, uint64_t to_ns, double window_s,
                    const char* expect) {
  uint64_t bytes[CHANNELS] = {0};
  uint32_t expected[CHANNELS] = {0};
  double rates[CHANNELS];
  int open = CHANNELS;
  while (open > 0) {
    int c;
    VIP_DESCRIPTOR* d = next_done(n, &c);
    const uint64_t now = lanai_emu_now_ns();
    if (d->CS.Length == 4) {
      open--;
      continue;
    }
    uint32_t seq;
    memcpy(&seq, d->DS[0].Local.Data.Address, sizeof seq);
    if (seq != expected[c]) {
      fprintf(stderr, "node1: channel %d: message %u arrived, expected %u\n", c, (unsigned)seq,
              (unsigned)expected[c]);
      return 20;
    }
    expected[c]++;
    if (now >= from_ns && now < to_ns)
      bytes[c] += d->CS.Length;
    VT_CHECK(VipPostRecv(n->vis[c], d, n->mh) == VIP_SUCCESS);
  }
  double total = 0.0;
  for (int c = 0; c < CHANNELS; c++) {
    const double rate = (double)bytes[c] / window_s / 1e6;
    rates[c] = rate;
    total += rate;
    if (c == BEST_EFFORT)
      printf("node1: best effort received %.2f MB/s\n", rate);
    else
      printf("node1: channel %d reserved %.0f MB/s received %.2f MB/s\n", c,
             n->qos[c].BandwidthBytesPerSec / 1e6, rate);
  }
  printf("node1: total %.2f MB/s\n", total);
  if (strcmp(expect, "reserved") == 0) {
    for (int c = 0; c < BEST_EFFORT; c++) {
      const double reserved = n->qos[c].BandwidthBytesPerSec / 1e6;
      VT_CHECK(rates[c] > reserved * 0.95 && rates[c] < reserved * 1.05);
    }
    VT_CHECK(rates[BEST_EFFORT] > 0.0);
  } else if (strcmp(expect, "proportional") == 0) {
    const double multiple = rates[0] / (n->qos[0].BandwidthBytesPerSec / 1e6);
    VT_CHECK(multiple > 0.95);
    for (int c = 1; c < BEST_EFFORT; c++) {
      const double m = rates[c] / (n->qos[c].BandwidthBytesPerSec / 1e6);
      VT_CHECK(m > multiple * 0.95 && m < multiple * 1.05);
    }
  } else if (strcmp(expect, "starved") == 0) {
    VT_CHECK(rates[BEST_EFFORT] < total * 0.01);
  } else if (strcmp(expect, "shared") == 0) {
    VT_CHECK(rates[BEST_EFFORT] > total * 0.05);
  } else if (*expect != '\0') {
    return 64;
  }
  if (*expect != '\0')
    printf("node1: %s as expected\n", expect);
  return 0;
}

int via_main(int argc, char** argv) {
  if (argc < 4)
    return 64;
  const double warmup_ms = argc > 4 ? atof(argv[4]) : 5.0;
  const double window_ms = argc > 5 ? atof(argv[5]) : 20.0;
  const char* expect = argc > 6 ? argv[6] : "";
  const int flow = argc > 7 && strcmp(argv[7], "flow") == 0;
  const int me = lanai_emu_node(), peer = 1 - me;
  if (me > 1)
    return 0;
  struct node* n = calloc(1, sizeof *n);
  VIP_PROTECTION_HANDLE ptag;
  VT_CHECK(VipOpenNic("nic0", &n->nic) == VIP_SUCCESS);
  VT_CHECK(VipCreatePtag(n->nic, &ptag) == VIP_SUCCESS);
  VT_CHECK(VipCreateCQ(n->nic, CHANNELS * RECV_DEPTH, &n->cq) == VIP_SUCCESS);
  const size_t bytes = (size_t)CHANNELS * RECV_DEPTH * SLOT;
  n->mem = aligned_alloc(64, bytes);
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipRegisterMem(n->nic, n->mem, bytes, &mattrs, &n->mh) == VIP_SUCCESS);
  for (int c = 0; c < CHANNELS; c++) {
    n->qos[c].BandwidthBytesPerSec = c == BEST_EFFORT ? 0 : (VIP_ULONG)(atof(argv[1 + c]) * 1e6);
    // Unreliable VIs: each message costs the firmwares what the published
    // ones' did (a reliable level adds its acknowledgements).
    VIP_VI_ATTRIBUTES attrs = {
        VIP_SERVICE_UNRELIABLE, SIZE, &n->qos[c], ptag, VIP_FALSE, VIP_FALSE};
    VIP_CQ_HANDLE send_cq = me == 0 ? n->cq : NULL, recv_cq = me == 1 ? n->cq : NULL;
    VT_CHECK(VipCreateVi(n->nic, &attrs, send_cq, recv_cq, &n->vis[c]) == VIP_SUCCESS);
    if (flow)
      VT_CHECK(lanai_emu_set_flow_control(n->vis[c], VIP_TRUE) == VIP_SUCCESS);
    if (me == 1)
      for (int i = 0; i < RECV_DEPTH; i++)
        VT_CHECK(vt_post(n->vis[c], slot_desc(n, c, i), slot_buf(n, c, i), SIZE, n->mh, 1) ==
                 VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vis[c], me, peer, (VIP_UINT8)c, me == 0) == VIP_SUCCESS);
  }
  const uint64_t start = lanai_emu_now_ns();
  const uint64_t from = start + (uint64_t)(warmup_ms * 1e6);
  const uint64_t to = from + (uint64_t)(window_ms * 1e6);
  const int status =
      me == 0 ? sender(n, to + 1000000u) : receiver(n, from, to, window_ms / 1e3, expect);
  free(n->mem);
  free(n);
  return status;
}
