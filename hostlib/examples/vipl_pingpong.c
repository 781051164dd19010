/* Ping-pong in the style of the VIA providers' example programs: an
 * ordinary program with main(), globals, getopt, gettimeofday timing and
 * its role taken from gethostname(). The host named node0 sends SIZE bytes
 * and checks them when they come back; node1 returns them.
 * Build: cc vipl_pingpong.c -o vipl_pingpong $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./vipl_pingpong [-s SIZE] [-n ITERS] */
#define _DEFAULT_SOURCE /* gethostname, getopt, usleep under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

/* Program state in globals, as such programs keep it. */
static int size = 1024, iters = 100, server;
static int started; /* 1 in every node's own copy of the program */
static VIP_NIC_HANDLE nic;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR *sd, *rd;
static char *sbuf, *rbuf;

static void die(const char* what) {
  fprintf(stderr, "vipl_pingpong: %s\n", what);
  exit(1);
}

static void post(int recv) {
  VIP_DESCRIPTOR* d = recv ? rd : sd;
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = (VIP_UINT32)size;
  d->DS[0].Local.Data.Address = recv ? rbuf : sbuf;
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = (VIP_UINT32)size;
  if ((recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) != VIP_SUCCESS)
    die("post failed");
}

static void complete(int recv) {
  VIP_DESCRIPTOR* d;
  VIP_RETURN r = recv ? VipRecvWait(vi, VIP_INFINITE, &d) : VipSendWait(vi, VIP_INFINITE, &d);
  if (r != VIP_SUCCESS || !(d->CS.Status & VIP_STATUS_DONE) || d->CS.Length != (VIP_UINT32)size)
    die("transfer failed");
}

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  if (++started != 1)
    die("globals are shared with another node");
  while ((opt = getopt(argc, argv, "s:n:")) != -1) {
    if (opt == 's')
      size = atoi(optarg);
    else if (opt == 'n')
      iters = atoi(optarg);
    else
      die("usage: vipl_pingpong [-s SIZE] [-n ITERS]");
  }
  if (size < 1 || iters < 1)
    die("SIZE and ITERS must be positive");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  server = strcmp(host, "node0") != 0;
  strcpy(peer, server ? "node0" : "node1");

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("/dev/via_eth0", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  VIP_ULONG bytes = 128 + 2 * (VIP_ULONG)(size + 64);
  char* mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
  sd = (VIP_DESCRIPTOR*)mem, rd = (VIP_DESCRIPTOR*)(mem + 64);
  sbuf = mem + 128, rbuf = sbuf + size + 64;
  for (int i = 0; i < size; i++)
    sbuf[i] = (char)(i * 7 + 1);
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS ||
      VipRegisterMem(nic, mem, bytes, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot create the VI");
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  post(1);
  VIP_CONN_HANDLE conn;
  if (server ? VipConnectWait(nic, la, VIP_INFINITE, ra, &attrs, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS
             : VipConnectRequest(vi, la, ra, VIP_INFINITE, &attrs) != VIP_SUCCESS)
    die("cannot connect");

  double start = seconds();
  for (int i = 0; i < iters; i++) {
    if (i == 1)
      start = seconds(); /* the first round trip warms up */
    if (!server)
      post(0);
    complete(1);
    if (server)
      memcpy(sbuf, rbuf, (size_t)size);
    else if (memcmp(sbuf, rbuf, (size_t)size) != 0)
      die("bytes differ");
    if (server)
      post(0);
    if (i + 1 < iters)
      post(1);
    complete(0);
  }
  if (!server)
    printf("%s: %d bytes, %d round trips intact, one-way %.2f us\n", host, size, iters,
           (seconds() - start) * 1e6 / 2 / (iters > 1 ? iters - 1 : 1));
  else
    printf("%s: returned %d messages\n", host, iters);
  VipDisconnect(vi);
  free(mem), free(la), free(ra);
  return 0;
}
