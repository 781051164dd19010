/* What Reliable Reception promises a sender, in the style of the VIA
 * providers' example programs: an ordinary program with main(), globals,
 * clock_gettime timing and its role taken from gethostname(). The host
 * named node0 sends MESSAGES messages on a Reliable Delivery VI and as many
 * on a Reliable Reception VI and notes when each send completes; the host
 * named node1 watches its receive buffers, notes when each message's bytes
 * appear there, and sends its times back (the Reliable Delivery sends go
 * one at a time, the Reliable Reception ones are posted at once). The
 * clocks are the cluster's one virtual clock, so the times compare: a
 * Reliable Delivery send completes once its data has left node0's card,
 * before it is in node1's memory; a Reliable Reception send only once it
 * is there, and still in posting order. Last, a Reliable
 * Reception message too long for its receive: the sender learns of it
 * (VIP_STATUS_REMOTE_DESC_ERROR), which Reliable Delivery cannot tell it.
 * Build: cc via_reliable.c -o via_reliable $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_reliable [-n MESSAGES] [-s BYTES] */
#define _DEFAULT_SOURCE /* gethostname, getopt under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vipl.h>

#define MAX_MESSAGES 16

static int messages = 6, bytes = 4096, sender;
static VIP_NIC_HANDLE nic;
static VIP_PROTECTION_HANDLE ptag;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR* descs; /* MAX_MESSAGES + 2 per VI */
static char* buffers;         /* MAX_MESSAGES + 1 of `bytes`, then the times */
static uint64_t* times;

static void die(const char* what) {
  fprintf(stderr, "via_reliable: %s\n", what);
  exit(1);
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static char* buffer(int i) { return buffers + (size_t)i * (size_t)bytes; }
static char byte_at(int m, int i) { return (char)(m * 37 + i * 11 + 1); }
static void fill(int m) {
  for (int i = 0; i < bytes; i++)
    buffer(m)[i] = byte_at(m, i);
}
static int holds(int m) {
  for (int i = 0; i < bytes; i++)
    if (buffer(m)[i] != byte_at(m, i))
      return 0;
  return 1;
}

static void post(VIP_VI_HANDLE vi, int recv, VIP_DESCRIPTOR* d, void* buf, VIP_UINT32 len) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = len;
  d->DS[0].Local.Data.Address = buf;
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = len;
  if ((recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) != VIP_SUCCESS)
    die("post failed");
}

static VIP_DESCRIPTOR* complete(VIP_VI_HANDLE vi, int recv) {
  VIP_DESCRIPTOR* d;
  if ((recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d)) != VIP_SUCCESS)
    die("wait failed");
  return d;
}

static VIP_VI_HANDLE connect_vi(VIP_RELIABILITY_LEVEL level, VIP_UINT8 discriminator, int posts) {
  char host[64], peer[64];
  VIP_VI_HANDLE vi;
  VIP_VI_ATTRIBUTES attrs = {level, 65536, NULL, ptag, VIP_FALSE, VIP_FALSE}, remote;
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS)
    die("cannot create a VI");
  gethostname(host, sizeof host);
  strcpy(peer, sender ? "node1" : "node0");
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  la->DiscriminatorLen = ra->DiscriminatorLen = 1;
  la->HostAddress[la->HostAddressLen] = ra->HostAddress[ra->HostAddressLen] = discriminator;
  /* node1's receives (the last one short), node0's for the times */
  VIP_DESCRIPTOR* d = descs + (discriminator - 1) * (MAX_MESSAGES + 2);
  for (int i = 0; i < posts; i++)
    post(vi, 1, d + i, sender ? (void*)times : buffer(i),
         sender ? (VIP_UINT32)(sizeof *times * MAX_MESSAGES)
                : (VIP_UINT32)(i == messages ? bytes / 2 : bytes));
  VIP_CONN_HANDLE conn;
  if (sender ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");
  free(la), free(ra);
  return vi;
}

/* node0: MESSAGES sends, one after the other's completion or (`at_once`)
 * all posted at once, which must then complete in posting order; how many
 * completed after their data was in node1's memory. */
static int send_round(VIP_RELIABILITY_LEVEL level, VIP_UINT8 discriminator, int at_once,
                      int too_long) {
  VIP_VI_HANDLE vi = connect_vi(level, discriminator, 1);
  VIP_DESCRIPTOR* d = descs + (discriminator - 1) * (MAX_MESSAGES + 2) + 1;
  uint64_t done[MAX_MESSAGES];
  for (int i = 0; i < messages; i++)
    fill(i);
  for (int i = 0; i < messages && at_once; i++)
    post(vi, 0, d + i, buffer(i), (VIP_UINT32)bytes);
  for (int i = 0; i < messages; i++) {
    if (!at_once)
      post(vi, 0, d + i, buffer(i), (VIP_UINT32)bytes);
    if (complete(vi, 0) != d + i || d[i].CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_SEND))
      die("a send failed");
    done[i] = now_ns();
    /* those completed so far are the first ones posted */
    int first = i + 1;
    while (first < messages && at_once && d[first].CS.Status != 0)
      first++;
    for (int later = first; later < messages && at_once; later++)
      if (d[later].CS.Status != 0)
        die("sends completed out of posting order");
  }
  complete(vi, 1); /* node1's times */
  int after = 0;
  for (int i = 0; i < messages; i++)
    after += done[i] > times[i];
  if (too_long) {
    post(vi, 0, d + messages, buffer(0), (VIP_UINT32)bytes);
    if (complete(vi, 0)->CS.Status !=
        (VIP_STATUS_DONE | VIP_STATUS_OP_SEND | VIP_STATUS_REMOTE_DESC_ERROR))
      die("the too long message was not reported");
  }
  VipDisconnect(vi);
  return after;
}

/* node1: MESSAGES receives; when each one's bytes appeared in its buffer
 * (the card writes host memory as the program runs: a loop that reads the
 * clock sees them land) goes back to node0. */
static void receive_round(VIP_RELIABILITY_LEVEL level, VIP_UINT8 discriminator, int too_long) {
  memset(buffers, 0, (size_t)(MAX_MESSAGES + 1) * (size_t)bytes);
  VIP_VI_HANDLE vi = connect_vi(level, discriminator, messages + too_long);
  for (int i = 0; i < messages; i++) {
    do
      times[i] = now_ns();
    while (!holds(i));
    VIP_DESCRIPTOR* d = complete(vi, 1);
    if (d->CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE) ||
        d->CS.Length != (VIP_UINT32)bytes)
      die("a message did not arrive whole");
  }
  VIP_DESCRIPTOR* reply = descs + (discriminator - 1) * (MAX_MESSAGES + 2) + MAX_MESSAGES + 1;
  post(vi, 0, reply, times, (VIP_UINT32)(sizeof *times * MAX_MESSAGES));
  complete(vi, 0);
  if (too_long && complete(vi, 1)->CS.Status !=
                      (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE | VIP_STATUS_LENGTH_ERROR))
    die("the too long message was taken");
  /* node0 disconnects first: the connection then breaks here */
  VIP_VI_STATE state = VIP_STATE_CONNECTED;
  VIP_VI_ATTRIBUTES attributes;
  VIP_BOOLEAN send_empty, recv_empty;
  while (state == VIP_STATE_CONNECTED) {
    usleep(10);
    VipQueryVi(vi, &state, &attributes, &send_empty, &recv_empty);
  }
  VipDisconnect(vi);
}

static void ignore_errors(VIP_PVOID context, VIP_ERROR_DESCRIPTOR* error) {
  (void)context, (void)error; /* the connection breaking when node0 leaves */
}

int main(int argc, char** argv) {
  char host[64];
  int opt;
  while ((opt = getopt(argc, argv, "n:s:")) != -1) {
    if (opt == 'n')
      messages = atoi(optarg);
    else if (opt == 's')
      bytes = atoi(optarg);
    else
      die("usage: via_reliable [-n MESSAGES] [-s BYTES]");
  }
  if (messages < 1 || messages > MAX_MESSAGES || bytes < 2 || bytes > 65536)
    die("MESSAGES must be 1 to 16, BYTES 2 to 65536");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  sender = strcmp(host, "node0") == 0;
  if (VipOpenNic("/dev/via_lo", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS ||
      VipErrorCallback(nic, NULL, ignore_errors) != VIP_SUCCESS)
    die("cannot open the NIC");
  const size_t control = 2 * (MAX_MESSAGES + 2) * sizeof(VIP_DESCRIPTOR);
  const size_t total = control + (MAX_MESSAGES + 1) * (size_t)bytes + MAX_MESSAGES * sizeof *times;
  char* mem = aligned_alloc(64, (total + 63) / 64 * 64);
  if (!mem)
    die("out of memory");
  memset(mem, 0, total);
  descs = (VIP_DESCRIPTOR*)mem;
  buffers = mem + control;
  times = (uint64_t*)(buffers + (MAX_MESSAGES + 1) * (size_t)bytes);
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipRegisterMem(nic, mem, total, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot register memory");

  if (sender) {
    const int delivery = send_round(VIP_SERVICE_RELIABLE_DELIVERY, 1, 0, 0);
    const int reception = send_round(VIP_SERVICE_RELIABLE_RECEPTION, 2, 1, 1);
    printf("node0: reliable delivery: %d of %d sends completed after their data was in node1's "
           "memory\n",
           delivery, messages);
    printf("node0: reliable reception: %d of %d sends completed after their data was in node1's "
           "memory, in posting order\n",
           reception, messages);
    printf("node0: reliable reception: a message too long for its receive completed with "
           "VIP_STATUS_REMOTE_DESC_ERROR\n");
  } else {
    receive_round(VIP_SERVICE_RELIABLE_DELIVERY, 1, 0);
    receive_round(VIP_SERVICE_RELIABLE_RECEPTION, 2, 1);
    printf("node1: %d messages on each VI arrived whole; the too long one was refused\n", messages);
  }
  free(mem);
  return 0;
}
