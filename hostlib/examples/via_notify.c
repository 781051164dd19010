/* Completion handlers, in the style of the VIA providers' example
 * programs: an ordinary program with main(), globals, gettimeofday timing
 * and its role taken from gethostname(), whose transfers are all driven by
 * VipRecvNotify and VipCQNotify handlers that re-arm themselves; main only
 * sleeps until they are done (the library runs handlers at the end of a
 * sleep). The host named node1 keeps BATCH receives posted: its receive
 * handler checks each message, reposts its descriptor and, after each
 * batch, sends a credit. The host named node0 sends batches of BATCH
 * messages: its send completion queue's handler counts them, and its
 * receive handler starts the next batch when a credit comes.
 * Build: cc via_notify.c -o via_notify $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_notify [-b BATCHES] */
#define _DEFAULT_SOURCE /* gethostname, getopt, usleep under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

#define BATCH 8
#define BYTES 512

static int batches = 4, sender, failed;
static int sent, completed, received, credits, credit_pending;
static VIP_NIC_HANDLE nic;
static VIP_VI_HANDLE vi;
static VIP_CQ_HANDLE send_cq;
static VIP_MEM_HANDLE mh;
static VIP_DESCRIPTOR* descs; /* BATCH for data, one for credits */
static unsigned char* buffers;

static void die(const char* what) {
  fprintf(stderr, "via_notify: %s\n", what);
  exit(1);
}

static unsigned char byte_at(int m, int i) { return (unsigned char)(m * 11 + i * 5 + 3); }
static unsigned char* buffer(int i) { return buffers + i * BYTES; }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, int i, VIP_UINT32 len) {
  VIP_DESCRIPTOR* d = &descs[i];
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = len;
  d->DS[0].Local.Data.Address = buffer(i);
  d->DS[0].Local.Handle = mh;
  d->DS[0].Local.Length = len;
  if ((recv ? VipPostRecv(vi, d, mh) : VipPostSend(vi, d, mh)) != VIP_SUCCESS)
    die("post failed");
}

static void send_batch(void) {
  for (int i = 0; i < BATCH; i++, sent++) {
    for (int b = 0; b < BYTES; b++)
      buffer(i)[b] = byte_at(sent, b);
    post(0, i, BYTES);
  }
}

static void on_credit(VIP_PVOID context, VIP_NIC_HANDLE n, VIP_DESCRIPTOR* d);

/* node0: the next batch goes once a credit has come and the last batch's
 * descriptors are back. Handlers do not run inside one another, so each
 * handler that may be the last of the two to run looks. */
static void next_batch(void) {
  if (!credit_pending || completed < sent || sent >= batches * BATCH)
    return;
  credit_pending = 0;
  post(1, BATCH, 8);
  VipRecvNotify(vi, NULL, on_credit);
  send_batch();
}

/* node0: a send completed (through the send CQ). */
static void on_send_entry(VIP_PVOID context, VIP_NIC_HANDLE n, VIP_VI_HANDLE from,
                          VIP_BOOLEAN recv_queue) {
  (void)context, (void)n;
  VIP_DESCRIPTOR* d;
  if (from != vi || recv_queue || VipSendDone(vi, &d) != VIP_SUCCESS ||
      (d->CS.Status & VIP_STATUS_ERROR_MASK))
    failed = 1;
  if (++completed < batches * BATCH)
    VipCQNotify(send_cq, NULL, on_send_entry);
  next_batch();
}

/* node0: a credit came. */
static void on_credit(VIP_PVOID context, VIP_NIC_HANDLE n, VIP_DESCRIPTOR* d) {
  (void)context, (void)n, (void)d;
  credits++;
  credit_pending = 1;
  next_batch();
}

/* node1: a message came: check it, repost, and after a batch, a credit. */
static void on_message(VIP_PVOID context, VIP_NIC_HANDLE n, VIP_DESCRIPTOR* d) {
  (void)context, (void)n;
  const int i = (int)(d - descs);
  if ((d->CS.Status & VIP_STATUS_ERROR_MASK) || d->CS.Length != BYTES || i != received % BATCH)
    failed = 1;
  for (int b = 0; b < BYTES; b++)
    if (buffer(i)[b] != byte_at(received, b))
      failed = 1;
  received++;
  if (received + BATCH <= batches * BATCH)
    post(1, i, BYTES);
  if (received < batches * BATCH)
    VipRecvNotify(vi, NULL, on_message);
  if (received % BATCH == 0 && received < batches * BATCH) {
    VIP_DESCRIPTOR* c;
    post(0, BATCH, 8);
    if (VipSendWait(vi, VIP_INFINITE, &c) != VIP_SUCCESS)
      failed = 1;
    credits++;
  }
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  while ((opt = getopt(argc, argv, "b:")) != -1) {
    if (opt == 'b')
      batches = atoi(optarg);
    else
      die("usage: via_notify [-b BATCHES]");
  }
  if (batches < 1)
    die("BATCHES must be positive");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  sender = strcmp(host, "node0") == 0;
  strcpy(peer, sender ? "node1" : "node0");

  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("/dev/via_eth0", &nic) != VIP_SUCCESS ||
      VipCreatePtag(nic, &ptag) != VIP_SUCCESS ||
      VipCreateCQ(nic, BATCH * 2, &send_cq) != VIP_SUCCESS)
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, BYTES, NULL, ptag, VIP_FALSE, VIP_FALSE};
  const VIP_ULONG bytes = (BATCH + 1) * (sizeof(VIP_DESCRIPTOR) + BYTES);
  char* mem = aligned_alloc(64, bytes);
  if (!mem)
    die("out of memory");
  memset(mem, 0, bytes);
  descs = (VIP_DESCRIPTOR*)mem;
  buffers = (unsigned char*)(mem + (BATCH + 1) * sizeof(VIP_DESCRIPTOR));
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  if (VipCreateVi(nic, &attrs, sender ? send_cq : NULL, NULL, &vi) != VIP_SUCCESS ||
      VipRegisterMem(nic, mem, bytes, &mattrs, &mh) != VIP_SUCCESS)
    die("cannot create the VI");
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  if (sender) {
    post(1, BATCH, 8);
    VipRecvNotify(vi, NULL, on_credit);
    VipCQNotify(send_cq, NULL, on_send_entry);
  } else {
    for (int i = 0; i < BATCH; i++)
      post(1, i, BYTES);
    VipRecvNotify(vi, NULL, on_message);
  }
  VIP_CONN_HANDLE conn;
  VIP_VI_ATTRIBUTES remote;
  if (sender ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");

  const double start = seconds();
  if (sender)
    send_batch();
  /* Everything else happens in the handlers. */
  while (!failed && (sender ? completed : received) < batches * BATCH)
    usleep(100);
  if (failed)
    die(sender ? "a send failed" : "a message was not as sent");
  if (sender)
    printf("node0: %d sends completed through CQ handlers, %d batches started by credit "
           "handlers (%.1f us)\n",
           completed, credits + 1, (seconds() - start) * 1e6);
  else
    printf("node1: %d messages checked and reposted by receive handlers, %d credits sent\n",
           received, credits);
  VipDisconnect(vi);
  free(mem), free(la), free(ra);
  return 0;
}
