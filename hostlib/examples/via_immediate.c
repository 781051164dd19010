/* Immediate data on recycled descriptors, in the style of the VIA
 * providers' example programs: an ordinary program with main(), globals,
 * gettimeofday timing and its role taken from gethostname(). The host
 * named node0 sends MESSAGES messages, every other one with immediate data
 * (its number), every third one empty; the host named node1 receives them
 * on a ring of RING receive descriptors, each reposted as soon as it is
 * taken, and checks for every message that the status claims immediate
 * data exactly when it came, the immediate word, the length and the
 * bytes. Before reposting, a descriptor keeps what the last message left
 * in it, so a stale immediate word would show. After every RING messages
 * node1 sends a credit, so that node0 never runs ahead of its receives.
 * Build: cc via_immediate.c -o via_immediate $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_immediate [-n MESSAGES] */
#define _DEFAULT_SOURCE /* gethostname, getopt under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

#define RING 4
#define MAX_BYTES 256
#define TAG 0x1AB00000u

static int messages = 24, sender;
static VIP_NIC_HANDLE nic;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR *ring, *credit; /* RING + 1 descriptors in registered memory */
static unsigned char* buffers;        /* RING + 1 buffers of MAX_BYTES */

static void die(const char* what) {
  fprintf(stderr, "via_immediate: %s\n", what);
  exit(1);
}

static int has_immediate(int m) { return m % 2 == 0; }
static VIP_UINT32 length_of(int m) { return m % 3 == 0 ? 0 : (VIP_UINT32)(16 + m * 5) % MAX_BYTES; }
static unsigned char byte_at(int m, int i) { return (unsigned char)(m * 17 + i * 3 + 1); }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, VIP_DESCRIPTOR* d, unsigned char* buf, VIP_UINT32 len, int m) {
  /* Only the fields a post sets: the rest is what the last use left. */
  d->CS.Control = (VIP_UINT16)(!recv && has_immediate(m) ? VIP_CONTROL_IMMEDIATE : 0);
  d->CS.SegCount = 1;
  d->CS.Length = len;
  d->CS.Status = 0;
  if (!recv)
    d->CS.ImmediateData = TAG | (VIP_UINT32)m;
  d->DS[0].Local.Data.Address = buf;
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = len;
  if ((recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) != VIP_SUCCESS)
    die("post failed");
}

static VIP_DESCRIPTOR* complete(int recv) {
  VIP_DESCRIPTOR* d;
  if ((recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d)) !=
          VIP_SUCCESS ||
      (d->CS.Status & VIP_STATUS_ERROR_MASK))
    die("transfer failed");
  return d;
}

static void run_sender(void) {
  for (int m = 0; m < messages; m++) {
    if (m % RING == 0 && m > 0) {
      complete(1); /* a credit: node1 has reposted its ring */
      post(1, credit, buffers + RING * MAX_BYTES, 8, 0);
    }
    unsigned char* buf = buffers + (m % RING) * MAX_BYTES;
    for (VIP_UINT32 i = 0; i < length_of(m); i++)
      buf[i] = byte_at(m, (int)i);
    if (m >= RING)
      complete(0); /* the descriptor and buffer come back */
    post(0, &ring[m % RING], buf, length_of(m), m);
  }
  for (int m = messages > RING ? messages - RING : 0; m < messages; m++)
    complete(0);
  printf("node0: %d messages sent from %d recycled descriptors\n", messages, RING);
}

static void run_receiver(void) {
  int with_immediate = 0, empty = 0;
  double start = seconds();
  for (int m = 0; m < messages; m++) {
    VIP_DESCRIPTOR* d = complete(1);
    if (d != &ring[m % RING])
      die("receives completed out of order");
    const VIP_UINT32 len = length_of(m);
    const int immediate = (d->CS.Status & VIP_STATUS_IMMEDIATE) != 0;
    if (immediate != has_immediate(m))
      die("the status misreports immediate data");
    if (immediate && d->CS.ImmediateData != (TAG | (VIP_UINT32)m))
      die("wrong immediate data");
    if (d->CS.Length != len)
      die("wrong length");
    for (VIP_UINT32 i = 0; i < len; i++)
      if (buffers[(m % RING) * MAX_BYTES + i] != byte_at(m, (int)i))
        die("bytes differ");
    with_immediate += immediate;
    empty += len == 0;
    if (m + RING < messages)
      post(1, d, buffers + (m % RING) * MAX_BYTES, MAX_BYTES, 0);
    if (m % RING == RING - 1 && m + 1 < messages) {
      post(0, credit, buffers + RING * MAX_BYTES, 8, 1); /* odd: no immediate data */
      complete(0);
    }
  }
  printf("node1: %d messages on %d recycled descriptors: %d with immediate data, %d empty, all as "
         "sent (%.1f us)\n",
         messages, RING, with_immediate, empty, (seconds() - start) * 1e6);
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  while ((opt = getopt(argc, argv, "n:")) != -1) {
    if (opt == 'n')
      messages = atoi(optarg);
    else
      die("usage: via_immediate [-n MESSAGES]");
  }
  if (messages < 1)
    die("MESSAGES must be positive");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  sender = strcmp(host, "node0") == 0;
  strcpy(peer, sender ? "node1" : "node0");

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("/dev/via_eth0", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, MAX_BYTES, NULL, ptag, VIP_FALSE, VIP_FALSE};
  const VIP_ULONG bytes = (RING + 1) * (sizeof(VIP_DESCRIPTOR) + MAX_BYTES);
  char* mem = aligned_alloc(64, bytes);
  if (!mem)
    die("out of memory");
  memset(mem, 0, bytes);
  ring = (VIP_DESCRIPTOR*)mem;
  credit = ring + RING;
  buffers = (unsigned char*)(mem + (RING + 1) * sizeof(VIP_DESCRIPTOR));
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS ||
      VipRegisterMem(nic, mem, bytes, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot create the VI");
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  if (sender) {
    post(1, credit, buffers + RING * MAX_BYTES, 8, 0);
  } else {
    for (int i = 0; i < RING && i < messages; i++)
      post(1, &ring[i], buffers + i * MAX_BYTES, MAX_BYTES, 0);
  }
  VIP_CONN_HANDLE conn;
  VIP_VI_ATTRIBUTES remote;
  if (sender ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");
  if (sender)
    run_sender();
  else
    run_receiver();
  VipDisconnect(vi);
  free(mem), free(la), free(ra);
  return 0;
}
