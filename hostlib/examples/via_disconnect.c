/* Disconnecting with data in flight, in the style of the VIA providers'
 * example programs: an ordinary program with main(), globals, gettimeofday
 * timing and its role taken from gethostname(). The host named node0 posts
 * MESSAGES sends and calls VipDisconnect at once, its data still on the
 * way; the host named node1 receives, and like many M-VIA programs ends
 * from its error callback when the connection is lost. VIA orders the
 * disconnection after what was posted: VipDisconnect returns with every
 * send complete, and node1 loses none of the messages, which it checks
 * byte for byte before VIP_ERROR_CONN_LOST comes.
 * Build: cc via_disconnect.c -o via_disconnect $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_disconnect [-n MESSAGES] [-s BYTES] */
#define _DEFAULT_SOURCE /* gethostname, getopt under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

#define MAX_MESSAGES 32

static int messages = 16, bytes = 8192, sender, received;
static double started;
static VIP_NIC_HANDLE nic;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR* descs;
static unsigned char* buffers;

static void die(const char* what) {
  fprintf(stderr, "via_disconnect: %s\n", what);
  exit(1);
}

static unsigned char byte_at(int m, int i) { return (unsigned char)(m * 23 + i * 7 + (i >> 10)); }
static unsigned char* buffer(int m) { return buffers + (size_t)m * (size_t)bytes; }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, int m) {
  VIP_DESCRIPTOR* d = &descs[m];
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = (VIP_UINT32)bytes;
  d->DS[0].Local.Data.Address = buffer(m);
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = (VIP_UINT32)bytes;
  if ((recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) != VIP_SUCCESS)
    die("post failed");
}

/* node1: the peer has gone; every message it sent should be here. */
static void on_error(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* error) {
  (void)context;
  if (error->ErrorCode != VIP_ERROR_CONN_LOST || error->ViHandle != vi)
    die("unexpected error");
  if (received != messages)
    die("messages were lost");
  printf("node1: connection lost after %d messages of %d bytes, all intact\n", received, bytes);
  exit(0);
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  while ((opt = getopt(argc, argv, "n:s:")) != -1) {
    if (opt == 'n')
      messages = atoi(optarg);
    else if (opt == 's')
      bytes = atoi(optarg);
    else
      die("usage: via_disconnect [-n MESSAGES] [-s BYTES]");
  }
  if (messages < 1 || messages > MAX_MESSAGES || bytes < 1 || bytes > 65536)
    die("MESSAGES must be 1 to 32, BYTES 1 to 65536");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  sender = strcmp(host, "node0") == 0;
  strcpy(peer, sender ? "node1" : "node0");

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("/dev/via_eth0", &nic) != VIP_SUCCESS ||
      VipCreatePtag(nic, &ptag) != VIP_SUCCESS ||
      (!sender && VipErrorCallback(nic, NULL, on_error) != VIP_SUCCESS))
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_FALSE, VIP_FALSE};
  const size_t total = MAX_MESSAGES * sizeof(VIP_DESCRIPTOR) + (size_t)messages * (size_t)bytes;
  unsigned char* mem = aligned_alloc(64, (total + 63) / 64 * 64);
  if (!mem)
    die("out of memory");
  memset(mem, 0, total);
  descs = (VIP_DESCRIPTOR*)mem;
  buffers = mem + MAX_MESSAGES * sizeof(VIP_DESCRIPTOR);
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS ||
      VipRegisterMem(nic, mem, total, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot create the VI");
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  if (!sender)
    for (int m = 0; m < messages; m++)
      post(1, m);
  VIP_CONN_HANDLE conn;
  VIP_VI_ATTRIBUTES remote;
  if (sender ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");
  free(la), free(ra);

  if (sender) {
    for (int m = 0; m < messages; m++) {
      for (int i = 0; i < bytes; i++)
        buffer(m)[i] = byte_at(m, i);
      post(0, m);
    }
    started = seconds();
    if (VipDisconnect(vi) != VIP_SUCCESS)
      die("VipDisconnect failed");
    const double took = seconds() - started;
    for (int m = 0; m < messages; m++)
      if (descs[m].CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_SEND))
        die("a send did not complete before VipDisconnect returned");
    printf("node0: %d sends posted, then VipDisconnect: it returned after %.1f us, every send "
           "complete\n",
           messages, took * 1e6);
    return 0;
  }
  /* node1 takes messages until the connection goes; the error callback
   * ends the program. */
  for (;;) {
    VIP_DESCRIPTOR* d;
    if (VipRecvWait(vi, VIP_INFINITE, &d) != VIP_SUCCESS)
      die("VipRecvWait failed");
    if (d->CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE) ||
        d->CS.Length != (VIP_UINT32)bytes || d != &descs[received])
      die("a message did not arrive whole");
    for (int i = 0; i < bytes; i++)
      if (buffer(received)[i] != byte_at(received, i))
        die("bytes differ");
    received++;
  }
}
