/* The VIPL error paths, one scenario per run: protection violations,
 * sends on unconnected VIs, arrivals with no receive posted (per
 * reliability level), a full doorbell queue, bad arguments, completion
 * queues and a deliberate deadlock.
 * Run: ./vipl_error_paths --nodes 2 -- SCENARIO */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "vipl_test_util.h"

/* All nodes run in one process: per-node state lives in this struct. */
struct node {
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag, other_ptag;
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
  unsigned char* mem; /* 64 KiB + 4 KiB, registered with `ptag` */
  int me;
  int errors_seen;
  VIP_ERROR_DESCRIPTOR last_error;
  void* owned[8]; /* buffers freed when the scenario ends */
  int n_owned;
};

/* A 64-byte aligned buffer that lives until the scenario ends. */
static unsigned char* buffer(struct node* n, size_t bytes) {
  unsigned char* p = aligned_alloc(64, bytes);
  n->owned[n->n_owned++] = p;
  return p;
}
static VIP_DESCRIPTOR* desc(struct node* n, int i) { return (VIP_DESCRIPTOR*)(n->mem + 64 * i); }
static unsigned char* data(struct node* n, int i) { return n->mem + 4096 + 1024 * i; }

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors_seen++;
  n->last_error = *e;
}

/* Opens the NIC, makes two ptags, registers `n->mem`, creates one VI. */
static int setup(struct node* n, VIP_RELIABILITY_LEVEL level) {
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->ptag) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->other_ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  n->mem = buffer(n, 69632);
  memset(n->mem, 0, 69632);
  VIP_MEM_ATTRIBUTES ma = {n->ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, 69632, &ma, &n->mh) != VIP_SUCCESS)
    return 1;
  VIP_VI_ATTRIBUTES va = {level, 65536, NULL, n->ptag, VIP_FALSE, VIP_FALSE};
  return VipCreateVi(n->nic, &va, NULL, NULL, &n->vi) != VIP_SUCCESS;
}

static VIP_UINT32 wait_status(struct node* n, int recv) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(n->vi, 10000, &d) : VipSendWait(n->vi, 10000, &d);
  return r == VIP_SUCCESS ? d->CS.Status : 0xFFFFFFFFu;
}

/* Sends one descriptor whose data segment is (addr, handle, len). */
static VIP_UINT32 send_segment(struct node* n, int slot, void* addr, VIP_MEM_HANDLE handle,
                               VIP_UINT32 len) {
  VIP_DESCRIPTOR* d = desc(n, slot);
  vt_fill(d, addr, len, handle);
  if (VipPostSend(n->vi, d, n->mh) != VIP_SUCCESS)
    return 0xFFFFFFFEu;
  return wait_status(n, 0);
}

static int protection(struct node* n) {
  const VIP_UINT32 prot = VIP_STATUS_DONE | VIP_STATUS_PROTECTION_ERROR;
  if (n->me == 1) {
    /* node1 tells node0 a handle of its own NIC, foreign to node0's */
    VT_CHECK(vt_post(n->vi, desc(n, 0), data(n, 0), 512, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, n->vi, 1, 0, 0, 0) == VIP_SUCCESS);
    memcpy(data(n, 1), &n->mh, sizeof n->mh);
    VT_CHECK(vt_post(n->vi, desc(n, 1), data(n, 1), sizeof n->mh, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(wait_status(n, 0) == VIP_STATUS_DONE);
    /* only the good message arrives: the bad ones put nothing on the wire */
    VT_CHECK(wait_status(n, 1) == (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE));
    VT_CHECK(desc(n, 0)->CS.Length == 100 && data(n, 0)[0] == 0xA5 && data(n, 0)[99] == 0xA5);
    /* a receive buffer in a region of another tag: error, buffer untouched */
    unsigned char* foreign = buffer(n, 4096);
    memset(foreign, 0x11, 4096);
    VIP_MEM_ATTRIBUTES ma = {n->other_ptag, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE fh;
    VT_CHECK(VipRegisterMem(n->nic, foreign, 4096, &ma, &fh) == VIP_SUCCESS);
    vt_fill(desc(n, 2), foreign, 512, fh);
    VT_CHECK(VipPostRecv(n->vi, desc(n, 2), n->mh) == VIP_SUCCESS);
    VT_CHECK(wait_status(n, 1) == (prot | VIP_STATUS_OP_RECEIVE));
    for (int i = 0; i < 4096; i++)
      VT_CHECK(foreign[i] == 0x11);
    return 0;
  }
  VT_CHECK(vt_post(n->vi, desc(n, 0), data(n, 0), 4, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, 0, 1, 0, 1) == VIP_SUCCESS);
  VT_CHECK(wait_status(n, 1) == (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE));
  VIP_MEM_HANDLE foreign_handle;
  memcpy(&foreign_handle, data(n, 0), sizeof foreign_handle);
  memset(data(n, 1), 0xA5, 1024);
  /* a handle another NIC issued */
  VT_CHECK(send_segment(n, 1, data(n, 1), foreign_handle, 100) == prot);
  /* memory registered under another protection tag */
  unsigned char* tagged = buffer(n, 4096);
  VIP_MEM_ATTRIBUTES ma = {n->other_ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_HANDLE th;
  VT_CHECK(VipRegisterMem(n->nic, tagged, 4096, &ma, &th) == VIP_SUCCESS);
  VT_CHECK(send_segment(n, 2, tagged, th, 100) == prot);
  /* a transfer running past the end of its region */
  VT_CHECK(send_segment(n, 3, n->mem + 69632 - 50, n->mh, 100) == prot);
  /* memory deregistered after its handle was taken */
  unsigned char* gone = buffer(n, 4096);
  VIP_MEM_ATTRIBUTES ga = {n->ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_HANDLE gh;
  VT_CHECK(VipRegisterMem(n->nic, gone, 4096, &ga, &gh) == VIP_SUCCESS);
  VT_CHECK(VipDeregisterMem(n->nic, gone, gh) == VIP_SUCCESS);
  VT_CHECK(send_segment(n, 4, gone, gh, 100) == prot);
  /* and a good one still goes through */
  VT_CHECK(send_segment(n, 5, data(n, 1), n->mh, 100) == VIP_STATUS_DONE);
  lanai_emu_compute_ns(1000000); /* node1 posts its tagged buffer meanwhile */
  VT_CHECK(send_segment(n, 6, data(n, 1), n->mh, 100) == VIP_STATUS_DONE);
  return 0;
}

static int unconnected(struct node* n) {
  if (n->me == 1)
    return 0;
  vt_fill(desc(n, 0), data(n, 0), 16, n->mh);
  desc(n, 0)->CS.Status = 0x5A5A;
  VT_CHECK(VipPostSend(n->vi, desc(n, 0), n->mh) == VIP_INVALID_STATE);
  VT_CHECK(desc(n, 0)->CS.Status == 0x5A5A); /* nothing was posted */
  VIP_DESCRIPTOR* d;
  VT_CHECK(VipSendDone(n->vi, &d) == VIP_NOT_DONE);
  /* receives may be posted before the connection exists */
  VT_CHECK(vt_post(n->vi, desc(n, 1), data(n, 1), 16, n->mh, 1) == VIP_SUCCESS);
  return 0;
}

/* node0 sends message 1 before node1 has posted anything, message 2 after. */
static int no_receive_posted(struct node* n, VIP_RELIABILITY_LEVEL level) {
  VT_CHECK(vt_connect(n->nic, n->vi, n->me, 1 - n->me, 0, n->me == 0) == VIP_SUCCESS);
  if (n->me == 0) {
    for (int m = 1; m <= 2; m++) {
      memset(data(n, m), m, 64);
      VT_CHECK(send_segment(n, m, data(n, m), n->mh, 64) == VIP_STATUS_DONE);
      lanai_emu_compute_ns(2000000);
    }
    return 0;
  }
  lanai_emu_compute_ns(1000000); /* message 1 arrives meanwhile */
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attrs;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  if (level == VIP_SERVICE_UNRELIABLE) {
    /* dropped without a word; the VI carries on */
    VT_CHECK(state == VIP_STATE_CONNECTED && n->errors_seen == 0);
    VT_CHECK(vt_post(n->vi, desc(n, 0), data(n, 0), 64, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(wait_status(n, 1) == (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE));
    VT_CHECK(data(n, 0)[0] == 2 && data(n, 0)[63] == 2);
    return 0;
  }
  /* reliable: the connection breaks and the application hears why */
  VT_CHECK(state == VIP_STATE_ERROR);
  VT_CHECK(n->errors_seen == 1 && n->last_error.ErrorCode == VIP_ERROR_RECVQ_EMPTY);
  VT_CHECK(n->last_error.ResourceCode == VIP_RESOURCE_VI && n->last_error.ViHandle == n->vi);
  return 0;
}

/* The card's doorbell queue holds two entries (this run's profile), and a
 * 64 KiB send keeps the sequential firmware from it while node0 posts eight
 * receives: the library waits for room rather than ring into the full
 * queue, so the posts take as long as the send, every receive is taken and
 * filled by node1's eight messages, and no error is reported. */
static int doorbell_full(struct node* n) {
  VT_CHECK(vt_connect(n->nic, n->vi, n->me, 1 - n->me, 0, n->me == 0) == VIP_SUCCESS);
  if (n->me == 1) {
    VT_CHECK(vt_post(n->vi, desc(n, 0), n->mem + 4096, 65536, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(wait_status(n, 1) == (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE));
    for (int i = 1; i <= 8; i++) {
      memset(data(n, i), 0x40 + i, 16);
      VT_CHECK(send_segment(n, i, data(n, i), n->mh, 16) == VIP_STATUS_DONE);
    }
    return 0;
  }
  vt_fill(desc(n, 0), n->mem + 4096, 65536, n->mh);
  VT_CHECK(VipPostSend(n->vi, desc(n, 0), n->mh) == VIP_SUCCESS);
  /* the firmware takes doorbells while they keep coming: let it start the
   * 64 KiB data transfer first */
  lanai_emu_compute_ns(20000);
  const uint64_t before = lanai_emu_now_ns();
  for (int i = 1; i <= 8; i++)
    VT_CHECK(vt_post(n->vi, desc(n, i), data(n, i), 16, n->mh, 1) == VIP_SUCCESS);
  /* eight posts that find room take a few microseconds; these waited for
   * the send, which takes hundreds */
  VT_CHECK(lanai_emu_now_ns() - before > 100000);
  VT_CHECK(wait_status(n, 0) == VIP_STATUS_DONE);
  for (int i = 1; i <= 8; i++) {
    VT_CHECK(wait_status(n, 1) == (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE));
    for (int b = 0; b < 16; b++)
      VT_CHECK(data(n, i)[b] == 0x40 + i);
  }
  VT_CHECK(n->errors_seen == 0);
  return 0;
}

/* Both sides wait for a message nobody sends. */
static int deadlock(struct node* n) {
  VT_CHECK(vt_post(n->vi, desc(n, 0), data(n, 0), 16, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, n->me, 1 - n->me, 0, n->me == 0) == VIP_SUCCESS);
  VIP_DESCRIPTOR* d;
  VipRecvWait(n->vi, VIP_INFINITE, &d);
  return 1;
}

static int run_scenario(struct node* n, const char* scenario) {
  int unreliable = strcmp(scenario, "no-recv-unreliable") == 0;
  if (setup(n, unreliable ? VIP_SERVICE_UNRELIABLE : VIP_SERVICE_RELIABLE_DELIVERY))
    return 1;
  if (strcmp(scenario, "protection") == 0)
    return protection(n);
  if (strcmp(scenario, "unconnected") == 0)
    return unconnected(n);
  if (unreliable)
    return no_receive_posted(n, VIP_SERVICE_UNRELIABLE);
  if (strcmp(scenario, "no-recv-reliable") == 0)
    return no_receive_posted(n, VIP_SERVICE_RELIABLE_DELIVERY);
  if (strcmp(scenario, "doorbell-full") == 0)
    return doorbell_full(n);
  if (strcmp(scenario, "deadlock") == 0)
    return deadlock(n);
  fprintf(stderr, "unknown scenario '%s'\n", scenario);
  return 64;
}

int via_main(int argc, char** argv) {
  struct node* n = calloc(1, sizeof *n);
  n->me = lanai_emu_node();
  int status = run_scenario(n, argc > 1 ? argv[1] : "");
  for (int i = 0; i < n->n_owned; i++)
    free(n->owned[i]);
  free(n);
  return status;
}
