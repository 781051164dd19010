/* VIPL features between two nodes, one scenario per run: completion
 * queues shared by two VIs, immediate data, gather/scatter over two
 * segments, zero-byte messages, a message longer than the receive buffer,
 * disconnection (with data still to send), reconnection after it, timeouts, a peer-to-peer
 * connection and completion handlers. Each checks exact status words,
 * lengths, bytes and order.
 * Run: ./vipl_features --nodes 2 -- SCENARIO */
#include "features.h"

VIP_DESCRIPTOR* desc(struct node* n, int i) { return (VIP_DESCRIPTOR*)(n->mem + 64 * i); }
unsigned char* page(struct node* n, int i) { return n->mem + PAGE + PAGE * i; }

unsigned char pattern(int message, VIP_UINT32 offset) {
  return (unsigned char)(message * 29 + offset * 3 + 1 + (offset >> 8));
}

static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* e) {
  struct node* n = context;
  n->errors_seen++;
  n->last_error = *e;
}

static int setup(struct node* n) {
  if (VipOpenNic("nic0", &n->nic) != VIP_SUCCESS)
    return 1;
  if (VipCreatePtag(n->nic, &n->ptag) != VIP_SUCCESS)
    return 1;
  if (VipErrorCallback(n->nic, n, on_error) != VIP_SUCCESS)
    return 1;
  n->mem = aligned_alloc(64, MEM_BYTES);
  if (!n->mem)
    return 1;
  memset(n->mem, 0, MEM_BYTES);
  VIP_MEM_ATTRIBUTES ma = {n->ptag, VIP_FALSE, VIP_FALSE};
  return VipRegisterMem(n->nic, n->mem, MEM_BYTES, &ma, &n->mh) != VIP_SUCCESS;
}

/* Every VI made under credit flow control (a second argument "flow"). */
static int flow_control;

VIP_RETURN make_vi(struct node* n, VIP_CQ_HANDLE send_cq, VIP_CQ_HANDLE recv_cq,
                   VIP_VI_HANDLE* vi) {
  VIP_VI_ATTRIBUTES va = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, n->ptag, VIP_FALSE, VIP_FALSE};
  const VIP_RETURN r = VipCreateVi(n->nic, &va, send_cq, recv_cq, vi);
  return r != VIP_SUCCESS || !flow_control ? r : lanai_emu_set_flow_control(*vi, VIP_TRUE);
}

VIP_RETURN connect_vi(struct node* n, VIP_VI_HANDLE vi, VIP_UINT8 disc) {
  return vt_connect(n->nic, vi, n->me, n->peer, disc, n->active);
}

/* A descriptor over two data segments (a0, l0) and (a1, l1). */
void fill2(VIP_DESCRIPTOR* d, void* a0, VIP_UINT32 l0, void* a1, VIP_UINT32 l1,
           VIP_MEM_HANDLE handle) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 2;
  d->CS.Length = l0 + l1;
  d->DS[0].Local.Data.Address = a0;
  d->DS[0].Local.Handle = handle;
  d->DS[0].Local.Length = l0;
  d->DS[1].Local.Data.Address = a1;
  d->DS[1].Local.Handle = handle;
  d->DS[1].Local.Length = l1;
}

/* The next completed descriptor of a queue, or NULL after WAIT_MS. */
VIP_DESCRIPTOR* wait_desc(VIP_VI_HANDLE vi, int recv) {
  VIP_DESCRIPTOR* d = NULL;
  VIP_RETURN r = recv ? VipRecvWait(vi, WAIT_MS, &d) : VipSendWait(vi, WAIT_MS, &d);
  if (r != VIP_SUCCESS) {
    fprintf(stderr, "node%d: %s wait returned %d\n", lanai_emu_node(), recv ? "recv" : "send",
            (int)r);
    return NULL;
  }
  return d;
}

int check_status(const VIP_DESCRIPTOR* d, VIP_UINT32 status, VIP_UINT32 length) {
  if (d->CS.Status == status && d->CS.Length == length)
    return 1;
  fprintf(stderr, "node%d: status 0x%x length %u, expected 0x%x length %u\n", lanai_emu_node(),
          (unsigned)d->CS.Status, (unsigned)d->CS.Length, (unsigned)status, (unsigned)length);
  return 0;
}

int via_main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  flow_control = argc > 2 && strcmp(argv[2], "flow") == 0;
  if (lanai_emu_nodes() != 2)
    return 64;
  struct node* n = calloc(1, sizeof *n);
  n->me = lanai_emu_node();
  n->peer = 1 - n->me;
  n->active = n->me == 0;
  if (setup(n))
    return 1;
  int failed;
  if (strcmp(scenario, "cq") == 0)
    failed = cq(n);
  else if (strcmp(scenario, "immediate") == 0)
    failed = immediate(n);
  else if (strcmp(scenario, "segments") == 0)
    failed = segments(n);
  else if (strcmp(scenario, "zero-byte") == 0)
    failed = zero_byte(n);
  else if (strcmp(scenario, "too-long") == 0)
    failed = too_long(n);
  else if (strcmp(scenario, "disconnect") == 0)
    failed = disconnect(n);
  else if (strcmp(scenario, "disconnect-data") == 0)
    failed = disconnect_data(n);
  else if (strcmp(scenario, "reconnect") == 0)
    failed = reconnect(n);
  else if (strcmp(scenario, "timeouts") == 0)
    failed = timeouts(n);
  else if (strcmp(scenario, "peer") == 0)
    failed = peer(n);
  else if (strcmp(scenario, "notify") == 0)
    failed = notify(n);
  else {
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 64;
  }
  if (failed)
    return failed;
  /* no scenario expects an asynchronous error (too-long reports its own) */
  if (strcmp(scenario, "too-long") != 0 && n->errors_seen != 0) {
    fprintf(stderr, "node%d: %d unexpected error callbacks, last code %d\n", n->me, n->errors_seen,
            (int)n->last_error.ErrorCode);
    return 1;
  }
  printf("node%d: %s ok\n", n->me, scenario);
  free(n->mem);
  free(n);
  return 0;
}
