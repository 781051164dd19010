/* RDMA write between two nodes, as a VIA 1.0 program uses it: node1 opens
 * a window of its memory to remote writes and tells node0 where it is;
 * node0 writes into it, in 4 KB fragments (SVIA sends messages whole),
 * with and without immediate data, then sends an ordinary message. Node1
 * checks every byte, that
 * nothing outside the written ranges changed, each receive consumed by
 * immediate data (status, length, immediate word), and that data written
 * without immediate data is in place once a later message completes.
 * Then node0 writes into memory node1 registered without remote writes:
 * nothing is written, node1's receive completes with the RDMA protection
 * status and its error callback reports VIP_ERROR_RDMAW_PROT.
 * A second argument "flow" puts every VI under credit flow control: the
 * writes with immediate data then wait for credits, the others do not.
 * Run: ./vipl_rdma_write --nodes 2 --firmware pvia -- write [flow] */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define WINDOW 65536
#define MEM 4096 /* descriptors (64 each) and small buffers */
#define WAIT_MS 100
#define WRITE_OK (VIP_STATUS_DONE | VIP_STATUS_OP_RDMA_WRITE)
#define REMOTE_OK (VIP_STATUS_DONE | VIP_STATUS_OP_REMOTE_RDMA_WRITE | VIP_STATUS_IMMEDIATE)

/* Where node1's memory is, as it tells node0. */
struct window_note {
  VIP_UINT64 open_address;
  VIP_UINT64 closed_address;
  VIP_MEM_HANDLE open_handle;
  VIP_MEM_HANDLE closed_handle;
};

struct node {
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  VIP_MEM_HANDLE mh, open_mh, closed_mh;
  unsigned char *mem, *open, *closed;
  VIP_VI_HANDLE vi;
  int errors;
  VIP_ERROR_CODE last_error;
};

static unsigned char byte_at(VIP_UINT32 offset) { return (unsigned char)(offset * 7 + 3); }

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors++;
  n->last_error = e->ErrorCode;
}

static VIP_DESCRIPTOR* desc(struct node* n, int i) { return (VIP_DESCRIPTOR*)(n->mem + 64 * i); }

static int flow_control;

static VIP_RETURN make_vi(struct node* n, VIP_BOOLEAN rdma_write, VIP_VI_HANDLE* vi) {
  VIP_VI_ATTRIBUTES va = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, n->ptag, rdma_write, VIP_FALSE};
  const VIP_RETURN r = VipCreateVi(n->nic, &va, NULL, NULL, vi);
  return r != VIP_SUCCESS || !flow_control ? r : lanai_emu_set_flow_control(*vi, VIP_TRUE);
}

static int setup(struct node* n) {
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  n->mem = aligned_alloc(64, MEM);
  n->open = aligned_alloc(64, WINDOW);
  n->closed = aligned_alloc(64, 4096);
  if (!n->mem || !n->open || !n->closed)
    return 1;
  memset(n->mem, 0, MEM);
  memset(n->open, 0, WINDOW);
  memset(n->closed, 0, 4096);
  VIP_MEM_ATTRIBUTES plain = {n->ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES writable = {n->ptag, VIP_TRUE, VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, MEM, &plain, &n->mh) != VIP_SUCCESS)
    return 1;
  if (VipRegisterMem(n->nic, n->open, WINDOW, &writable, &n->open_mh) != VIP_SUCCESS)
    return 1;
  return VipRegisterMem(n->nic, n->closed, 4096, &plain, &n->closed_mh) != VIP_SUCCESS;
}

/* An RDMA write of [local, local+len) to `remote` under `handle`. */
static VIP_DESCRIPTOR* rdma(struct node* n, int i, void* local, VIP_UINT32 len, VIP_UINT64 remote,
                            VIP_MEM_HANDLE handle, int immediate, VIP_UINT32 data) {
  VIP_DESCRIPTOR* d = desc(n, i);
  memset(d, 0, sizeof *d);
  d->CS.Control = VIP_CONTROL_OP_RDMAWRITE | (immediate ? VIP_CONTROL_IMMEDIATE : 0);
  d->CS.ImmediateData = data;
  d->CS.Length = len;
  d->CS.SegCount = 2;
  d->DS[0].Remote.Data.AddressBits = remote;
  d->DS[0].Remote.Handle = handle;
  d->DS[1].Local.Data.Address = local;
  d->DS[1].Local.Handle = n->open_mh;
  d->DS[1].Local.Length = len;
  return d;
}

static int done(VIP_VI_HANDLE vi, int recv, VIP_UINT32 status, VIP_UINT32 length,
                VIP_UINT32 immediate) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, WAIT_MS, &d) : VipSendWait(vi, WAIT_MS, &d);
  if (r != VIP_SUCCESS) {
    fprintf(stderr, "node%d: wait returned %d\n", lanai_emu_node(), (int)r);
    return 0;
  }
  if (d->CS.Status == status && d->CS.Length == length &&
      (!(status & VIP_STATUS_IMMEDIATE) || d->CS.ImmediateData == immediate))
    return 1;
  fprintf(stderr, "node%d: status 0x%x length %u immediate 0x%x, expected 0x%x %u 0x%x\n",
          lanai_emu_node(), (unsigned)d->CS.Status, (unsigned)d->CS.Length,
          (unsigned)d->CS.ImmediateData, (unsigned)status, (unsigned)length, (unsigned)immediate);
  return 0;
}

/* True if the window holds the source's bytes over [at, at+len) and zeros
 * in the `gap` bytes on either side. */
static int placed(const unsigned char* window, VIP_UINT32 at, VIP_UINT32 len, VIP_UINT32 from) {
  for (VIP_UINT32 i = 0; i < len; ++i)
    if (window[at + i] != byte_at(from + i))
      return 0;
  return (at == 0 || window[at - 1] == 0) && (at + len >= WINDOW || window[at + len] == 0);
}

static int writer(struct node* n) {
  /* the source: the open window's twin on this node, filled with the pattern */
  for (VIP_UINT32 i = 0; i < WINDOW; ++i)
    n->open[i] = byte_at(i);
  VIP_VI_HANDLE plain;
  VT_CHECK(make_vi(n, VIP_FALSE, &plain) == VIP_SUCCESS);
  VT_CHECK(make_vi(n, VIP_TRUE, &n->vi) == VIP_SUCCESS);
  /* RDMA writes go on the send queue of a VI that allows them, nowhere else */
  VT_CHECK(VipPostSend(plain, rdma(n, 10, n->open, 8, 0, 0, 0, 0), n->mh) == VIP_DESCRIPTOR_ERROR);
  VT_CHECK(VipPostRecv(n->vi, rdma(n, 11, n->open, 8, 0, 0, 0, 0), n->mh) == VIP_DESCRIPTOR_ERROR);
  VT_CHECK(vt_post(n->vi, desc(n, 0), n->mem + 2048, sizeof(struct window_note), n->mh, 1) ==
           VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, 0, 1, 1, 1) == VIP_SUCCESS);
  LANAI_EMU_FRAGMENTATION four_k = {VIA_FRAG_STATIC, 4096, {0, 0, 0, 0}};
  VT_CHECK(lanai_emu_set_fragmentation(n->vi, &four_k) == VIP_SUCCESS);
  VT_CHECK(done(n->vi, 1, VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE, sizeof(struct window_note), 0));
  struct window_note where;
  memcpy(&where, n->mem + 2048, sizeof where);

  VT_CHECK(VipPostSend(n->vi,
                       rdma(n, 1, n->open, 40000, where.open_address, where.open_handle, 1, 0x1111),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(n->vi,
                       rdma(n, 2, n->open + 40000, 13, where.open_address + 40001,
                            where.open_handle, 1, 0x2222),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(n->vi,
                       rdma(n, 3, n->open + 50000, 9000, where.open_address + 50000,
                            where.open_handle, 0, 0),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(n->vi,
                       rdma(n, 4, n->open, 0, where.open_address, where.open_handle, 1, 0x4444),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 5), n->mem + 2048, 8, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(n->vi, 0, WRITE_OK, 40000, 0));
  VT_CHECK(done(n->vi, 0, WRITE_OK, 13, 0));
  VT_CHECK(done(n->vi, 0, WRITE_OK, 9000, 0));
  VT_CHECK(done(n->vi, 0, WRITE_OK, 0, 0));
  VT_CHECK(done(n->vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, 8, 0));

  /* into memory node1 did not open: refused there, sent from here */
  VT_CHECK(
      VipPostSend(n->vi,
                  rdma(n, 6, n->open, 100, where.closed_address, where.closed_handle, 1, 0x5555),
                  n->mh) == VIP_SUCCESS);
  VT_CHECK(done(n->vi, 0, WRITE_OK, 100, 0));
  return 0;
}

static int target(struct node* n) {
  VT_CHECK(make_vi(n, VIP_TRUE, &n->vi) == VIP_SUCCESS);
  /* receives for the writes with immediate data (no buffers needed), one
   * for the ordinary message, one for the refused write */
  VT_CHECK(vt_post(n->vi, desc(n, 0), NULL, 0, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 1), NULL, 0, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 2), NULL, 0, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 3), n->mem + 2048, 8, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_post(n->vi, desc(n, 4), NULL, 0, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, n->vi, 1, 0, 1, 0) == VIP_SUCCESS);
  struct window_note* where = (struct window_note*)(n->mem + 1024);
  where->open_address = (VIP_UINT64)(uintptr_t)n->open;
  where->open_handle = n->open_mh;
  where->closed_address = (VIP_UINT64)(uintptr_t)n->closed;
  where->closed_handle = n->closed_mh;
  VT_CHECK(vt_post(n->vi, desc(n, 8), where, sizeof *where, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(n->vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, sizeof *where, 0));

  VT_CHECK(done(n->vi, 1, REMOTE_OK, 40000, 0x1111));
  VT_CHECK(placed(n->open, 0, 40000, 0));
  VT_CHECK(done(n->vi, 1, REMOTE_OK, 13, 0x2222));
  VT_CHECK(placed(n->open, 40001, 13, 40000));
  /* the write without immediate data completes nothing, but is in place
   * before anything posted after it completes */
  VT_CHECK(done(n->vi, 1, REMOTE_OK, 0, 0x4444));
  VT_CHECK(placed(n->open, 50000, 9000, 50000));
  VT_CHECK(done(n->vi, 1, VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE, 8, 0));
  VT_CHECK(n->errors == 0);

  VT_CHECK(done(n->vi, 1, REMOTE_OK | VIP_STATUS_RDMA_PROT_ERROR, 0, 0x5555));
  for (int i = 0; i < 4096; ++i)
    VT_CHECK(n->closed[i] == 0);
  VT_CHECK(n->errors == 1 && n->last_error == VIP_ERROR_RDMAW_PROT);
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attributes;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attributes, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_ERROR);
  VT_CHECK(attributes.EnableRdmaWrite == VIP_TRUE);
  return 0;
}

int via_main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  flow_control = argc > 2 && strcmp(argv[2], "flow") == 0;
  if (lanai_emu_nodes() != 2)
    return 64;
  struct node* n = calloc(1, sizeof *n);
  if (!n || setup(n))
    return 1;
  const int me = lanai_emu_node();
  int failed;
  if (strcmp(scenario, "write") == 0) {
    failed = me == 0 ? writer(n) : target(n);
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 64;
  }
  if (failed)
    return failed;
  printf("node%d: %s ok\n", me, scenario);
  free(n->mem);
  free(n->open);
  free(n->closed);
  free(n);
  return 0;
}
