/* VIPL feature scenarios about connections: disconnection flushing what is
 * posted, a disconnection with data still to send, reconnection after it,
 * and timeouts of waits and requests. */
#include "features.h"

/* The peer's disconnection broke this side's VI (VIA's connection lost):
 * error state, one VIP_ERROR_CONN_LOST callback; disconnecting here too
 * makes the VI idle. 0 if so. */
static int connection_lost(struct node* n) {
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attrs;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_ERROR);
  VT_CHECK(n->errors_seen == 1 && n->last_error.ErrorCode == VIP_ERROR_CONN_LOST);
  VT_CHECK(n->last_error.ResourceCode == VIP_RESOURCE_VI && n->last_error.ViHandle == n->vi);
  n->errors_seen = 0;
  VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
  return 0;
}

/* --- disconnect -----------------------------------------------------------------
 * One exchange each way, with two more receives left posted on each side;
 * then node0 disconnects. node1's VI breaks (connection lost) and is
 * disconnected there too. Both VIs go idle, sends are refused, the posted
 * receives come back flushed in posting order on both sides (the library
 * sets only their Status; Length keeps what was posted, which VIA leaves
 * undefined for a descriptor completed in error), and the VIs can be
 * destroyed. */
int disconnect(struct node* n) {
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  for (int k = 0; k < 3; k++)
    VT_CHECK(vt_post(n->vi, desc(n, k), page(n, k), 256, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  const VIP_UINT32 mine = n->me == 0 ? 128 : 64, theirs = n->me == 0 ? 64 : 128;
  for (VIP_UINT32 i = 0; i < mine; i++)
    page(n, 8)[i] = pattern(n->me, i);
  VIP_DESCRIPTOR* d;
  if (n->me == 1) {
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 0) && check_status(d, RECV_OK, theirs));
    for (VIP_UINT32 i = 0; i < theirs; i++)
      VT_CHECK(page(n, 0)[i] == pattern(0, i));
  }
  VT_CHECK(vt_post(n->vi, desc(n, 8), page(n, 8), mine, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 8) && check_status(d, SEND_OK, mine));
  if (n->me == 0) {
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 0) && check_status(d, RECV_OK, theirs));
    for (VIP_UINT32 i = 0; i < theirs; i++)
      VT_CHECK(page(n, 0)[i] == pattern(1, i));
    VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
  } else {
    /* the peer's disconnection flushes what is posted here */
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 1));
    VT_CHECK(d->CS.Status == (FLUSHED | VIP_STATUS_OP_RECEIVE));
    VT_CHECK(connection_lost(n) == 0);
  }
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attrs;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_IDLE && send_empty == VIP_TRUE);
  /* a send on a disconnected VI is refused and leaves the descriptor alone */
  vt_fill(desc(n, 9), page(n, 9), 16, n->mh);
  desc(n, 9)->CS.Status = 0x5A5A;
  VT_CHECK(VipPostSend(n->vi, desc(n, 9), n->mh) == VIP_INVALID_STATE);
  VT_CHECK(desc(n, 9)->CS.Status == 0x5A5A);
  VT_CHECK(VipSendDone(n->vi, &d) == VIP_NOT_DONE);
  VT_CHECK(VipDisconnect(n->vi) == VIP_INVALID_STATE);
  for (int k = n->me == 0 ? 1 : 2; k < 3; k++) {
    VT_CHECK(VipRecvDone(n->vi, &d) == VIP_SUCCESS && d == desc(n, k));
    VT_CHECK(d->CS.Status == (FLUSHED | VIP_STATUS_OP_RECEIVE));
  }
  VT_CHECK(VipRecvDone(n->vi, &d) == VIP_NOT_DONE);
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_IDLE && send_empty == VIP_TRUE && recv_empty == VIP_TRUE);
  /* nothing of the flushed buffers was touched */
  for (int k = 1; k < 3; k++)
    for (int i = 0; i < 256; i++)
      VT_CHECK(page(n, k)[i] == 0);
  VT_CHECK(VipDestroyVi(n->vi) == VIP_SUCCESS);
  return 0;
}

/* --- disconnect-data ------------------------------------------------------------
 * node0 posts six 8 KB sends and disconnects at once, before its card has
 * sent most of them: the disconnection waits for them to leave, and node1
 * receives all six intact and in order before its VI breaks; its seventh
 * receive comes back flushed. */
int disconnect_data(struct node* n) {
  enum { SENDS = 6, BYTES = 8192 };
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  if (n->me == 1)
    for (int k = 0; k <= SENDS; k++)
      VT_CHECK(vt_post(n->vi, desc(n, k), page(n, 2 * k), BYTES, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  VIP_DESCRIPTOR* d;
  if (n->me == 0) {
    for (int k = 0; k < SENDS; k++) {
      for (VIP_UINT32 i = 0; i < BYTES; i++)
        page(n, 2 * k)[i] = pattern(k, i);
      VT_CHECK(vt_post(n->vi, desc(n, k), page(n, 2 * k), BYTES, n->mh, 0) == VIP_SUCCESS);
    }
    VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
    for (int k = 0; k < SENDS; k++)
      VT_CHECK(VipSendDone(n->vi, &d) == VIP_SUCCESS && d == desc(n, k) &&
               check_status(d, SEND_OK, BYTES));
    return 0;
  }
  for (int k = 0; k < SENDS; k++) {
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, k) && check_status(d, RECV_OK, BYTES));
    for (VIP_UINT32 i = 0; i < BYTES; i++)
      VT_CHECK(page(n, 2 * k)[i] == pattern(k, i));
  }
  VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, SENDS));
  VT_CHECK(d->CS.Status == (FLUSHED | VIP_STATUS_OP_RECEIVE));
  return connection_lost(n);
}

/* --- reconnect ------------------------------------------------------------------
 * A VI disconnected with a receive still posted, connected again: the
 * flushed receive was handed back to the program, so the next message must
 * land in the receive posted after it, and the flushed buffer stay as the
 * program left it. */
int reconnect(struct node* n) {
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  VIP_DESCRIPTOR* d;
  if (n->me == 1)
    for (int k = 0; k < 2; k++)
      VT_CHECK(vt_post(n->vi, desc(n, k), page(n, k), 256, n->mh, 1) == VIP_SUCCESS);
  VT_CHECK(connect_vi(n, n->vi, 0) == VIP_SUCCESS);
  if (n->me == 0) {
    for (VIP_UINT32 i = 0; i < 100; i++)
      page(n, 8)[i] = pattern(0, i);
    VT_CHECK(vt_post(n->vi, desc(n, 8), page(n, 8), 100, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 8) && check_status(d, SEND_OK, 100));
    VT_CHECK(VipDisconnect(n->vi) == VIP_SUCCESS);
  } else {
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 0) && check_status(d, RECV_OK, 100));
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 1));
    VT_CHECK(d->CS.Status == (FLUSHED | VIP_STATUS_OP_RECEIVE));
    VT_CHECK(connection_lost(n) == 0);
    /* the program owns the flushed buffer again */
    memset(page(n, 1), 0xEE, 256);
    VT_CHECK(vt_post(n->vi, desc(n, 2), page(n, 2), 256, n->mh, 1) == VIP_SUCCESS);
  }
  lanai_emu_compute_ns(MS); /* the NIC is long idle */
  VT_CHECK(connect_vi(n, n->vi, 1) == VIP_SUCCESS);
  if (n->me == 0) {
    for (VIP_UINT32 i = 0; i < 100; i++)
      page(n, 9)[i] = pattern(1, i);
    VT_CHECK(vt_post(n->vi, desc(n, 9), page(n, 9), 100, n->mh, 0) == VIP_SUCCESS);
    VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 9) && check_status(d, SEND_OK, 100));
    return 0;
  }
  d = wait_desc(n->vi, 1);
  if (d == NULL)
    fprintf(stderr,
            "node1: flushed descriptor now has status 0x%x length %u, its buffer 0x%02x...\n",
            (unsigned)desc(n, 1)->CS.Status, (unsigned)desc(n, 1)->CS.Length, page(n, 1)[0]);
  VT_CHECK(d == desc(n, 2) && check_status(d, RECV_OK, 100));
  for (VIP_UINT32 i = 0; i < 100; i++)
    VT_CHECK(page(n, 2)[i] == pattern(1, i));
  VT_CHECK(desc(n, 1)->CS.Status == (FLUSHED | VIP_STATUS_OP_RECEIVE));
  for (int i = 0; i < 256; i++)
    VT_CHECK(page(n, 1)[i] == 0xEE);
  return 0;
}

/* --- timeouts -------------------------------------------------------------------
 * Waits that nothing will end return VIP_TIMEOUT once their virtual-time
 * timeout has passed (and not much later); timeout 0 polls once. node0's
 * connection request to node1, which never waits for it, times out and
 * leaves the VI idle; node1's later wait on that address does not find the
 * withdrawn request. A node outside the network is not reachable. */
static int elapsed_ok(uint64_t start, uint64_t at_least_ns) {
  const uint64_t took = lanai_emu_now_ns() - start;
  if (took >= at_least_ns && took < at_least_ns + MS)
    return 1;
  fprintf(stderr, "node%d: took %llu ns, expected %llu ns or a little more\n", lanai_emu_node(),
          (unsigned long long)took, (unsigned long long)at_least_ns);
  return 0;
}

int timeouts(struct node* n) {
  char local[64] = {0}, remote[64] = {0};
  VT_CHECK(vt_addresses(n->nic, n->me, n->peer, 0x42, local, remote) == 0);
  if (n->me == 1) {
    lanai_emu_compute_ns(20 * MS);
    VIP_VI_ATTRIBUTES ra;
    VIP_CONN_HANDLE conn;
    const uint64_t start = lanai_emu_now_ns();
    VT_CHECK(VipConnectWait(n->nic, (VIP_NET_ADDRESS*)local, 1, (VIP_NET_ADDRESS*)remote, &ra,
                            &conn) == VIP_TIMEOUT);
    VT_CHECK(elapsed_ok(start, 1 * MS));
    return 0;
  }
  VIP_CQ_HANDLE cq;
  VT_CHECK(VipCreateCQ(n->nic, 4, &cq) == VIP_SUCCESS);
  VT_CHECK(make_vi(n, NULL, cq, &n->vi) == VIP_SUCCESS);
  VIP_DESCRIPTOR* d = NULL;
  uint64_t start = lanai_emu_now_ns();
  VT_CHECK(VipRecvWait(n->vi, 1, &d) == VIP_TIMEOUT && d == NULL);
  VT_CHECK(elapsed_ok(start, 1 * MS));
  start = lanai_emu_now_ns();
  VT_CHECK(VipSendWait(n->vi, 2, &d) == VIP_TIMEOUT && d == NULL);
  VT_CHECK(elapsed_ok(start, 2 * MS));
  start = lanai_emu_now_ns();
  VT_CHECK(VipRecvWait(n->vi, 0, &d) == VIP_TIMEOUT && d == NULL);
  VT_CHECK(lanai_emu_now_ns() - start < 10000);
  /* a receive posted on an idle VI that nothing will fill */
  VT_CHECK(vt_post(n->vi, desc(n, 0), page(n, 0), 64, n->mh, 1) == VIP_SUCCESS);
  start = lanai_emu_now_ns();
  VT_CHECK(VipRecvWait(n->vi, 1, &d) == VIP_TIMEOUT && d == NULL);
  VT_CHECK(elapsed_ok(start, 1 * MS));
  VIP_VI_HANDLE vi;
  VIP_BOOLEAN recv;
  start = lanai_emu_now_ns();
  VT_CHECK(VipCQWait(cq, 1, &vi, &recv) == VIP_TIMEOUT);
  VT_CHECK(elapsed_ok(start, 1 * MS));

  /* node1 exists but never waits for a connection */
  VIP_VI_ATTRIBUTES ra;
  start = lanai_emu_now_ns();
  VT_CHECK(VipConnectRequest(n->vi, (VIP_NET_ADDRESS*)local, (VIP_NET_ADDRESS*)remote, 5, &ra) ==
           VIP_TIMEOUT);
  VT_CHECK(elapsed_ok(start, 5 * MS));
  VIP_VI_STATE state;
  VIP_VI_ATTRIBUTES attrs;
  VIP_BOOLEAN send_empty, recv_empty;
  VT_CHECK(VipQueryVi(n->vi, &state, &attrs, &send_empty, &recv_empty) == VIP_SUCCESS);
  VT_CHECK(state == VIP_STATE_IDLE && recv_empty == VIP_FALSE);
  /* nobody asks node0 for a connection either */
  VIP_CONN_HANDLE conn;
  start = lanai_emu_now_ns();
  VT_CHECK(VipConnectWait(n->nic, (VIP_NET_ADDRESS*)local, 2, (VIP_NET_ADDRESS*)remote, &ra,
                          &conn) == VIP_TIMEOUT);
  VT_CHECK(elapsed_ok(start, 2 * MS));
  /* node 5 is not in this two-node network */
  VIP_NET_ADDRESS* far = (VIP_NET_ADDRESS*)remote;
  far->HostAddress[0] = 0, far->HostAddress[1] = 5;
  VT_CHECK(VipConnectRequest(n->vi, (VIP_NET_ADDRESS*)local, far, 5, &ra) == VIP_NOT_REACHABLE);
  return 0;
}

/* --- peer -----------------------------------------------------------------------
 * Peer-to-peer connection: both nodes ask for each other (node1 a
 * millisecond later, so node0's request waits for it), each with receives
 * posted first. node0 sends three messages, node1 answers the last; every
 * byte is checked, and each NIC's counters show the traffic. */
int peer(struct node* n) {
  char local[64] = {0}, remote[64] = {0};
  VIP_VI_ATTRIBUTES remote_attrs;
  VIP_DESCRIPTOR* d;
  VT_CHECK(make_vi(n, NULL, NULL, &n->vi) == VIP_SUCCESS);
  VT_CHECK(vt_addresses(n->nic, n->me, n->peer, 5, local, remote) == 0);
  for (int k = 0; k < 3; k++)
    VT_CHECK(vt_post(n->vi, desc(n, k), page(n, k), 1024, n->mh, 1) == VIP_SUCCESS);
  if (n->me == 1)
    lanai_emu_compute_ns(MS);
  VT_CHECK(VipConnectPeerRequest(n->vi, (VIP_NET_ADDRESS*)local, (VIP_NET_ADDRESS*)remote,
                                 VIP_INFINITE) == VIP_SUCCESS);
  VT_CHECK(VipConnectPeerWait(n->vi, &remote_attrs) == VIP_SUCCESS);
  VT_CHECK(remote_attrs.MaxTransferSize == 65536);
  if (n->me == 0) {
    for (int k = 0; k < 3; k++) {
      for (VIP_UINT32 i = 0; i < 1000; i++)
        page(n, 8 + k)[i] = pattern(k, i);
      VT_CHECK(vt_post(n->vi, desc(n, 8 + k), page(n, 8 + k), 1000, n->mh, 0) == VIP_SUCCESS);
    }
    for (int k = 0; k < 3; k++)
      VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 8 + k) && check_status(d, SEND_OK, 1000));
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, 0) && check_status(d, RECV_OK, 10));
    for (VIP_UINT32 i = 0; i < 10; i++)
      VT_CHECK(page(n, 0)[i] == pattern(7, i));
    LANAI_EMU_NIC_COUNTERS c;
    VT_CHECK(VipQuerySystemManagementInfo(n->nic, LANAI_EMU_SMI_NIC_COUNTERS, &c) == VIP_SUCCESS);
    VT_CHECK(c.packets_sent >= 3 && c.bytes_sent >= 3000 && c.hdma_bytes_to_sram >= 3000);
    /* three receives and three sends posted */
    VT_CHECK(c.packets_received >= 1 && c.doorbells_rung == 6 && c.hdma_protection_errors == 0);
    return 0;
  }
  for (int k = 0; k < 3; k++) {
    VT_CHECK((d = wait_desc(n->vi, 1)) == desc(n, k) && check_status(d, RECV_OK, 1000));
    for (VIP_UINT32 i = 0; i < 1000; i++)
      VT_CHECK(page(n, k)[i] == pattern(k, i));
  }
  for (VIP_UINT32 i = 0; i < 10; i++)
    page(n, 8)[i] = pattern(7, i);
  VT_CHECK(vt_post(n->vi, desc(n, 8), page(n, 8), 10, n->mh, 0) == VIP_SUCCESS);
  VT_CHECK((d = wait_desc(n->vi, 0)) == desc(n, 8) && check_status(d, SEND_OK, 10));
  return 0;
}
