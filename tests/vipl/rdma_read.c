/* RDMA read between two nodes, as a VIA 1.0 program uses it: node1 opens a
 * window of its memory to remote reads and tells node0 where it is; node0
 * reads from it, whole and in the 4 KB fragments node1's VI cuts, and
 * checks every byte read and that nothing beyond the read was written.
 * Scenarios:
 *   read       reads of 40000, 13 and 0 bytes, then a send behind a read:
 *              it completes after the read; status, length and bytes.
 *   refusals   each on a VI of its own: memory not open to reads, a target
 *              VI that does not allow them, a read past the region's end
 *              (all VIP_STATUS_RDMA_PROT_ERROR at node0, nothing written,
 *              VIP_ERROR_RDMAR_PROT to node0's error callback and its VI
 *              broken); a local buffer node0 did not register
 *              (VIP_STATUS_PROTECTION_ERROR, nothing written, the VI goes
 *              on); a read longer than the VI's MTU
 *              (VIP_STATUS_LENGTH_ERROR); and the library's refusals: an
 *              unreliable VI, created or changed (VIP_INVALID_RDMAREAD),
 *              a VI without RDMA read, immediate data or a receive queue
 *              (VIP_DESCRIPTOR_ERROR).
 *   unsupported  on firmware without RDMA read: VipQueryNic says so,
 *              VipCreateVi refuses (VIP_ERROR_NOT_SUPPORTED), and so does
 *              VipRegisterMem (VIP_INVALID_RDMAREAD).
 *   refused-by-target  node1's firmware serves no reads (SVIA): node0's
 *              read completes with VIP_STATUS_RDMA_PROT_ERROR.
 * Run: ./vipl_rdma_read --nodes 2 --firmware pvia -- read */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define WINDOW 65536
#define MEM 8192 /* descriptors (64 each) and small buffers */
#define WAIT_MS 100
#define READ_OK (VIP_STATUS_DONE | VIP_STATUS_OP_RDMA_READ)
#define READ_REFUSED (READ_OK | VIP_STATUS_RDMA_PROT_ERROR)

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
  VIP_MEM_HANDLE mh, window_mh, closed_mh;
  unsigned char *mem, *window, *closed;
  int errors;
  VIP_ERROR_CODE last_error;
  struct window_note where;
};

static unsigned char byte_at(VIP_UINT32 offset) { return (unsigned char)(offset * 13 + 9); }

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors++;
  n->last_error = e->ErrorCode;
}

static VIP_DESCRIPTOR* desc(struct node* n, int i) { return (VIP_DESCRIPTOR*)(n->mem + 64 * i); }

/* Every VI made under credit flow control (an argument "flow"): reads
 * take no credit, and the sends around them still keep their order. The
 * read scenario's VIs are Reliable Reception ones with an argument "rr"
 * (on a lossy fabric every message then comes through, and a read whose
 * request or data is lost is asked again). */
static int flow_control;
static VIP_RELIABILITY_LEVEL read_level = VIP_SERVICE_RELIABLE_DELIVERY;

static VIP_RETURN make_vi(struct node* n, VIP_RELIABILITY_LEVEL level, VIP_BOOLEAN rdma_read,
                          VIP_VI_HANDLE* vi) {
  VIP_VI_ATTRIBUTES va = {level, 65536, NULL, n->ptag, VIP_FALSE, rdma_read};
  const VIP_RETURN r = VipCreateVi(n->nic, &va, NULL, NULL, vi);
  return r != VIP_SUCCESS || !flow_control ? r : lanai_emu_set_flow_control(*vi, VIP_TRUE);
}

static int setup(struct node* n, int readable) {
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  n->mem = aligned_alloc(64, MEM);
  n->window = aligned_alloc(64, WINDOW);
  n->closed = aligned_alloc(64, 4096);
  if (!n->mem || !n->window || !n->closed)
    return 1;
  memset(n->mem, 0, MEM);
  memset(n->window, 0, WINDOW);
  memset(n->closed, 0, 4096);
  VIP_MEM_ATTRIBUTES plain = {n->ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES open = {n->ptag, VIP_FALSE, readable ? VIP_TRUE : VIP_FALSE};
  if (VipRegisterMem(n->nic, n->mem, MEM, &plain, &n->mh) != VIP_SUCCESS)
    return 1;
  if (VipRegisterMem(n->nic, n->window, WINDOW, &open, &n->window_mh) != VIP_SUCCESS)
    return 1;
  return VipRegisterMem(n->nic, n->closed, 4096, &plain, &n->closed_mh) != VIP_SUCCESS;
}

/* An RDMA read of `len` bytes from `remote` (under `handle`) into `local`. */
static VIP_DESCRIPTOR* rdma_read(struct node* n, int i, void* local, VIP_MEM_HANDLE local_handle,
                                 VIP_UINT32 len, VIP_UINT64 remote, VIP_MEM_HANDLE handle) {
  VIP_DESCRIPTOR* d = desc(n, i);
  memset(d, 0, sizeof *d);
  d->CS.Control = VIP_CONTROL_OP_RDMAREAD;
  d->CS.Length = len;
  d->CS.SegCount = 2;
  d->DS[0].Remote.Data.AddressBits = remote;
  d->DS[0].Remote.Handle = handle;
  d->DS[1].Local.Data.Address = local;
  d->DS[1].Local.Handle = local_handle;
  d->DS[1].Local.Length = len;
  return d;
}

static int done(VIP_VI_HANDLE vi, int recv, VIP_UINT32 status, VIP_UINT32 length) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, WAIT_MS, &d) : VipSendWait(vi, WAIT_MS, &d);
  if (r != VIP_SUCCESS) {
    fprintf(stderr, "node%d: wait returned %d\n", lanai_emu_node(), (int)r);
    return 0;
  }
  if (d->CS.Status == status && d->CS.Length == length)
    return 1;
  fprintf(stderr, "node%d: status 0x%x length %u, expected 0x%x %u\n", lanai_emu_node(),
          (unsigned)d->CS.Status, (unsigned)d->CS.Length, (unsigned)status, (unsigned)length);
  return 0;
}

/* True if `window` holds node1's bytes from `from` over [at, at+len) and
 * zeros on either side. */
static int placed(const unsigned char* window, VIP_UINT32 at, VIP_UINT32 len, VIP_UINT32 from) {
  for (VIP_UINT32 i = 0; i < len; ++i)
    if (window[at + i] != byte_at(from + i))
      return 0;
  return (at == 0 || window[at - 1] == 0) && (at + len >= WINDOW || window[at + len] == 0);
}

static int untouched(const unsigned char* p, VIP_UINT32 len) {
  for (VIP_UINT32 i = 0; i < len; ++i)
    if (p[i] != 0)
      return 0;
  return 1;
}

/* node0's VI for a scenario step, connected on `disc`, and node1's
 * window note received on it. */
static int connect_reader(struct node* n, VIP_VI_HANDLE* vi, VIP_UINT8 disc) {
  VT_CHECK(make_vi(n, read_level, VIP_TRUE, vi) == VIP_SUCCESS);
  VT_CHECK(vt_post(*vi, desc(n, 60), n->mem + 4096, sizeof(struct window_note), n->mh, 1) ==
           VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, *vi, 0, 1, disc, 1) == VIP_SUCCESS);
  VT_CHECK(done(*vi, 1, VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE, sizeof(struct window_note)));
  memcpy(&n->where, n->mem + 4096, sizeof n->where);
  return 0;
}

/* node1's side of it: a VI (allowing reads or not) that tells node0 where
 * its memory is, then waits for node0's `words` 8-byte sends, the last of
 * which says that node0's reads are done: node1 may free its memory only
 * then, since a send posted behind reads may arrive before their data has
 * been read here. */
static int serve_reads(struct node* n, VIP_BOOLEAN allow, VIP_UINT8 disc, int words) {
  VIP_VI_HANDLE vi;
  VT_CHECK(make_vi(n, read_level, allow, &vi) == VIP_SUCCESS);
  /* the data of node0's reads goes back in fragments of this VI's policy */
  LANAI_EMU_FRAGMENTATION four_k = {VIA_FRAG_STATIC, 4096, {0, 0, 0, 0}};
  VT_CHECK(lanai_emu_set_fragmentation(vi, &four_k) == VIP_SUCCESS);
  for (int w = 0; w < words; ++w)
    VT_CHECK(vt_post(vi, desc(n, 1 + w), n->mem + 2048 + 8 * w, 8, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n->nic, vi, 1, 0, disc, 0) == VIP_SUCCESS);
  struct window_note* where = (struct window_note*)(n->mem + 1024);
  where->open_address = (VIP_UINT64)(uintptr_t)n->window;
  where->open_handle = n->window_mh;
  where->closed_address = (VIP_UINT64)(uintptr_t)n->closed;
  where->closed_handle = n->closed_mh;
  VT_CHECK(vt_post(vi, desc(n, 0), where, sizeof *where, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, sizeof *where));
  /* reads take nothing from this side's queues */
  for (int w = 0; w < words; ++w)
    VT_CHECK(done(vi, 1, VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE, 8));
  return 0;
}

static int reader(struct node* n) {
  VIP_NIC_ATTRIBUTES attributes;
  VT_CHECK(VipQueryNic(n->nic, &attributes) == VIP_SUCCESS);
  VT_CHECK(attributes.RDMAReadSupport ==
           (VIP_SERVICE_RELIABLE_DELIVERY | VIP_SERVICE_RELIABLE_RECEPTION));
  VIP_VI_HANDLE vi;
  VT_CHECK(connect_reader(n, &vi, 1) == 0);
  const VIP_UINT64 remote = n->where.open_address;
  const VIP_MEM_HANDLE handle = n->where.open_handle;
  VT_CHECK(VipPostSend(vi, rdma_read(n, 1, n->window, n->window_mh, 40000, remote, handle),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(vi,
                       rdma_read(n, 2, n->window + 40001, n->window_mh, 13, remote + 40000, handle),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(vi, rdma_read(n, 3, n->window + 50000, n->window_mh, 0, remote, handle),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(
               vi, rdma_read(n, 4, n->window + 50000, n->window_mh, 9000, remote + 50000, handle),
               n->mh) == VIP_SUCCESS);
  /* a send behind the reads completes after them, though it leaves sooner */
  VT_CHECK(vt_post(vi, desc(n, 5), n->mem + 2048, 8, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, READ_OK, 40000));
  VT_CHECK(placed(n->window, 0, 40000, 0));
  VT_CHECK(done(vi, 0, READ_OK, 13));
  VT_CHECK(placed(n->window, 40001, 13, 40000));
  VT_CHECK(done(vi, 0, READ_OK, 0));
  VT_CHECK(done(vi, 0, READ_OK, 9000));
  VT_CHECK(placed(n->window, 50000, 9000, 50000));
  VT_CHECK(done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, 8));
  /* node1's memory may go now */
  VT_CHECK(vt_post(vi, desc(n, 6), n->mem + 2048, 8, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, 8));
  VT_CHECK(n->errors == 0);
  return 0;
}

static int read_target(struct node* n) {
  for (VIP_UINT32 i = 0; i < WINDOW; ++i)
    n->window[i] = byte_at(i);
  VT_CHECK(serve_reads(n, VIP_TRUE, 1, 2) == 0);
  /* and raise nothing here */
  VT_CHECK(n->errors == 0);
  return 0;
}

/* A read node1 must refuse: node0's descriptor, memory, error callback
 * and VI state afterwards. */
static int refused_read(struct node* n, VIP_UINT8 disc, VIP_UINT64 remote, VIP_MEM_HANDLE handle,
                        VIP_UINT32 len) {
  VIP_VI_HANDLE vi;
  VT_CHECK(connect_reader(n, &vi, disc) == 0);
  const int errors = n->errors;
  if (!remote) {
    remote = n->where.closed_address;
    handle = n->where.closed_handle;
  }
  VT_CHECK(VipPostSend(vi, rdma_read(n, 1, n->window, n->window_mh, len, remote, handle), n->mh) ==
           VIP_SUCCESS);
  VT_CHECK(done(vi, 0, READ_REFUSED, len));
  VT_CHECK(untouched(n->window, WINDOW));
  VT_CHECK(n->errors == errors + 1 && n->last_error == VIP_ERROR_RDMAR_PROT);
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attributes;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(vi, &state, &attributes, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_ERROR && attributes.EnableRdmaRead == VIP_TRUE);
  VT_CHECK(VipDisconnect(vi) == VIP_SUCCESS);
  return 0;
}

static int refusing_reader(struct node* n) {
  VIP_VI_HANDLE vi;
  /* the library's refusals */
  VT_CHECK(make_vi(n, VIP_SERVICE_UNRELIABLE, VIP_TRUE, &vi) == VIP_INVALID_RDMAREAD);
  VIP_VI_HANDLE plain;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_DELIVERY, VIP_FALSE, &plain) == VIP_SUCCESS);
  VT_CHECK(VipPostSend(plain, rdma_read(n, 10, n->window, n->window_mh, 8, 0, 0), n->mh) ==
           VIP_DESCRIPTOR_ERROR);
  VIP_VI_ATTRIBUTES unreliable_read = {
      VIP_SERVICE_UNRELIABLE, 65536, NULL, n->ptag, VIP_FALSE, VIP_TRUE};
  VT_CHECK(VipSetViAttributes(plain, &unreliable_read) == VIP_INVALID_RDMAREAD);
  /* memory not open to reads (node1's closed page), a target VI that
   * allows none, past the end of the window */
  VT_CHECK(refused_read(n, 2, 0, 0, 100) == 0);
  VT_CHECK(refused_read(n, 3, n->where.open_address, n->where.open_handle, 100) == 0);
  VT_CHECK(refused_read(n, 4, n->where.open_address + WINDOW - 8, n->where.open_handle, 16) == 0);
  /* this side's own buffer is not registered; a read beyond the MTU */
  VT_CHECK(connect_reader(n, &vi, 5) == 0);
  const VIP_UINT64 remote = n->where.open_address;
  const VIP_MEM_HANDLE handle = n->where.open_handle;
  VT_CHECK(VipPostSend(vi, rdma_read(n, 1, n->window, n->window_mh + 77, 64, remote, handle),
                       n->mh) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, READ_OK | VIP_STATUS_PROTECTION_ERROR, 64));
  VT_CHECK(untouched(n->window, WINDOW));
  VIP_DESCRIPTOR* d = rdma_read(n, 2, n->window, n->window_mh, 65537, remote, handle);
  VT_CHECK(VipPostSend(vi, d, n->mh) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, READ_OK | VIP_STATUS_LENGTH_ERROR, 65537));
  d = rdma_read(n, 3, n->window, n->window_mh, 8, remote, handle);
  d->CS.Control |= VIP_CONTROL_IMMEDIATE;
  VT_CHECK(VipPostSend(vi, d, n->mh) == VIP_DESCRIPTOR_ERROR);
  VT_CHECK(VipPostRecv(vi, rdma_read(n, 4, n->window, n->window_mh, 8, remote, handle), n->mh) ==
           VIP_DESCRIPTOR_ERROR);
  /* the VI still works: a good read */
  VT_CHECK(VipPostSend(vi, rdma_read(n, 5, n->window, n->window_mh, 64, remote, handle), n->mh) ==
           VIP_SUCCESS);
  VT_CHECK(done(vi, 0, READ_OK, 64));
  VT_CHECK(placed(n->window, 0, 64, 0));
  VT_CHECK(vt_post(vi, desc(n, 6), n->mem + 2048, 8, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK(done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, 8));
  return 0;
}

static int refusing_target(struct node* n) {
  for (VIP_UINT32 i = 0; i < WINDOW; ++i)
    n->window[i] = byte_at(i);
  /* each refused read leaves node0's VI broken: node1's VI is let go */
  for (VIP_UINT8 disc = 2; disc <= 4; ++disc) {
    VIP_VI_HANDLE vi;
    VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_DELIVERY, disc != 3, &vi) == VIP_SUCCESS);
    VT_CHECK(vt_connect(n->nic, vi, 1, 0, disc, 0) == VIP_SUCCESS);
    struct window_note* where = (struct window_note*)(n->mem + 1024);
    where->open_address = (VIP_UINT64)(uintptr_t)n->window;
    where->open_handle = n->window_mh;
    where->closed_address = (VIP_UINT64)(uintptr_t)n->closed;
    where->closed_handle = n->closed_mh;
    VT_CHECK(vt_post(vi, desc(n, 0), where, sizeof *where, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, sizeof *where));
  }
  return serve_reads(n, VIP_TRUE, 5, 1);
}

static int unsupported(struct node* n) {
  VIP_NIC_ATTRIBUTES attributes;
  VT_CHECK(VipQueryNic(n->nic, &attributes) == VIP_SUCCESS);
  VT_CHECK(attributes.RDMAReadSupport == 0);
  VIP_VI_HANDLE vi;
  VT_CHECK(make_vi(n, VIP_SERVICE_RELIABLE_DELIVERY, VIP_TRUE, &vi) == VIP_ERROR_NOT_SUPPORTED);
  VT_CHECK(strstr(lanai_emu_last_error(), "does not do RDMA reads") != NULL);
  VIP_MEM_ATTRIBUTES readable = {n->ptag, VIP_FALSE, VIP_TRUE};
  VIP_MEM_HANDLE handle;
  VT_CHECK(VipRegisterMem(n->nic, n->closed, 64, &readable, &handle) == VIP_INVALID_RDMAREAD);
  return 0;
}

int via_main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "flow") == 0)
      flow_control = 1;
    else if (strcmp(argv[i], "rr") == 0)
      read_level = VIP_SERVICE_RELIABLE_RECEPTION;
  }
  if (lanai_emu_nodes() != 2)
    return 64;
  const int me = lanai_emu_node();
  struct node* n = calloc(1, sizeof *n);
  const int supported = strcmp(scenario, "unsupported") != 0 &&
                        !(strcmp(scenario, "refused-by-target") == 0 && me == 1);
  if (!n || setup(n, supported))
    return 1;
  int failed;
  if (strcmp(scenario, "read") == 0) {
    failed = me == 0 ? reader(n) : read_target(n);
  } else if (strcmp(scenario, "refusals") == 0) {
    failed = me == 0 ? refusing_reader(n) : refusing_target(n);
  } else if (strcmp(scenario, "unsupported") == 0) {
    failed = unsupported(n);
  } else if (strcmp(scenario, "refused-by-target") == 0) {
    if (me == 0) {
      failed = refused_read(n, 2, 0, 0, 100);
    } else {
      VIP_VI_HANDLE vi;
      failed = make_vi(n, VIP_SERVICE_RELIABLE_DELIVERY, VIP_FALSE, &vi) != VIP_SUCCESS ||
               vt_connect(n->nic, vi, 1, 0, 2, 0) != VIP_SUCCESS;
      if (!failed) {
        struct window_note* where = (struct window_note*)(n->mem + 1024);
        where->closed_address = (VIP_UINT64)(uintptr_t)n->closed;
        where->closed_handle = n->closed_mh;
        failed = vt_post(vi, desc(n, 0), where, sizeof *where, n->mh, 0) != VIP_SUCCESS ||
                 !done(vi, 0, VIP_STATUS_DONE | VIP_STATUS_OP_SEND, sizeof *where);
      }
    }
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 64;
  }
  if (failed)
    return failed;
  printf("node%d: %s ok\n", me, scenario);
  free(n->mem);
  free(n->window);
  free(n->closed);
  free(n);
  return 0;
}
