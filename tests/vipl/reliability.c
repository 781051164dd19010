/* What each reliability level promises a sender, seen from both ends at
 * once: all nodes run in one process, so node0 can look into node1's
 * receive buffers the moment its own send completes.
 *   levels         a 16 KB send on an Unreliable, a Reliable Delivery and a
 *                  Reliable Reception VI: under Reliable Reception the data
 *                  is in node1's buffer when the send completes; under the
 *                  other two the send completes before it gets there.
 *   order          Reliable Reception sends of 0 B to 60000 B (fragmented
 *                  where the firmware cuts fragments), one malformed among
 *                  them: completions come in posting order, each only once
 *                  node1's buffer holds that message's bytes, and the
 *                  malformed one waits behind the others.
 *   remote-errors  a receive too short: the sender's descriptor completes
 *                  with VIP_STATUS_REMOTE_DESC_ERROR; no receive posted:
 *                  VIP_STATUS_REMOTE_DESC_ERROR too, and node1's VI breaks;
 *                  a send to the broken VI: VIP_STATUS_TRANSPORT_ERROR.
 *   rdma           Reliable Reception RDMA writes: one into memory open to
 *                  them completes after its bytes are in place; one into
 *                  memory that is not completes with
 *                  VIP_STATUS_RDMA_PROT_ERROR at the writer.
 * Run: ./vipl_reliability --nodes 2 [--firmware F] -- SCENARIO */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define MEM (64 * 64 + 4 * 65536) /* descriptors, then four 64 KB buffers */
#define WAIT_MS 100
#define SEND_OK (VIP_STATUS_DONE | VIP_STATUS_OP_SEND)
#define RECV_OK (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE)

struct node {
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  VIP_MEM_HANDLE mh, closed_mh;
  unsigned char *mem, *closed;
  int errors;
  VIP_ERROR_CODE last_error;
};

/* node1's buffers, for node0 to look into: one process, two nodes. node1
 * keeps them until node0 is done looking. */
static unsigned char* volatile peer_buffers;
static volatile int sender_done;
static VIP_MEM_HANDLE peer_handle, peer_closed_handle;
static unsigned char* volatile peer_closed;

static VIP_DESCRIPTOR* desc(struct node* n, int i) { return (VIP_DESCRIPTOR*)(n->mem + 64 * i); }
static unsigned char* buffer(unsigned char* mem, int i) { return mem + 64 * 64 + 65536 * i; }
static unsigned char pattern(int message, VIP_UINT32 offset) {
  return (unsigned char)(message * 41 + offset * 7 + 5 + (offset >> 9));
}
static void fill_pattern(unsigned char* p, int message, VIP_UINT32 len) {
  for (VIP_UINT32 i = 0; i < len; ++i)
    p[i] = pattern(message, i);
}
static int holds(const unsigned char* p, int message, VIP_UINT32 len) {
  for (VIP_UINT32 i = 0; i < len; ++i)
    if (p[i] != pattern(message, i))
      return 0;
  return 1;
}

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors++;
  n->last_error = e->ErrorCode;
}

static int setup(struct node* n) {
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  n->mem = aligned_alloc(64, MEM);
  n->closed = aligned_alloc(64, 4096);
  if (!n->mem || !n->closed)
    return 1;
  memset(n->mem, 0, MEM);
  memset(n->closed, 0, 4096);
  VIP_MEM_ATTRIBUTES open = {n->ptag, VIP_TRUE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES plain = {n->ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, MEM, &open, &n->mh) != VIP_SUCCESS)
    return 1;
  return VipRegisterMem(n->nic, n->closed, 4096, &plain, &n->closed_mh) != VIP_SUCCESS;
}

static VIP_RETURN make_vi(struct node* n, VIP_RELIABILITY_LEVEL level, VIP_BOOLEAN rdma_write,
                          VIP_CQ_HANDLE send_cq, VIP_VI_HANDLE* vi) {
  VIP_VI_ATTRIBUTES va = {level, 65536, NULL, n->ptag, rdma_write, VIP_FALSE};
  return VipCreateVi(n->nic, &va, send_cq, NULL, vi);
}

static VIP_DESCRIPTOR* wait(VIP_VI_HANDLE vi, int recv) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, WAIT_MS, &d) : VipSendWait(vi, WAIT_MS, &d);
  if (r != VIP_SUCCESS) {
    fprintf(stderr, "node%d: %s wait returned %d\n", lanai_emu_node(), recv ? "recv" : "send",
            (int)r);
    return NULL;
  }
  return d;
}

static int status_is(const VIP_DESCRIPTOR* d, VIP_UINT32 status, VIP_UINT32 length) {
  if (d && d->CS.Status == status && d->CS.Length == length)
    return 1;
  if (d)
    fprintf(stderr, "node%d: status 0x%x length %u, expected 0x%x length %u\n", lanai_emu_node(),
            (unsigned)d->CS.Status, (unsigned)d->CS.Length, (unsigned)status, (unsigned)length);
  return 0;
}

/* --- levels ----------------------------------------------------------------- */

static const VIP_RELIABILITY_LEVEL levels[] = {
    VIP_SERVICE_UNRELIABLE, VIP_SERVICE_RELIABLE_DELIVERY, VIP_SERVICE_RELIABLE_RECEPTION};
#define LEVEL_BYTES 16384

static int levels_sender(struct node* n) {
  for (int l = 0; l < 3; ++l) {
    VIP_VI_HANDLE vi;
    VT_CHECK(make_vi(n, levels[l], VIP_FALSE, NULL, &vi) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, vi, 0, 1, (VIP_UINT8)(10 + l), 1) == VIP_SUCCESS);
    fill_pattern(buffer(n->mem, 0), l, LEVEL_BYTES);
    VT_CHECK(vt_post(vi, desc(n, 0), buffer(n->mem, 0), LEVEL_BYTES, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(status_is(wait(vi, 0), SEND_OK, LEVEL_BYTES));
    /* the moment the send completes: is the message in node1's memory? */
    const int arrived = holds(buffer(peer_buffers, l), l, LEVEL_BYTES);
    if (levels[l] == VIP_SERVICE_RELIABLE_RECEPTION)
      VT_CHECK(arrived);
    else
      VT_CHECK(!arrived);
  }
  return 0;
}

static int levels_receiver(struct node* n) {
  peer_buffers = n->mem;
  for (int l = 0; l < 3; ++l) {
    VIP_VI_HANDLE vi;
    VT_CHECK(make_vi(n, levels[l], VIP_FALSE, NULL, &vi) == VIP_SUCCESS);
    VT_CHECK(vt_post(vi, desc(n, l), buffer(n->mem, l), LEVEL_BYTES, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, vi, 1, 0, (VIP_UINT8)(10 + l), 0) == VIP_SUCCESS);
    VT_CHECK(status_is(wait(vi, 1), RECV_OK, LEVEL_BYTES));
    VT_CHECK(holds(buffer(n->mem, l), l, LEVEL_BYTES));
  }
  return 0;
}

/* --- order -------------------------------------------------------------------- */

#define ORDER_SENDS 6
#define MALFORMED 3
static const VIP_UINT32 order_sizes[ORDER_SENDS] = {0, 100, 60000, 512, 8000, 4096};

/* Where message m lands at node1: buffers 0..3, message 4 and 5 reuse
 * buffer 0's second half and buffer 1's (small enough). */
static unsigned char* order_place(unsigned char* mem, int m) {
  return m < 4 ? buffer(mem, m) : buffer(mem, m - 4) + 32768;
}

static int order_sender(struct node* n) {
  VIP_CQ_HANDLE cq;
  VIP_VI_HANDLE vi;
  VT_CHECK(VipCreateCQ(n->nic, 16, &cq) == VIP_SUCCESS);
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_FALSE, cq, &vi) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 0, 1, 20, 1) == VIP_SUCCESS);
  LANAI_EMU_FRAGMENTATION four_k = {VIA_FRAG_STATIC, 4096, {0, 0, 0, 0}};
  VT_CHECK(lanai_emu_set_fragmentation(vi, &four_k) == VIP_SUCCESS);
  for (int m = 0; m < ORDER_SENDS; ++m) {
    unsigned char* data = buffer(n->mem, m % 4) + (m >= 4 ? 32768 : 0);
    fill_pattern(data, m, order_sizes[m]);
    vt_fill(desc(n, m), data, order_sizes[m], n->mh);
    if (m == MALFORMED)
      desc(n, m)->CS.Length += 1; /* disagrees with its segment */
    VT_CHECK(VipPostSend(vi, desc(n, m), n->mh) == VIP_SUCCESS);
  }
  /* Whenever the CQ reports a completion, the sends completed so far are
   * the first ones posted, and the message of each is in node1's memory. */
  for (int taken = 0; taken < ORDER_SENDS; ++taken) {
    VIP_VI_HANDLE from;
    VIP_BOOLEAN recv_queue;
    VT_CHECK(VipCQWait(cq, WAIT_MS, &from, &recv_queue) == VIP_SUCCESS);
    VT_CHECK(from == vi && !recv_queue);
    int done = 0;
    while (done < ORDER_SENDS && (desc(n, done)->CS.Status & VIP_STATUS_DONE))
      ++done;
    VT_CHECK(done > taken);
    for (int m = done; m < ORDER_SENDS; ++m)
      VT_CHECK(!(desc(n, m)->CS.Status & VIP_STATUS_DONE));
    for (int m = 0; m < done; ++m)
      VT_CHECK(m == MALFORMED || holds(order_place(peer_buffers, m), m, order_sizes[m]));
  }
  for (int m = 0; m < ORDER_SENDS; ++m) {
    VIP_DESCRIPTOR* d = wait(vi, 0);
    VT_CHECK(d == desc(n, m));
    if (m == MALFORMED)
      VT_CHECK(status_is(d, SEND_OK | VIP_STATUS_FORMAT_ERROR, order_sizes[m] + 1));
    else
      VT_CHECK(status_is(d, SEND_OK, order_sizes[m]));
  }
  return 0;
}

static int order_receiver(struct node* n) {
  VIP_VI_HANDLE vi;
  peer_buffers = n->mem;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_FALSE, NULL, &vi) == VIP_SUCCESS);
  for (int m = 0; m < ORDER_SENDS; ++m) {
    if (m == MALFORMED)
      continue;
    VT_CHECK(vt_post(vi, desc(n, m), order_place(n->mem, m), order_sizes[m], n->mh, 1) ==
             VIP_SUCCESS);
  }
  VT_CHECK(vt_connect(n->nic, vi, 1, 0, 20, 0) == VIP_SUCCESS);
  for (int m = 0; m < ORDER_SENDS; ++m) {
    if (m == MALFORMED)
      continue;
    VT_CHECK(status_is(wait(vi, 1), RECV_OK, order_sizes[m]));
    VT_CHECK(holds(order_place(n->mem, m), m, order_sizes[m]));
  }
  return 0;
}

/* --- remote-errors -------------------------------------------------------------- */

static int remote_errors_sender(struct node* n) {
  VIP_VI_HANDLE vi;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_FALSE, NULL, &vi) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 0, 1, 30, 1) == VIP_SUCCESS);
  fill_pattern(buffer(n->mem, 0), 0, 1000);
  /* 1: too long for node1's receive; 2: fine; 3: none posted; 4: to a broken VI */
  for (int m = 0; m < 4; ++m)
    VT_CHECK(vt_post(vi, desc(n, m), buffer(n->mem, 0), 1000, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(status_is(wait(vi, 0), SEND_OK | VIP_STATUS_REMOTE_DESC_ERROR, 1000));
  VT_CHECK(status_is(wait(vi, 0), SEND_OK, 1000));
  VT_CHECK(status_is(wait(vi, 0), SEND_OK | VIP_STATUS_REMOTE_DESC_ERROR, 1000));
  VT_CHECK(status_is(wait(vi, 0), SEND_OK | VIP_STATUS_TRANSPORT_ERROR, 1000));
  VT_CHECK(n->errors == 0);
  return 0;
}

static int remote_errors_receiver(struct node* n) {
  VIP_VI_HANDLE vi;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_FALSE, NULL, &vi) == VIP_SUCCESS);
  VT_CHECK(vt_post(vi, desc(n, 0), buffer(n->mem, 0), 999, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_post(vi, desc(n, 1), buffer(n->mem, 1), 1000, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 1, 0, 30, 0) == VIP_SUCCESS);
  VT_CHECK(status_is(wait(vi, 1), RECV_OK | VIP_STATUS_LENGTH_ERROR, 0));
  VT_CHECK(status_is(wait(vi, 1), RECV_OK, 1000));
  VT_CHECK(holds(buffer(n->mem, 1), 0, 1000));
  /* the third message finds no receive: the VI breaks */
  VIP_VI_STATE state = VIP_STATE_CONNECTED;
  VIP_VI_ATTRIBUTES attributes;
  VIP_BOOLEAN send_empty, recv_empty;
  for (int i = 0; i < 1000 && state != VIP_STATE_ERROR; ++i) {
    lanai_emu_compute_ns(1000);
    VT_CHECK(VipQueryVi(vi, &state, &attributes, &send_empty, &recv_empty) == VIP_SUCCESS);
  }
  VT_CHECK(state == VIP_STATE_ERROR);
  VT_CHECK(n->errors == 1 && n->last_error == VIP_ERROR_RECVQ_EMPTY);
  return 0;
}

/* --- rdma --------------------------------------------------------------------------- */

static int rdma_writer(struct node* n) {
  VIP_VI_HANDLE vi;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_TRUE, NULL, &vi) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 0, 1, 40, 1) == VIP_SUCCESS);
  fill_pattern(buffer(n->mem, 0), 7, 20000);
  VIP_DESCRIPTOR* d = desc(n, 0);
  memset(d, 0, sizeof *d);
  d->CS.Control = VIP_CONTROL_OP_RDMAWRITE;
  d->CS.Length = 20000;
  d->CS.SegCount = 2;
  d->DS[0].Remote.Data.Address = buffer(peer_buffers, 2);
  d->DS[0].Remote.Handle = peer_handle;
  d->DS[1].Local.Data.Address = buffer(n->mem, 0);
  d->DS[1].Local.Handle = n->mh;
  d->DS[1].Local.Length = 20000;
  VT_CHECK(VipPostSend(vi, d, n->mh) == VIP_SUCCESS);
  VT_CHECK(status_is(wait(vi, 0), VIP_STATUS_DONE | VIP_STATUS_OP_RDMA_WRITE, 20000));
  VT_CHECK(holds(buffer(peer_buffers, 2), 7, 20000));
  /* into memory node1 did not open to RDMA writes */
  d->DS[0].Remote.Data.Address = peer_closed;
  d->DS[0].Remote.Handle = peer_closed_handle;
  d->CS.Length = d->DS[1].Local.Length = 100;
  VT_CHECK(VipPostSend(vi, d, n->mh) == VIP_SUCCESS);
  VT_CHECK(status_is(wait(vi, 0),
                     VIP_STATUS_DONE | VIP_STATUS_OP_RDMA_WRITE | VIP_STATUS_RDMA_PROT_ERROR, 100));
  for (int i = 0; i < 4096; ++i)
    VT_CHECK(peer_closed[i] == 0);
  return 0;
}

static int rdma_target(struct node* n) {
  VIP_VI_HANDLE vi;
  peer_buffers = n->mem;
  peer_handle = n->mh;
  peer_closed = n->closed;
  peer_closed_handle = n->closed_mh;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_RECEPTION, VIP_TRUE, NULL, &vi) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 1, 0, 40, 0) == VIP_SUCCESS);
  /* the refused write reaches this side as VIA's asynchronous error (the
   * callback runs in a VIPL call) */
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attributes;
  VIP_BOOLEAN send_empty, recv_empty;
  for (int i = 0; i < 1000 && n->errors == 0; ++i) {
    lanai_emu_compute_ns(1000);
    VT_CHECK(VipQueryVi(vi, &state, &attributes, &send_empty, &recv_empty) == VIP_SUCCESS);
  }
  VT_CHECK(n->errors == 1 && n->last_error == VIP_ERROR_RDMAW_PROT);
  return 0;
}

int via_main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  if (lanai_emu_nodes() != 2)
    return 64;
  struct node* n = calloc(1, sizeof *n);
  if (!n || setup(n))
    return 1;
  const int sender = lanai_emu_node() == 0;
  int failed;
  if (strcmp(scenario, "levels") == 0)
    failed = sender ? levels_sender(n) : levels_receiver(n);
  else if (strcmp(scenario, "order") == 0)
    failed = sender ? order_sender(n) : order_receiver(n);
  else if (strcmp(scenario, "remote-errors") == 0)
    failed = sender ? remote_errors_sender(n) : remote_errors_receiver(n);
  else if (strcmp(scenario, "rdma") == 0)
    failed = sender ? rdma_writer(n) : rdma_target(n);
  else {
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 64;
  }
  if (sender)
    sender_done = 1;
  while (!sender && !sender_done)
    lanai_emu_compute_ns(1000);
  if (failed)
    return failed;
  printf("node%d: %s ok\n", lanai_emu_node(), scenario);
  free(n->mem);
  free(n->closed);
  free(n);
  return 0;
}
