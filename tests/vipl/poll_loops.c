/* Programs that poll their queues in loops instead of blocking: node1
 * spins on VipRecvDone for each of ROUNDS messages, on VipCQDone for the
 * next ROUNDS, and gives up on one message that comes too late for its poll
 * budget; node0 spins on VipSendDone after each send. Each side counts its
 * polls and reads the clock between them, and prints both with a checksum
 * of what it received. With `alone`, node0 alone polls a receive that
 * nothing will fill, a budget of POLLS looks, then waits 1 ms on its
 * completion queue. The
 * same lines must come out
 * whether polls that cannot succeed leave the program (--no-fast-forward)
 * or not.
 * Run: ./vipl_poll_loops --nodes 2 [-- ROUNDS]
 *      ./vipl_poll_loops --nodes 1 -- alone POLLS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "vipl_test_util.h"

#define MAX_ROUNDS 32
#define BYTES 1024
/* node1 gives up on the last message after this many polls; node0 sends it
 * long after that. */
#define BUDGET 50
#define LATE_NS 2000000u

struct node {
  VIP_NIC_HANDLE nic;
  VIP_VI_HANDLE vi;
  VIP_CQ_HANDLE cq;
  VIP_MEM_HANDLE mh;
  unsigned char* mem;
};

static VIP_DESCRIPTOR* desc(struct node* n, int i) {
  return vt_slot_descriptor(n->mem, BYTES + 64, i);
}
static unsigned char* buf(struct node* n, int i) { return vt_slot_data(n->mem, BYTES + 64, i); }

/* What a side's poll loops saw: the polls that found nothing, and the clock
 * read after each (its low bits summed). */
struct spin {
  unsigned long long polls, clock_sum;
};

static VIP_RETURN spin_send(struct node* n, struct spin* s) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r;
  while ((r = VipSendDone(n->vi, &d)) == VIP_NOT_DONE) {
    ++s->polls;
    s->clock_sum += lanai_emu_now_ns() & 0xFFFF;
  }
  return r == VIP_SUCCESS && (d->CS.Status & VIP_STATUS_ERROR_MASK) ? VIP_ERROR_RESOURCE : r;
}

static int sender(struct node* n, int rounds) {
  struct spin s = {0, 0};
  for (int i = 0; i <= 2 * rounds; i++) {
    /* Uneven gaps; every other send is posted straight after the poll that
     * saw the one before it complete. */
    if (i == 2 * rounds)
      lanai_emu_compute_ns(LATE_NS);
    else if (i % 2 == 0)
      lanai_emu_compute_ns(3000u + 700u * (unsigned)i);
    for (int k = 0; k < BYTES; k++)
      buf(n, i)[k] = (unsigned char)(i * 7 + k);
    VT_CHECK(vt_post(n->vi, desc(n, i), buf(n, i), BYTES, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(spin_send(n, &s) == VIP_SUCCESS);
  }
  printf("node0: %d sends, %llu polls, clock sum %llu, done at %llu ns\n", 2 * rounds + 1, s.polls,
         s.clock_sum, (unsigned long long)lanai_emu_now_ns());
  return 0;
}

static int receiver(struct node* n, int rounds) {
  struct spin s = {0, 0};
  unsigned long sum = 0;
  for (int i = 0; i < 2 * rounds; i++) {
    VIP_DESCRIPTOR* d = NULL;
    VIP_VI_HANDLE vi = NULL;
    VIP_BOOLEAN recv = VIP_FALSE;
    if (i < rounds) {
      while (VipRecvDone(n->vi, &d) == VIP_NOT_DONE) {
        ++s.polls;
        s.clock_sum += lanai_emu_now_ns() & 0xFFFF;
      }
      VT_CHECK(VipCQDone(n->cq, &vi, &recv) == VIP_SUCCESS); /* its entry, already there */
    } else {
      while (VipCQDone(n->cq, &vi, &recv) == VIP_NOT_DONE) {
        ++s.polls;
        s.clock_sum += lanai_emu_now_ns() & 0xFFFF;
      }
      VT_CHECK(VipRecvDone(n->vi, &d) == VIP_SUCCESS);
    }
    VT_CHECK(vi == n->vi && recv == VIP_TRUE);
    VT_CHECK(d == desc(n, i) && !(d->CS.Status & VIP_STATUS_ERROR_MASK));
    VT_CHECK(d->CS.Length == BYTES);
    for (int k = 0; k < BYTES; k++) {
      VT_CHECK(buf(n, i)[k] == (unsigned char)(i * 7 + k));
      sum = sum * 31 + buf(n, i)[k];
    }
  }
  /* A budget of polls, spent long before the last message comes. */
  VIP_DESCRIPTOR* d = NULL;
  int left = BUDGET;
  while (left > 0 && VipRecvDone(n->vi, &d) == VIP_NOT_DONE)
    --left;
  VT_CHECK(left == 0);
  const unsigned long long gave_up = (unsigned long long)lanai_emu_now_ns();
  VT_CHECK(VipRecvWait(n->vi, VIP_INFINITE, &d) == VIP_SUCCESS);
  VT_CHECK(d == desc(n, 2 * rounds));
  printf("node1: %d receives intact (checksum %lu), %llu polls, clock sum %llu, gave up at %llu "
         "ns, last at %llu ns\n",
         2 * rounds, sum, s.polls, s.clock_sum, gave_up, (unsigned long long)lanai_emu_now_ns());
  return 0;
}

/* Polls an unconnected VI's receive queue `polls` times; nothing comes. */
static int alone(struct node* n, long polls) {
  VT_CHECK(vt_post(n->vi, desc(n, 0), buf(n, 0), BYTES, n->mh, 1) == VIP_SUCCESS);
  VIP_DESCRIPTOR* d = NULL;
  unsigned long long clock_sum = 0;
  long left = polls;
  while (left > 0 && VipRecvDone(n->vi, &d) == VIP_NOT_DONE) {
    --left;
    clock_sum += lanai_emu_now_ns() & 0xFFFF;
  }
  VT_CHECK(left == 0);
  /* Then a wait of 1 ms on the completion queue, which must last 1 ms on
   * the program's own clock. */
  const uint64_t before = lanai_emu_now_ns();
  VIP_VI_HANDLE vi = NULL;
  VIP_BOOLEAN recv = VIP_FALSE;
  VT_CHECK(VipCQWait(n->cq, 1, &vi, &recv) == VIP_TIMEOUT);
  const uint64_t waited = lanai_emu_now_ns() - before;
  VT_CHECK(waited >= 1000000u);
  printf("node0: %ld polls, none done, clock sum %llu, waited %llu ns, at %llu ns\n", polls,
         clock_sum, (unsigned long long)waited, (unsigned long long)lanai_emu_now_ns());
  return 0;
}

int via_main(int argc, char** argv) {
  const int by_itself = argc > 1 && strcmp(argv[1], "alone") == 0;
  const long polls = by_itself && argc > 2 ? atol(argv[2]) : 0;
  const int rounds = by_itself ? 1 : argc > 1 ? atoi(argv[1]) : 4;
  if (by_itself && (polls < 1 || polls > 10000000))
    return 64;
  if (rounds < 1 || rounds > MAX_ROUNDS)
    return 64;
  const int me = lanai_emu_node();
  if (me > (by_itself ? 0 : 1))
    return 0;
  struct node n = {0};
  VIP_PROTECTION_HANDLE ptag;
  VT_CHECK(VipOpenNic("nic0", &n.nic) == VIP_SUCCESS);
  VT_CHECK(VipCreatePtag(n.nic, &ptag) == VIP_SUCCESS);
  const size_t bytes = (size_t)(2 * rounds + 1) * (BYTES + 64);
  n.mem = aligned_alloc(64, bytes);
  VT_CHECK(n.mem != NULL);
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipRegisterMem(n.nic, n.mem, bytes, &mattrs, &n.mh) == VIP_SUCCESS);
  VT_CHECK(VipCreateCQ(n.nic, 64, &n.cq) == VIP_SUCCESS);
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, BYTES, NULL, ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipCreateVi(n.nic, &attrs, NULL, me == 1 || by_itself ? n.cq : NULL, &n.vi) ==
           VIP_SUCCESS);
  int status;
  if (by_itself) {
    status = alone(&n, polls);
  } else {
    if (me == 1)
      for (int i = 0; i <= 2 * rounds; i++)
        VT_CHECK(vt_post(n.vi, desc(&n, i), buf(&n, i), BYTES, n.mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n.nic, n.vi, me, 1 - me, 0, me == 0) == VIP_SUCCESS);
    status = me == 0 ? sender(&n, rounds) : receiver(&n, rounds);
  }
  free(n.mem);
  return status;
}
