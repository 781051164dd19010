/* VIPL feature scenarios about moving data: completion queues shared by two
 * VIs, immediate data, gather/scatter over two segments, zero-byte messages,
 * a message longer than its receive buffer, and completion handlers. */
#include "features.h"

/* --- cq ---------------------------------------------------------------------
 * Two VIs per node. node0 sends both queues of both VIs to one CQ; node1
 * gives its VIs a shared send CQ and a shared receive CQ. node1 sends four
 * messages on VI 1, 0, 1, 0, then node0 four on VI 0, 1, 0, 1, one at a
 * time (VIA orders nothing across VIs, so each waits for the previous to
 * complete, watching the descriptor's status word). Only then are the CQs
 * read: they must hold every completion, naming VI and queue, in completion
 * order (on node0: the four receives, then the four sends), and
 * VipSendDone/VipRecvDone on the named VI must yield its oldest
 * descriptor. */
static const int order_a[4] = {1, 0, 1, 0}; /* node1 -> node0 */
static const int order_b[4] = {0, 1, 0, 1}; /* node0 -> node1 */
static VIP_UINT32 length_a(int k) { return 100u + 37u * (VIP_UINT32)k; }
static VIP_UINT32 length_b(int k) { return 200u + 53u * (VIP_UINT32)k; }

/* Waits, computing, until the NIC has completed `d` without a VIPL call. */
static int spin_done(const VIP_DESCRIPTOR* d) {
  for (int i = 0; i < WAIT_MS * 1000; i++) {
    if (*(const volatile VIP_UINT32*)&d->CS.Status & VIP_STATUS_DONE)
      return 1;
    lanai_emu_compute_ns(1000);
  }
  fprintf(stderr, "node%d: descriptor never completed\n", lanai_emu_node());
  return 0;
}

/* Sends four messages, VI order[k], lengths len(k), pattern 10*base+k, each
 * once the one before has completed. */
static int cq_send(struct node* n, VIP_VI_HANDLE* vis, const int* order, VIP_UINT32 (*len)(int),
                   int base) {
  for (int k = 0; k < 4; k++) {
    unsigned char* b = page(n, 8 + k);
    for (VIP_UINT32 i = 0; i < len(k); i++)
      b[i] = pattern(10 * base + k, i);
    VT_CHECK(vt_post(vis[order[k]], desc(n, 8 + k), b, len(k), n->mh, 0) == VIP_SUCCESS);
    VT_CHECK(spin_done(desc(n, 8 + k)));
  }
  return 0;
}

static int cq_take_sends(struct node* n, VIP_CQ_HANDLE cq, VIP_VI_HANDLE* vis, const int* order,
                         VIP_UINT32 (*len)(int)) {
  for (int k = 0; k < 4; k++) {
    VIP_VI_HANDLE vi = NULL;
    VIP_BOOLEAN recv = 7;
    VT_CHECK(VipCQDone(cq, &vi, &recv) == VIP_SUCCESS);
    VT_CHECK(vi == vis[order[k]] && recv == VIP_FALSE);
    VIP_DESCRIPTOR* d = NULL;
    VT_CHECK(VipSendDone(vi, &d) == VIP_SUCCESS && d == desc(n, 8 + k));
    VT_CHECK(check_status(d, SEND_OK, len(k)));
  }
  return 0;
}

/* Receive j of VI v was posted at slot 2v+j. */
static int cq_take_receives(struct node* n, VIP_CQ_HANDLE cq, VIP_VI_HANDLE* vis, const int* order,
                            VIP_UINT32 (*len)(int), int base) {
  int taken[2] = {0, 0};
  for (int k = 0; k < 4; k++) {
    VIP_VI_HANDLE vi = NULL;
    VIP_BOOLEAN recv = 7;
    VT_CHECK(VipCQWait(cq, WAIT_MS, &vi, &recv) == VIP_SUCCESS);
    const int v = order[k];
    VT_CHECK(vi == vis[v] && recv == VIP_TRUE);
    VIP_DESCRIPTOR* d = NULL;
    const int slot = 2 * v + taken[v]++;
    VT_CHECK(VipRecvDone(vi, &d) == VIP_SUCCESS && d == desc(n, slot));
    VT_CHECK(check_status(d, RECV_OK, len(k)));
    for (VIP_UINT32 i = 0; i < len(k); i++)
      VT_CHECK(page(n, slot)[i] == pattern(10 * base + k, i));
  }
  return 0;
}

int cq(struct node* n) {
  VIP_CQ_HANDLE cqs[2] = {NULL, NULL}; /* node0: one CQ; node1: send CQ, receive CQ */
  VIP_VI_HANDLE vis[2];
  VT_CHECK(VipCreateCQ(n->nic, 16, &cqs[0]) == VIP_SUCCESS);
  if (n->me == 1)
    VT_CHECK(VipCreateCQ(n->nic, 16, &cqs[1]) == VIP_SUCCESS);
  VIP_CQ_HANDLE send_cq = cqs[0], recv_cq = n->me == 0 ? cqs[0] : cqs[1];
  for (int v = 0; v < 2; v++) {
    VT_CHECK(make_vi(n, send_cq, recv_cq, &vis[v]) == VIP_SUCCESS);
    for (int j = 0; j < 2; j++)
      VT_CHECK(vt_post(vis[v], desc(n, 2 * v + j), page(n, 2 * v + j), PAGE, n->mh, 1) ==
               VIP_SUCCESS);
  }
  for (int v = 0; v < 2; v++)
    VT_CHECK(connect_vi(n, vis[v], (VIP_UINT8)v) == VIP_SUCCESS);
  VIP_VI_HANDLE vi;
  VIP_BOOLEAN recv;
  VT_CHECK(VipCQDone(recv_cq, &vi, &recv) == VIP_NOT_DONE);
  /* a CQ with VI queues attached cannot go */
  VT_CHECK(VipDestroyCQ(send_cq) == VIP_INVALID_STATE);
  if (n->me == 1) {
    if (cq_send(n, vis, order_a, length_a, 1))
      return 1;
    if (cq_take_sends(n, send_cq, vis, order_a, length_a))
      return 1;
    VT_CHECK(VipCQDone(send_cq, &vi, &recv) == VIP_NOT_DONE);
    for (int k = 0; k < 4; k++)
      VT_CHECK(spin_done(desc(n, k)));
    if (cq_take_receives(n, recv_cq, vis, order_b, length_b, 2))
      return 1;
  } else {
    for (int k = 0; k < 4; k++)
      VT_CHECK(spin_done(desc(n, k)));
    if (cq_send(n, vis, order_b, length_b, 2))
      return 1;
    /* one CQ, eight entries: receives first, as they completed first */
    if (cq_take_receives(n, recv_cq, vis, order_a, length_a, 1))
      return 1;
    if (cq_take_sends(n, send_cq, vis, order_b, length_b))
      return 1;
  }
  /* every completion was reported once, every descriptor taken once */
  VIP_DESCRIPTOR* d;
  for (int c = 0; c < 2; c++)
    if (cqs[c])
      VT_CHECK(VipCQDone(cqs[c], &vi, &recv) == VIP_NOT_DONE);
  VT_CHECK(VipCQWait(recv_cq, 0, &vi, &recv) == VIP_TIMEOUT);
  for (int v = 0; v < 2; v++) {
    VT_CHECK(VipSendDone(vis[v], &d) == VIP_NOT_DONE);
    VT_CHECK(VipRecvDone(vis[v], &d) == VIP_NOT_DONE);
  }
  return 0;
}

/* --- immediate ----------------------------------------------------------------
 * node0 sends: 64 bytes with immediate data, 32 bytes without, 0 bytes with
 * (an immediate-only message), 1 byte with 0xFFFFFFFF. node1's receive
 * descriptors are recycled ones that still carry VIP_CONTROL_IMMEDIATE:
 * only the completion status says whether immediate data came, and a
 * message without it leaves ImmediateData as it was. */
int immediate(struct node* n) {
  static const VIP_UINT32 lengths[4] = {64, 32, 0, 1};
  static const int with[4] = {1, 0, 1, 1};
  static const VIP_UINT32 data[4] = {0x12345678u, 0x0u, 0xCAFEF00Du, 0xFFFFFFFFu};
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  if (n->me == 1) {
    for (int k = 0; k < 4; k++) {
      vt_fill(desc(n, k), page(n, k), 128, n->mh);
      desc(n, k)->CS.Control = VIP_CONTROL_IMMEDIATE;
      desc(n, k)->CS.ImmediateData = 0x0BADF00Du;
      VT_CHECK(VipPostRecv(n->vi, desc(n, k), n->mh) == VIP_SUCCESS);
    }
  }
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  if (n->me == 0) {
    for (int k = 0; k < 4; k++) {
      for (VIP_UINT32 i = 0; i < lengths[k]; i++)
        page(n, k)[i] = pattern(k, i);
      vt_fill(desc(n, k), page(n, k), lengths[k], n->mh);
      if (with[k])
        desc(n, k)->CS.Control = VIP_CONTROL_IMMEDIATE;
      desc(n, k)->CS.ImmediateData = data[k];
      VT_CHECK(VipPostSend(n->vi, desc(n, k), n->mh) == VIP_SUCCESS);
    }
    for (int k = 0; k < 4; k++) {
      VIP_DESCRIPTOR* d = wait_desc(n->vi, 0);
      VT_CHECK(d == desc(n, k));
      /* the send side completes plainly; immediate data is the receiver's news */
      VT_CHECK(check_status(d, SEND_OK, lengths[k]));
      VT_CHECK(d->CS.ImmediateData == data[k]);
    }
    return 0;
  }
  for (int k = 0; k < 4; k++) {
    VIP_DESCRIPTOR* d = wait_desc(n->vi, 1);
    VT_CHECK(d == desc(n, k));
    VT_CHECK(check_status(d, RECV_OK | (with[k] ? VIP_STATUS_IMMEDIATE : 0u), lengths[k]));
    VT_CHECK(d->CS.ImmediateData == (with[k] ? data[k] : 0x0BADF00Du));
    for (VIP_UINT32 i = 0; i < lengths[k]; i++)
      VT_CHECK(page(n, k)[i] == pattern(k, i));
    VT_CHECK(page(n, k)[lengths[k]] == 0);
  }
  return 0;
}

/* --- segments -----------------------------------------------------------------
 * Three messages, each gathered from two segments at odd offsets and
 * scattered into two segments split elsewhere. The receiver's pages start
 * full of 0xEE; afterwards they must equal that image with exactly the
 * message bytes written at their places. */
struct seg {
  int page;
  VIP_UINT32 offset, length;
};
static const struct seg send_segs[3][2] = {
    {{0, 1, 13}, {1, 3, 250}},  /* 263 bytes */
    {{2, 7, 1}, {3, 11, 98}},   /* 99 bytes */
    {{4, 2049, 40}, {5, 5, 8}}, /* 48 bytes */
};
static const struct seg recv_segs[3][2] = {
    {{0, 5, 100}, {1, 9, 400}},   /* split after 100; 237 bytes of room left over */
    {{2, 3, 99}, {3, 1, 50}},     /* the first segment takes it all */
    {{4, 13, 31}, {5, 4079, 17}}, /* exactly full, to the end of the page */
};

int segments(struct node* n) {
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  if (n->me == 0) {
    memset(page(n, 0), 0x77, PAGES * PAGE); /* what a wrong gather would pick up */
    VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
    for (int m = 0; m < 3; m++) {
      const struct seg* s = send_segs[m];
      VIP_UINT32 at = 0;
      for (int j = 0; j < 2; j++)
        for (VIP_UINT32 i = 0; i < s[j].length; i++)
          page(n, s[j].page)[s[j].offset + i] = pattern(m, at++);
      fill2(desc(n, m), page(n, s[0].page) + s[0].offset, s[0].length,
            page(n, s[1].page) + s[1].offset, s[1].length, n->mh);
      VT_CHECK(VipPostSend(n->vi, desc(n, m), n->mh) == VIP_SUCCESS);
    }
    for (int m = 0; m < 3; m++) {
      VIP_DESCRIPTOR* d = wait_desc(n->vi, 0);
      VT_CHECK(d == desc(n, m));
      VT_CHECK(check_status(d, SEND_OK, send_segs[m][0].length + send_segs[m][1].length));
    }
    return 0;
  }
  unsigned char* expected = malloc(PAGES * PAGE);
  VT_CHECK(expected != NULL);
  memset(page(n, 0), 0xEE, PAGES * PAGE);
  memset(expected, 0xEE, PAGES * PAGE);
  for (int m = 0; m < 3; m++) {
    const struct seg* s = recv_segs[m];
    fill2(desc(n, m), page(n, s[0].page) + s[0].offset, s[0].length,
          page(n, s[1].page) + s[1].offset, s[1].length, n->mh);
    desc(n, m)->CS.Length = 0;
    VT_CHECK(VipPostRecv(n->vi, desc(n, m), n->mh) == VIP_SUCCESS);
    /* the message's bytes, laid into the segments in order */
    const VIP_UINT32 total = send_segs[m][0].length + send_segs[m][1].length;
    VIP_UINT32 at = 0;
    for (int j = 0; j < 2 && at < total; j++)
      for (VIP_UINT32 i = 0; i < s[j].length && at < total; i++)
        expected[s[j].page * PAGE + s[j].offset + i] = pattern(m, at++);
  }
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  for (int m = 0; m < 3; m++) {
    VIP_DESCRIPTOR* d = wait_desc(n->vi, 1);
    VT_CHECK(d == desc(n, m));
    VT_CHECK(check_status(d, RECV_OK, send_segs[m][0].length + send_segs[m][1].length));
  }
  for (size_t i = 0; i < PAGES * PAGE; i++)
    if (page(n, 0)[i] != expected[i]) {
      fprintf(stderr, "node1: page %zu byte %zu is 0x%02x, expected 0x%02x\n", i / PAGE, i % PAGE,
              page(n, 0)[i], expected[i]);
      return 1;
    }
  free(expected);
  return 0;
}

/* --- zero-byte ------------------------------------------------------------------
 * Three empty messages: SegCount 0 into a 64-byte buffer, SegCount 1 of
 * Length 0 into a descriptor with no segment, SegCount 0 into a segment of
 * Length 0. Both sides complete with Length 0; no buffer byte changes. */
int zero_byte(struct node* n) {
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  memset(page(n, 0), 0xEE, PAGES * PAGE);
  if (n->me == 1) {
    vt_fill(desc(n, 0), page(n, 0), 64, n->mh);
    vt_fill(desc(n, 1), page(n, 1), 0, n->mh);
    desc(n, 1)->CS.SegCount = 0;
    vt_fill(desc(n, 2), page(n, 2), 0, n->mh);
    for (int k = 0; k < 3; k++) {
      desc(n, k)->CS.Length = 0x5555; /* the NIC must write 0 here */
      VT_CHECK(VipPostRecv(n->vi, desc(n, k), n->mh) == VIP_SUCCESS);
    }
  }
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  if (n->me == 0) {
    for (int k = 0; k < 3; k++) {
      vt_fill(desc(n, k), page(n, k), 0, n->mh);
      if (k != 1)
        desc(n, k)->CS.SegCount = 0;
      VT_CHECK(VipPostSend(n->vi, desc(n, k), n->mh) == VIP_SUCCESS);
    }
  }
  for (int k = 0; k < 3; k++) {
    VIP_DESCRIPTOR* d = wait_desc(n->vi, n->me == 1);
    VT_CHECK(d == desc(n, k));
    VT_CHECK(check_status(d, n->me == 1 ? RECV_OK : SEND_OK, 0));
  }
  for (size_t i = 0; i < PAGES * PAGE; i++)
    VT_CHECK(page(n, 0)[i] == 0xEE);
  return 0;
}

/* --- too-long -------------------------------------------------------------------
 * node0 sends 200 bytes into node1's 100-byte receive buffer. VIA: the
 * receive completes with a length error. Here no byte is delivered (Length
 * 0, the whole buffer keeps its contents); the send completes normally. */
static const char* state_name(VIP_VI_STATE s) {
  switch (s) {
  case VIP_STATE_IDLE:
    return "idle";
  case VIP_STATE_CONNECTED:
    return "connected";
  case VIP_STATE_CONNECT_PENDING:
    return "connect-pending";
  case VIP_STATE_ERROR:
    return "error";
  }
  return "?";
}

int too_long(struct node* n) {
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  memset(page(n, 0), 0xEE, PAGES * PAGE);
  if (n->me == 1) {
    vt_fill(desc(n, 0), page(n, 0), 100, n->mh);
    VT_CHECK(VipPostRecv(n->vi, desc(n, 0), n->mh) == VIP_SUCCESS);
  }
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  if (n->me == 0) {
    for (VIP_UINT32 i = 0; i < 200; i++)
      page(n, 1)[i] = pattern(0, i);
    VT_CHECK(vt_post(n->vi, desc(n, 0), page(n, 1), 200, n->mh, 0) == VIP_SUCCESS);
    VIP_DESCRIPTOR* d = wait_desc(n->vi, 0);
    VT_CHECK(d == desc(n, 0));
    VT_CHECK(check_status(d, SEND_OK, 200));
    return 0;
  }
  VIP_DESCRIPTOR* d = wait_desc(n->vi, 1);
  VT_CHECK(d == desc(n, 0));
  VT_CHECK(check_status(d, RECV_OK | VIP_STATUS_LENGTH_ERROR, 0));
  for (size_t i = 0; i < PAGES * PAGE; i++)
    VT_CHECK(page(n, 0)[i] == 0xEE);
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attrs;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  printf("node1: too-long: receive status 0x%x length %u, VI %s, %d error callbacks\n",
         (unsigned)d->CS.Status, (unsigned)d->CS.Length, state_name(state), n->errors_seen);
  return 0;
}

/* --- notify -------------------------------------------------------------------
 * Completion handlers: node1 takes its three receives through VipRecvNotify
 * (the handler re-arms itself) and hears of the first through VipCQNotify
 * too; node0 takes its first send through VipSendNotify and the rest with
 * Wait. Handlers run while the program computes; every byte is checked. */
struct notified {
  VIP_DESCRIPTOR* got[4];
  int count;
  VIP_VI_HANDLE cq_vi;
  VIP_BOOLEAN cq_recv;
  int cq_calls;
  VIP_VI_HANDLE vi;
};

static void on_descriptor(VIP_PVOID context, VIP_NIC_HANDLE nic, VIP_DESCRIPTOR* d) {
  struct notified* s = context;
  (void)nic;
  if (s->count < 4)
    s->got[s->count] = d;
  s->count++;
  if (s->count < 3 && VipRecvNotify(s->vi, s, on_descriptor) != VIP_SUCCESS)
    s->count = 100;
}

static void on_send(VIP_PVOID context, VIP_NIC_HANDLE nic, VIP_DESCRIPTOR* d) {
  struct notified* s = context;
  (void)nic;
  s->got[0] = d;
  s->count++;
}

static void on_cq(VIP_PVOID context, VIP_NIC_HANDLE nic, VIP_VI_HANDLE vi, VIP_BOOLEAN recv) {
  struct notified* s = context;
  (void)nic;
  s->cq_vi = vi;
  s->cq_recv = recv;
  s->cq_calls++;
}

int notify(struct node* n) {
  struct notified s;
  memset(&s, 0, sizeof s);
  VIP_CQ_HANDLE cq = NULL;
  VT_CHECK(VipCreateCQ(n->nic, 8, &cq) == VIP_SUCCESS);
  VT_CHECK(make_vi(n, NULL, cq, &n->vi) == VIP_SUCCESS);
  s.vi = n->vi;
  VT_CHECK(VipRecvNotify(n->vi, &s, NULL) == VIP_INVALID_PARAMETER);
  VT_CHECK(VipCQNotify(NULL, &s, on_cq) == VIP_INVALID_PARAMETER);
  if (n->me == 1) {
    for (int k = 0; k < 3; k++)
      VT_CHECK(vt_post(n->vi, desc(n, k), page(n, k), 512, n->mh, 1) == VIP_SUCCESS);
    VT_CHECK(VipRecvNotify(n->vi, &s, on_descriptor) == VIP_SUCCESS);
    VT_CHECK(VipRecvNotify(n->vi, &s, on_descriptor) == VIP_ERROR_RESOURCE);
    VT_CHECK(VipCQNotify(cq, &s, on_cq) == VIP_SUCCESS);
  }
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  if (n->me == 0) {
    VT_CHECK(VipSendNotify(n->vi, &s, on_send) == VIP_SUCCESS);
    for (int k = 0; k < 3; k++) {
      for (VIP_UINT32 i = 0; i < 500; i++)
        page(n, 8 + k)[i] = pattern(k, i);
      VT_CHECK(vt_post(n->vi, desc(n, 8 + k), page(n, 8 + k), 500, n->mh, 0) == VIP_SUCCESS);
    }
    for (int spins = 0; s.count == 0 && spins < 1000; spins++)
      lanai_emu_compute_ns(1000);
    VT_CHECK(s.count == 1 && s.got[0] == desc(n, 8) && check_status(s.got[0], SEND_OK, 500));
    VIP_DESCRIPTOR* d;
    for (int k = 1; k < 3; k++)
      VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 8 + k) && check_status(d, SEND_OK, 500));
    return 0;
  }
  for (int spins = 0; s.count < 3 && spins < 1000; spins++)
    lanai_emu_compute_ns(1000);
  VT_CHECK(s.count == 3);
  for (int k = 0; k < 3; k++) {
    VT_CHECK(s.got[k] == desc(n, k) && check_status(s.got[k], RECV_OK, 500));
    for (VIP_UINT32 i = 0; i < 500; i++)
      VT_CHECK(page(n, k)[i] == pattern(k, i));
  }
  VT_CHECK(s.cq_calls == 1 && s.cq_vi == n->vi && s.cq_recv == VIP_TRUE);
  /* the handlers took every receive: nothing is left to take */
  VIP_DESCRIPTOR* d;
  VT_CHECK(VipRecvDone(n->vi, &d) == VIP_NOT_DONE);
  return 0;
}
