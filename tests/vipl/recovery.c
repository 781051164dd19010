/* How a card recovers after a loss, each scenario with a profile that loses
 * exactly the packet that matters (links down for a window):
 *   error-ack-lost   Reliable Reception: node1's receive is too short for
 *                    node0's first message, and node1's link out is down
 *                    while the acknowledgement saying so (and those of the
 *                    resends) would cross it. node0's send must still
 *                    complete with VIP_STATUS_REMOTE_DESC_ERROR, the next
 *                    one with success, and node1 get the second intact.
 *   stale-ack        Reliable Delivery: node0 sends one message, both sides
 *                    disconnect and connect again before node1 has
 *                    acknowledged it, and node0's first message on the new
 *                    connection is lost. node1 must still get both
 *                    messages of the new connection, intact and in order:
 *                    the old connection's acknowledgement must not settle
 *                    the new one's lost message.
 *   timer-wait       Reliable Delivery: node0's only message is lost and
 *                    both programs wait without a deadline (node1 for the
 *                    message, node0 for the reply) while the card's resend
 *                    is due only after the launcher's deadlock window: the
 *                    run must finish, not be reported as a deadlock.
 * Run: ./vipl_recovery --nodes 2 --profile P -- SCENARIO */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define SLOTS 8
#define SLOT 4096

struct node {
  int me;
  VIP_NIC_HANDLE nic;
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
  unsigned char* mem;
};

static VIP_DESCRIPTOR* desc(struct node* n, int i) {
  return vt_slot_descriptor(n->mem, SLOT + 128, i);
}
static unsigned char* buf(struct node* n, int i) { return vt_slot_data(n->mem, SLOT + 128, i); }
static unsigned char pattern(int message, VIP_UINT32 offset) {
  return (unsigned char)(message * 29 + offset * 7 + (offset >> 8));
}
static void fill(struct node* n, int slot, int message, VIP_UINT32 bytes) {
  for (VIP_UINT32 o = 0; o < bytes; o++)
    buf(n, slot)[o] = pattern(message, o);
}
static int intact(struct node* n, int slot, int message, VIP_UINT32 bytes) {
  for (VIP_UINT32 o = 0; o < bytes; o++)
    if (buf(n, slot)[o] != pattern(message, o))
      return 0;
  return 1;
}
static unsigned long long now_us(void) { return (unsigned long long)(lanai_emu_now_ns() / 1000); }
static void sleep_until_us(unsigned long long us) {
  unsigned long long at = now_us();
  if (at < us)
    lanai_emu_sleep_ns((us - at) * 1000ull);
}

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  (void)context;
  (void)e;
}

static int open_vi(struct node* n, VIP_RELIABILITY_LEVEL level) {
  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS || VipCreatePtag(n->nic, &ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  size_t bytes = (size_t)SLOTS * (SLOT + 128);
  n->mem = aligned_alloc(64, bytes);
  memset(n->mem, 0, bytes);
  VIP_MEM_ATTRIBUTES ma = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, bytes, &ma, &n->mh) != VIP_SUCCESS)
    return 1;
  VIP_VI_ATTRIBUTES va = {level, SLOT, NULL, ptag, VIP_FALSE, VIP_FALSE};
  return VipCreateVi(n->nic, &va, NULL, NULL, &n->vi) != VIP_SUCCESS;
}

static VIP_UINT32 errors_of(VIP_DESCRIPTOR* d) { return d->CS.Status & VIP_STATUS_ERROR_MASK; }

static int error_ack_lost(struct node* n) {
  VIP_DESCRIPTOR* d;
  if (n->me == 1) {
    VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), 16, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_post(n->vi, desc(n, 1), buf(n, 1), SLOT, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vi, 1, 0, 0, 0) == VIP_SUCCESS);
    VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 0));
    VT_CHECK(errors_of(d) == VIP_STATUS_LENGTH_ERROR);
    VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 1));
    VT_CHECK(errors_of(d) == 0 && d->CS.Length == 1024 && intact(n, 1, 1, 1024));
    printf("node1: error-ack-lost: receive 0 too short, receive 1 intact\n");
    return 0;
  }
  VT_CHECK(vt_connect(n->nic, n->vi, 0, 1, 0, 1) == VIP_SUCCESS);
  for (int i = 0; i < 2; i++) {
    fill(n, 4 + i, i, 1024);
    VT_CHECK(vt_post(n->vi, desc(n, 4 + i), buf(n, 4 + i), 1024, n->mh, 0) == VIP_SUCCESS);
  }
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 4));
  if (errors_of(d) != VIP_STATUS_REMOTE_DESC_ERROR) {
    fprintf(stderr, "node0: send 0 status 0x%x, expected a remote descriptor error\n",
            (unsigned)d->CS.Status);
    return 20;
  }
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 5));
  VT_CHECK(errors_of(d) == 0);
  printf("node0: error-ack-lost: send 0 remote descriptor error, send 1 done, at %llu us\n",
         now_us());
  return 0;
}

/* Times (us) the profile stale-ack.toml is written for: node0's link out is
 * down around SEND_LOST_US; node1's delayed acknowledgement of the first
 * connection's message is due a quarter of the 20 ms retransmission
 * timeout after it arrived, well after the reconnection and the loss. */
#define RECONNECTED_BY_US 2500ull
#define SEND_LOST_US 3000ull
#define SEND_AFTER_ACK_US 9000ull

static int stale_ack(struct node* n) {
  VIP_DESCRIPTOR* d;
  if (n->me == 1) {
    VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), SLOT, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_post(n->vi, desc(n, 1), buf(n, 1), SLOT, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vi, 1, 0, 0, 0) == VIP_SUCCESS);
    VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 0));
    VT_CHECK(errors_of(d) == 0 && intact(n, 0, 0, 512));
    /* node0's disconnection flushes the receive left posted */
    VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 1));
    VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
    for (int i = 2; i < 4; i++)
      VT_CHECK(vt_post(n->vi, desc(n, i), buf(n, i), SLOT, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vi, 1, 0, 1, 0) == VIP_SUCCESS);
    VT_CHECK(now_us() < RECONNECTED_BY_US);
    for (int i = 2; i < 4; i++) {
      VIP_RETURN r = VipRecvWait(n->vi, 200, &d);
      if (r != VIP_SUCCESS) {
        fprintf(stderr, "node1: message %d of the new connection never came\n", i - 1);
        return 30;
      }
      if (d != desc(n, i) || errors_of(d) != 0 || !intact(n, i, i - 1, 512)) {
        fprintf(stderr, "node1: message %d: status 0x%x, length %u, %s\n", i - 1,
                (unsigned)d->CS.Status, (unsigned)d->CS.Length,
                d != desc(n, i) ? "another receive" : "damaged or another message");
        return 31;
      }
    }
    fill(n, 4, 9, 8);
    VT_CHECK(vt_post(n->vi, desc(n, 4), buf(n, 4), 8, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
    printf("node1: stale-ack: both messages of the new connection intact, in order\n");
    return 0;
  }
  VT_CHECK(vt_connect(n->nic, n->vi, 0, 1, 0, 1) == VIP_SUCCESS);
  fill(n, 4, 0, 512);
  VT_CHECK(vt_post(n->vi, desc(n, 4), buf(n, 4), 512, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
  lanai_emu_sleep_ns(200000); /* it has arrived */
  VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), SLOT, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, 0, 1, 1, 1) == VIP_SUCCESS);
  VT_CHECK(now_us() < RECONNECTED_BY_US);
  sleep_until_us(SEND_LOST_US);
  fill(n, 5, 1, 512);
  VT_CHECK(vt_post(n->vi, desc(n, 5), buf(n, 5), 512, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
  sleep_until_us(SEND_AFTER_ACK_US);
  fill(n, 6, 2, 512);
  VT_CHECK(vt_post(n->vi, desc(n, 6), buf(n, 6), 512, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
  VIP_RETURN r = VipRecvWait(n->vi, 300, &d);
  VT_CHECK(r == VIP_SUCCESS && d == desc(n, 0) && errors_of(d) == 0);
  printf("node0: stale-ack: reply at %llu us\n", now_us());
  return 0;
}

static int timer_wait(struct node* n) {
  VIP_DESCRIPTOR* d;
  VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), SLOT, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, n->me, 1 - n->me, 0, n->me == 0) == VIP_SUCCESS);
  if (n->me == 0) {
    fill(n, 4, 0, 256);
    VT_CHECK(vt_post(n->vi, desc(n, 4), buf(n, 4), 256, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
    VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 0));
    VT_CHECK(errors_of(d) == 0 && intact(n, 0, 1, 256));
    printf("node0: timer-wait: reply at %llu us\n", now_us());
    return 0;
  }
  VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 0));
  VT_CHECK(errors_of(d) == 0 && intact(n, 0, 0, 256));
  fill(n, 4, 1, 256);
  VT_CHECK(vt_post(n->vi, desc(n, 4), buf(n, 4), 256, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && errors_of(d) == 0);
  printf("node1: timer-wait: message at %llu us\n", now_us());
  return 0;
}

int via_main(int argc, char** argv) {
  if (argc != 2)
    return 64;
  const int me = lanai_emu_node();
  if (me > 1)
    return 0;
  struct node* n = calloc(1, sizeof *n);
  n->me = me;
  int status = 64;
  const VIP_RELIABILITY_LEVEL level = strcmp(argv[1], "error-ack-lost") == 0
                                          ? VIP_SERVICE_RELIABLE_RECEPTION
                                          : VIP_SERVICE_RELIABLE_DELIVERY;
  if (strcmp(argv[1], "error-ack-lost") == 0 || strcmp(argv[1], "stale-ack") == 0 ||
      strcmp(argv[1], "timer-wait") == 0) {
    if (open_vi(n, level))
      return 10;
    if (strcmp(argv[1], "error-ack-lost") == 0)
      status = error_ack_lost(n);
    else if (strcmp(argv[1], "stale-ack") == 0)
      status = stale_ack(n);
    else
      status = timer_wait(n);
  }
  free(n->mem);
  free(n);
  return status;
}
