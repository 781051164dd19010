/* What each reliability level promises over a fabric that loses and damages
 * packets (run with a [faults] profile):
 *   unreliable N SIZE  node0 sends N numbered messages; node1 takes what
 *                      arrives until nothing has come for 50 ms and checks
 *                      that every message it got is intact and numbered
 *                      after the one before (none twice, none out of order),
 *                      and that neither node's error callback was called:
 *                      the cards drop damaged packets without a word.
 *   conn-lost LEVEL    node0's link to node1 stays down past the retry
 *                      budget: node0's sends (LEVEL rd or rr) and its
 *                      posted receive must complete (under rr the sends,
 *                      and the receive, with VIP_STATUS_TRANSPORT_ERROR)
 *                      and the error callback get VIP_ERROR_CONN_LOST.
 * Run: ./vipl_faults --nodes 2 --profile P -- MODE ARGS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define DEPTH 16
#define MAX_SIZE 4096

struct node {
  VIP_NIC_HANDLE nic;
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
  unsigned char* mem;
  int conn_lost;
  int errors; /* error callbacks of any kind */
};

static unsigned char pattern(VIP_UINT32 index, VIP_UINT32 offset) {
  return (unsigned char)(index * 13 + offset * 7 + (offset >> 8));
}

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors++;
  if (e->ErrorCode == VIP_ERROR_CONN_LOST && e->ViHandle == n->vi)
    n->conn_lost++;
}

static VIP_DESCRIPTOR* desc(struct node* n, int i) {
  return (VIP_DESCRIPTOR*)(n->mem + (size_t)i * (MAX_SIZE + 128));
}
static unsigned char* buf(struct node* n, int i) {
  return n->mem + (size_t)i * (MAX_SIZE + 128) + 64;
}

static int open_vi(struct node* n, VIP_RELIABILITY_LEVEL level) {
  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS || VipCreatePtag(n->nic, &ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  size_t bytes = (size_t)2 * DEPTH * (MAX_SIZE + 128);
  n->mem = aligned_alloc(64, bytes);
  memset(n->mem, 0, bytes);
  VIP_MEM_ATTRIBUTES ma = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, bytes, &ma, &n->mh) != VIP_SUCCESS)
    return 1;
  VIP_VI_ATTRIBUTES va = {level, MAX_SIZE, NULL, ptag, VIP_FALSE, VIP_FALSE};
  if (VipCreateVi(n->nic, &va, NULL, NULL, &n->vi) != VIP_SUCCESS)
    return 1;
  return 0;
}

static int unreliable(struct node* n, int me, int count, VIP_UINT32 size) {
  if (size < 4 || size > MAX_SIZE || count < 1)
    return 64;
  if (me == 1)
    for (int i = 0; i < DEPTH; i++)
      VT_CHECK(vt_post(n->vi, desc(n, i), buf(n, i), MAX_SIZE, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, me, 1 - me, 0, me == 0) == VIP_SUCCESS);
  if (me == 0) {
    for (int k = 0; k < count; k++) {
      int slot = k % DEPTH;
      VIP_DESCRIPTOR* done;
      if (k >= DEPTH)
        VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &done) == VIP_SUCCESS);
      unsigned char* b = buf(n, DEPTH + slot);
      memcpy(b, &k, 4);
      for (VIP_UINT32 o = 4; o < size; o++)
        b[o] = pattern((VIP_UINT32)k, o);
      VT_CHECK(vt_post(n->vi, desc(n, DEPTH + slot), b, size, n->mh, 0) == VIP_SUCCESS);
      /* at a pace the receiver keeps up with: losses are the fabric's */
      lanai_emu_sleep_ns(40000);
    }
    for (int k = count > DEPTH ? count - DEPTH : 0; k < count; k++) {
      VIP_DESCRIPTOR* done;
      VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &done) == VIP_SUCCESS);
    }
    VT_CHECK(n->errors == 0);
    return 0;
  }
  int got = 0, last = -1, next = 0;
  for (;;) {
    VIP_DESCRIPTOR* d;
    VIP_RETURN r = VipRecvWait(n->vi, 50, &d);
    if (r == VIP_TIMEOUT)
      break;
    VT_CHECK(r == VIP_SUCCESS && d == desc(n, next));
    VT_CHECK((d->CS.Status & VIP_STATUS_ERROR_MASK) == 0 && d->CS.Length == size);
    int index;
    memcpy(&index, buf(n, next), 4);
    if (index <= last || index >= count) {
      fprintf(stderr, "node1: message %d after %d: duplicated or out of order\n", index, last);
      return 30;
    }
    for (VIP_UINT32 o = 4; o < size; o++)
      if (buf(n, next)[o] != pattern((VIP_UINT32)index, o)) {
        fprintf(stderr, "node1: message %d byte %u damaged\n", index, o);
        return 31;
      }
    last = index;
    got++;
    VT_CHECK(vt_post(n->vi, d, buf(n, next), MAX_SIZE, n->mh, 1) == VIP_SUCCESS);
    next = (next + 1) % DEPTH;
  }
  printf("node1: unreliable: %d of %d delivered, intact, none twice, in order, %d error "
         "callbacks\n",
         got, count, n->errors);
  VT_CHECK(got > count / 2);
  VT_CHECK(n->errors == 0);
  return 0;
}

static int conn_lost(struct node* n, int me, VIP_RELIABILITY_LEVEL level) {
  if (me == 1) {
    for (int i = 0; i < 4; i++)
      VT_CHECK(vt_post(n->vi, desc(n, i), buf(n, i), MAX_SIZE, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vi, me, 0, 0, 0) == VIP_SUCCESS);
    VIP_DESCRIPTOR* d;
    /* nothing gets through: its link is down */
    VT_CHECK(VipRecvWait(n->vi, 200, &d) == VIP_TIMEOUT);
    printf("node1: nothing arrived\n");
    return 0;
  }
  VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), MAX_SIZE, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, me, 1, 0, 1) == VIP_SUCCESS);
  for (int i = 1; i <= 4; i++)
    VT_CHECK(vt_post(n->vi, desc(n, i), buf(n, i), 1024, n->mh, 0) == VIP_SUCCESS);
  for (int i = 1; i <= 4; i++) {
    VIP_DESCRIPTOR* d;
    VT_CHECK(VipSendWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, i));
    VIP_UINT32 errors = d->CS.Status & VIP_STATUS_ERROR_MASK;
    if (level == VIP_SERVICE_RELIABLE_RECEPTION ? errors != VIP_STATUS_TRANSPORT_ERROR
                                                : errors != 0) {
      fprintf(stderr, "node0: send %d status 0x%x\n", i, (unsigned)d->CS.Status);
      return 40;
    }
  }
  VIP_DESCRIPTOR* d;
  VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS && d == desc(n, 0));
  VT_CHECK((d->CS.Status & VIP_STATUS_ERROR_MASK) == VIP_STATUS_TRANSPORT_ERROR);
  VIP_VI_ATTRIBUTES attrs;
  VIP_VI_STATE state;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_ERROR);
  VT_CHECK(n->conn_lost == 1);
  printf("node0: conn-lost ok: sends %s, receive 0x%x, VIP_ERROR_CONN_LOST at %llu us\n",
         level == VIP_SERVICE_RELIABLE_RECEPTION ? "failed" : "completed",
         (unsigned)(d->CS.Status & VIP_STATUS_ERROR_MASK),
         (unsigned long long)(lanai_emu_now_ns() / 1000));
  return 0;
}

int via_main(int argc, char** argv) {
  if (argc < 2)
    return 64;
  int me = lanai_emu_node();
  if (me > 1)
    return 0;
  struct node* n = calloc(1, sizeof *n);
  int status = 64;
  if (strcmp(argv[1], "unreliable") == 0 && argc == 4) {
    if (open_vi(n, VIP_SERVICE_UNRELIABLE))
      return 10;
    status = unreliable(n, me, atoi(argv[2]), (VIP_UINT32)atoi(argv[3]));
  } else if (strcmp(argv[1], "conn-lost") == 0 && argc == 3) {
    VIP_RELIABILITY_LEVEL level =
        strcmp(argv[2], "rr") == 0 ? VIP_SERVICE_RELIABLE_RECEPTION : VIP_SERVICE_RELIABLE_DELIVERY;
    if (open_vi(n, level))
      return 10;
    status = conn_lost(n, me, level);
  }
  free(n->mem);
  free(n);
  return status;
}
