/* Credit flow control, in the style of the VIA providers' example programs:
 * an ordinary program with main(), globals, gettimeofday timing and its
 * role taken from gethostname(). The host named node0 streams MESSAGES
 * messages of SIZE bytes, keeping WINDOW sends posted; the host named node1
 * keeps only RING receives posted, works 20 us on each message (usleep)
 * and posts its receive again. VIA has no flow control: node0 would run
 * ahead of node1's receives, and a Reliable Delivery VI breaks on the first
 * message that finds none. Under the emulator's credit flow control
 * (lanai_emu_set_flow_control, on both ends before anything is posted)
 * node0's card holds each send until node1's card has granted a credit for
 * a receive posted, so every message arrives, in order and intact, as fast
 * as node1 takes them.
 * Build: cc via_flow_control.c -o via_flow_control $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_flow_control [-n MESSAGES] [-s SIZE] */
#define _DEFAULT_SOURCE /* gethostname, getopt, usleep under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

#define WINDOW 16
#define RING 2
#define MAX_SIZE 16384

static int messages = 64, size = 4096, sender;
static VIP_NIC_HANDLE nic;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR* descriptors; /* WINDOW in registered memory */
static unsigned char* buffers;      /* WINDOW buffers of MAX_SIZE */

static void die(const char* what) {
  fprintf(stderr, "via_flow_control: %s\n", what);
  exit(1);
}

static unsigned char byte_at(int m, int i) { return (unsigned char)(m * 29 + i * 5 + 3); }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, int slot) {
  VIP_DESCRIPTOR* d = &descriptors[slot];
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = (VIP_UINT32)size;
  d->DS[0].Local.Data.Address = buffers + (size_t)slot * MAX_SIZE;
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = (VIP_UINT32)size;
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
  const double start = seconds();
  for (int m = 0; m < messages; m++) {
    if (m >= WINDOW)
      complete(0); /* the oldest send's descriptor and buffer come back */
    unsigned char* buf = buffers + (size_t)(m % WINDOW) * MAX_SIZE;
    for (int i = 0; i < size; i++)
      buf[i] = byte_at(m, i);
    post(0, m % WINDOW);
  }
  for (int m = messages > WINDOW ? messages - WINDOW : 0; m < messages; m++)
    complete(0);
  printf("node0: %d messages of %d B sent, %d posted at a time (%.1f us)\n", messages, size, WINDOW,
         (seconds() - start) * 1e6);
}

static void run_receiver(void) {
  const double start = seconds();
  for (int m = 0; m < messages; m++) {
    VIP_DESCRIPTOR* d = complete(1);
    const int slot = m % RING;
    if (d != &descriptors[slot] || d->CS.Length != (VIP_UINT32)size)
      die("receives completed out of order");
    const unsigned char* buf = buffers + (size_t)slot * MAX_SIZE;
    for (int i = 0; i < size; i++)
      if (buf[i] != byte_at(m, i))
        die("bytes differ");
    usleep(20); /* the work each message asks of the receiver */
    if (m + RING < messages)
      post(1, slot);
  }
  printf("node1: %d messages of %d B with %d receives posted: intact and in order (%.1f us)\n",
         messages, size, RING, (seconds() - start) * 1e6);
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  while ((opt = getopt(argc, argv, "n:s:")) != -1) {
    if (opt == 'n')
      messages = atoi(optarg);
    else if (opt == 's')
      size = atoi(optarg);
    else
      die("usage: via_flow_control [-n MESSAGES] [-s SIZE]");
  }
  if (messages < 1 || size < 1 || size > MAX_SIZE)
    die("MESSAGES must be positive and SIZE within 1..16384");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  sender = strcmp(host, "node0") == 0;
  strcpy(peer, sender ? "node1" : "node0");

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("/dev/via_eth0", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, MAX_SIZE, NULL, ptag, VIP_FALSE, VIP_FALSE};
  const VIP_ULONG bytes = WINDOW * (sizeof(VIP_DESCRIPTOR) + MAX_SIZE);
  char* mem = aligned_alloc(64, bytes);
  if (!mem)
    die("out of memory");
  descriptors = (VIP_DESCRIPTOR*)mem;
  buffers = (unsigned char*)(mem + WINDOW * sizeof(VIP_DESCRIPTOR));
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS ||
      VipRegisterMem(nic, mem, bytes, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot create the VI");
  /* Before anything is posted, on both ends. */
  if (lanai_emu_set_flow_control(vi, VIP_TRUE) != VIP_SUCCESS) {
    fprintf(stderr, "via_flow_control: %s\n", lanai_emu_last_error());
    return 1;
  }
  if (!sender)
    for (int i = 0; i < RING && i < messages; i++)
      post(1, i);
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
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
