/* Credit flow control (lanai_emu_set_flow_control) on two nodes.
 *   stream LEVEL COUNT BYTES DEPTH [off]
 *     node0 posts COUNT sends of BYTES at once on a VI of reliability LEVEL
 *     (u, rd, rr); node1 keeps only DEPTH receives posted, spends 30 us on
 *     each message before posting its receive again, and checks every byte
 *     and the order. With flow control nothing is lost: node1 reports all
 *     COUNT. With "off" (an unreliable VI) the sender overruns node1, which
 *     reports how many it got before going quiet, fewer than COUNT.
 *   errors
 *     every refusal of lanai_emu_set_flow_control, and a connection
 *     between a flow-controlled VI and one without it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>
#include <vipl_emu.h>

#include "vipl_test_util.h"

#define MAX_COUNT 64
#define MAX_BYTES 16384

struct node {
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
  unsigned char* mem;
};

static VIP_RELIABILITY_LEVEL level_of(const char* name) {
  if (strcmp(name, "rd") == 0)
    return VIP_SERVICE_RELIABLE_DELIVERY;
  if (strcmp(name, "rr") == 0)
    return VIP_SERVICE_RELIABLE_RECEPTION;
  return VIP_SERVICE_UNRELIABLE;
}

/* Message i's byte k: its number in the first four bytes, then a pattern. */
static unsigned char pattern(unsigned i, unsigned k) {
  return k < 4 ? (unsigned char)(i >> (8 * k)) : (unsigned char)(i * 31u + k * 7u + 1u);
}
static unsigned number_of(const unsigned char* b) {
  return b[0] | (unsigned)b[1] << 8 | (unsigned)b[2] << 16 | (unsigned)b[3] << 24;
}

/* The descriptor and buffer of slot i (descriptors first, 64-byte aligned). */
static VIP_DESCRIPTOR* desc(struct node* n, unsigned i) {
  return (VIP_DESCRIPTOR*)(n->mem + i * 64u);
}
static unsigned char* buf(struct node* n, unsigned i) {
  return n->mem + MAX_COUNT * 64u + i * MAX_BYTES;
}

static int open_node(struct node* n, VIP_RELIABILITY_LEVEL level, int flow) {
  VT_CHECK(VipOpenNic("nic0", &n->nic) == VIP_SUCCESS);
  VT_CHECK(VipCreatePtag(n->nic, &n->ptag) == VIP_SUCCESS);
  VIP_VI_ATTRIBUTES a = {level, MAX_BYTES, NULL, n->ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipCreateVi(n->nic, &a, NULL, NULL, &n->vi) == VIP_SUCCESS);
  if (flow && lanai_emu_set_flow_control(n->vi, VIP_TRUE) != VIP_SUCCESS) {
    fprintf(stderr, "node%d: %s\n", lanai_emu_node(), lanai_emu_last_error());
    return 1;
  }
  const size_t bytes = MAX_COUNT * (64u + MAX_BYTES);
  n->mem = aligned_alloc(64, bytes);
  VT_CHECK(n->mem != NULL);
  VIP_MEM_ATTRIBUTES m = {n->ptag, VIP_FALSE, VIP_FALSE};
  VT_CHECK(VipRegisterMem(n->nic, n->mem, bytes, &m, &n->mh) == VIP_SUCCESS);
  return 0;
}

static int stream(int me, char** args) {
  const VIP_RELIABILITY_LEVEL level = level_of(args[0]);
  const unsigned count = (unsigned)atoi(args[1]), bytes = (unsigned)atoi(args[2]);
  const unsigned depth = (unsigned)atoi(args[3]);
  const int flow = args[4] == NULL || strcmp(args[4], "off") != 0;
  VT_CHECK(count >= 1 && count <= MAX_COUNT && bytes >= 4 && bytes <= MAX_BYTES && depth >= 1 &&
           depth <= count);
  struct node n;
  if (open_node(&n, level, flow))
    return 1;
  if (me == 1)
    for (unsigned i = 0; i < depth; ++i)
      VT_CHECK(vt_post(n.vi, desc(&n, i), buf(&n, i), bytes, n.mh, 1) == VIP_SUCCESS);
  VT_CHECK(vt_connect(n.nic, n.vi, me, 1 - me, 1, me == 0) == VIP_SUCCESS);
  /* A connected VI keeps what it has. */
  VT_CHECK(lanai_emu_set_flow_control(n.vi, flow ? VIP_FALSE : VIP_TRUE) == VIP_INVALID_STATE);
  if (me == 0) {
    for (unsigned i = 0; i < count; ++i) {
      for (unsigned k = 0; k < bytes; ++k)
        buf(&n, i)[k] = pattern(i, k);
      VT_CHECK(vt_post(n.vi, desc(&n, i), buf(&n, i), bytes, n.mh, 0) == VIP_SUCCESS);
    }
    for (unsigned i = 0; i < count; ++i) {
      VIP_DESCRIPTOR* d = NULL;
      VT_CHECK(VipSendWait(n.vi, VIP_INFINITE, &d) == VIP_SUCCESS);
      VT_CHECK(d == desc(&n, i) && (d->CS.Status & VIP_STATUS_ERROR_MASK) == 0);
    }
    printf("node0: %u sends completed\n", count);
    free(n.mem);
    return 0;
  }
  /* Messages may be lost without flow control (an unreliable VI), never
   * reordered or damaged: each one's number must exceed the last's. */
  unsigned got = 0, next = 0;
  for (; got < count; ++got) {
    VIP_DESCRIPTOR* d = NULL;
    /* Without flow control the lost messages never come: 20 ms of quiet
     * ends the count. */
    const VIP_RETURN r = VipRecvWait(n.vi, flow ? VIP_INFINITE : 20, &d);
    if (r == VIP_TIMEOUT && !flow)
      break;
    VT_CHECK(r == VIP_SUCCESS);
    const unsigned slot = got % depth;
    VT_CHECK(d == desc(&n, slot));
    VT_CHECK((d->CS.Status & VIP_STATUS_ERROR_MASK) == 0 && d->CS.Length == bytes);
    const unsigned number = number_of(buf(&n, slot));
    VT_CHECK(number >= next && number < count && (!flow || number == got));
    for (unsigned k = 0; k < bytes; ++k)
      VT_CHECK(buf(&n, slot)[k] == pattern(number, k));
    next = number + 1;
    lanai_emu_compute_ns(30000);
    if (got + depth < count && next < count)
      VT_CHECK(vt_post(n.vi, d, buf(&n, slot), bytes, n.mh, 1) == VIP_SUCCESS);
  }
  printf("node1: %u of %u messages, intact and in order\n", got, count);
  free(n.mem);
  return 0;
}

/* Every refusal on node 0; node 1 only takes part in the mismatched
 * connection. */
static int errors(int me) {
  struct node n;
  if (open_node(&n, VIP_SERVICE_RELIABLE_DELIVERY, me == 1))
    return 1;
  if (me == 1) {
    /* Flow control here, none at node 0: the acceptance is refused. */
    char local[64] = {0}, remote[64] = {0};
    VIP_VI_ATTRIBUTES remote_attrs;
    VIP_CONN_HANDLE conn;
    VT_CHECK(vt_addresses(n.nic, 1, 0, 2, local, remote) == 0);
    VT_CHECK(VipConnectWait(n.nic, (VIP_NET_ADDRESS*)local, VIP_INFINITE, (VIP_NET_ADDRESS*)remote,
                            &remote_attrs, &conn) == VIP_SUCCESS);
    VT_CHECK(VipConnectAccept(conn, n.vi) == VIP_INVALID_PARAMETER);
    VT_CHECK(strstr(lanai_emu_last_error(), "flow control is on at one end") != NULL);
    VT_CHECK(VipConnectReject(conn) == VIP_SUCCESS);
    printf("node1: errors ok\n");
    free(n.mem);
    return 0;
  }
  VT_CHECK(lanai_emu_set_flow_control(NULL, VIP_TRUE) == VIP_INVALID_PARAMETER);
  /* Something posted: too late to change how it is counted. */
  VT_CHECK(vt_post(n.vi, desc(&n, 0), buf(&n, 0), 64, n.mh, 1) == VIP_SUCCESS);
  VT_CHECK(lanai_emu_set_flow_control(n.vi, VIP_TRUE) == VIP_INVALID_STATE);
  VT_CHECK(strstr(lanai_emu_last_error(), "nothing posted") != NULL);
  /* At most VIA_MAX_FLOW_VI per node. */
  VIP_VI_HANDLE many[VIA_MAX_FLOW_VI + 1];
  VIP_VI_ATTRIBUTES a = {
      VIP_SERVICE_RELIABLE_DELIVERY, MAX_BYTES, NULL, n.ptag, VIP_FALSE, VIP_FALSE};
  for (int i = 0; i <= VIA_MAX_FLOW_VI; ++i) {
    VT_CHECK(VipCreateVi(n.nic, &a, NULL, NULL, &many[i]) == VIP_SUCCESS);
    const VIP_RETURN r = lanai_emu_set_flow_control(many[i], VIP_TRUE);
    VT_CHECK(r == (i < VIA_MAX_FLOW_VI ? VIP_SUCCESS : VIP_ERROR_RESOURCE));
  }
  VT_CHECK(strstr(lanai_emu_last_error(), "as many as the card holds") != NULL);
  /* Switching one off makes room again; switching it twice changes nothing. */
  VT_CHECK(lanai_emu_set_flow_control(many[0], VIP_FALSE) == VIP_SUCCESS);
  VT_CHECK(lanai_emu_set_flow_control(many[0], VIP_FALSE) == VIP_SUCCESS);
  VT_CHECK(lanai_emu_set_flow_control(many[VIA_MAX_FLOW_VI], VIP_TRUE) == VIP_SUCCESS);
  /* A connection of a VI without flow control to one with it: refused
   * by the accepting end (node 1). */
  VIP_VI_HANDLE plain;
  VT_CHECK(VipCreateVi(n.nic, &a, NULL, NULL, &plain) == VIP_SUCCESS);
  char local[64] = {0}, remote[64] = {0};
  VIP_VI_ATTRIBUTES remote_attrs;
  VT_CHECK(vt_addresses(n.nic, 0, 1, 2, local, remote) == 0);
  VT_CHECK(VipConnectRequest(plain, (VIP_NET_ADDRESS*)local, (VIP_NET_ADDRESS*)remote, VIP_INFINITE,
                             &remote_attrs) == VIP_REJECT);
  printf("node0: errors ok\n");
  free(n.mem);
  return 0;
}

int via_main(int argc, char** argv) {
  const int me = lanai_emu_node();
  if (argc >= 6 && strcmp(argv[1], "stream") == 0)
    return stream(me, argv + 2);
  if (argc == 2 && strcmp(argv[1], "errors") == 0)
    return errors(me);
  fprintf(stderr, "usage: flow_control stream LEVEL COUNT BYTES DEPTH [off] | errors\n");
  return 2;
}
