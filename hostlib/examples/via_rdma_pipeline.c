/* An RDMA-write pipeline for large messages, in the style of the VIA
 * providers' bandwidth examples: an ordinary program with main(), globals,
 * getopt, gettimeofday timing and its role taken from gethostname(). The
 * host named node1 opens a buffer to RDMA writes and sends node0 its
 * address and memory handle; node0 writes a large message into it as a
 * pipeline of RDMA writes, WINDOW of them in flight, the last carrying
 * immediate data that tells node1 the message is complete (the writes
 * before it are in place by then: a VI keeps its order); node1 checks
 * every byte and answers with a short message, which ends node0's clock.
 * Build: cc via_rdma_pipeline.c -o via_rdma_pipeline $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_rdma_pipeline [-s BYTES] [-c CHUNK] [-w WINDOW] */
#define _DEFAULT_SOURCE /* gethostname, getopt under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <vipl.h>

#define MAX_WINDOW 16

/* Where node1's buffer is, as it tells node0. */
struct where {
  VIP_UINT64 address;
  VIP_MEM_HANDLE handle;
  VIP_UINT32 bytes;
};

static int total = 262144, chunk = 32768, window = 4, writer;
static VIP_NIC_HANDLE nic;
static VIP_PROTECTION_HANDLE ptag;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh, data_mh;
static VIP_DESCRIPTOR* descs; /* MAX_WINDOW + 2, in registered memory */
static char *note, *data;

static void die(const char* what) {
  fprintf(stderr, "via_rdma_pipeline: %s\n", what);
  exit(1);
}

static unsigned char byte_at(int i) { return (unsigned char)(i * 31 + (i >> 11) + 7); }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, VIP_DESCRIPTOR* d, void* buf, VIP_UINT32 len) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = buf ? 1 : 0;
  d->CS.Length = len;
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

static void write_chunk(VIP_DESCRIPTOR* d, const struct where* to, int offset, int last) {
  const int len = total - offset < chunk ? total - offset : chunk;
  memset(d, 0, sizeof *d);
  d->CS.Control = VIP_CONTROL_OP_RDMAWRITE | (last ? VIP_CONTROL_IMMEDIATE : 0);
  d->CS.ImmediateData = (VIP_UINT32)((total + chunk - 1) / chunk);
  d->CS.Length = (VIP_UINT32)len;
  d->CS.SegCount = 2;
  d->DS[0].Remote.Data.AddressBits = to->address + (VIP_UINT64)offset;
  d->DS[0].Remote.Handle = to->handle;
  d->DS[1].Local.Data.Address = data + offset;
  d->DS[1].Local.Handle = data_mh;
  d->DS[1].Local.Length = (VIP_UINT32)len;
  if (VipPostSend(vi, d, mh) != VIP_SUCCESS)
    die("RDMA write refused");
}

static void run_writer(void) {
  for (int i = 0; i < total; i++)
    data[i] = (char)byte_at(i);
  post(1, &descs[MAX_WINDOW + 1], note + 64, 8); /* node1's answer */
  complete(1);                                   /* where to write */
  struct where to;
  memcpy(&to, note, sizeof to);
  if ((int)to.bytes < total)
    die("node1's buffer is too small");
  const int writes = (total + chunk - 1) / chunk;
  double start = seconds();
  int posted = 0, completed = 0;
  while (completed < writes) {
    while (posted < writes && posted - completed < window) {
      write_chunk(&descs[posted % window], &to, posted * chunk, posted == writes - 1);
      posted++;
    }
    complete(0);
    completed++;
  }
  complete(1);
  double elapsed = seconds() - start;
  printf(
      "node0: %d bytes in %d RDMA writes of %d B, %d in flight: delivered in %.1f us, %.1f MB/s\n",
      total, writes, chunk, window, elapsed * 1e6, total / elapsed / 1e6);
}

static void run_target(void) {
  VIP_DESCRIPTOR* signal = &descs[0];
  post(1, signal, NULL, 0); /* consumed by the last write's immediate data */
  struct where* here = (struct where*)note;
  here->address = (VIP_UINT64)(uintptr_t)data;
  here->handle = data_mh;
  here->bytes = (VIP_UINT32)total;
  post(0, &descs[1], here, sizeof *here);
  complete(0);
  VIP_DESCRIPTOR* d = complete(1);
  const VIP_UINT32 writes = (VIP_UINT32)((total + chunk - 1) / chunk);
  if (d->CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_REMOTE_RDMA_WRITE | VIP_STATUS_IMMEDIATE) ||
      d->CS.ImmediateData != writes)
    die("the last write did not bring its immediate data");
  for (int i = 0; i < total; i++)
    if ((unsigned char)data[i] != byte_at(i))
      die("bytes differ");
  strcpy(note + 64, "ok");
  post(0, &descs[2], note + 64, 8);
  complete(0);
  printf("node1: %d bytes written by %u RDMA writes, intact\n", total, (unsigned)writes);
}

int main(int argc, char** argv) {
  char host[64], peer[64];
  int opt;
  while ((opt = getopt(argc, argv, "s:c:w:")) != -1) {
    if (opt == 's')
      total = atoi(optarg);
    else if (opt == 'c')
      chunk = atoi(optarg);
    else if (opt == 'w')
      window = atoi(optarg);
    else
      die("usage: via_rdma_pipeline [-s BYTES] [-c CHUNK] [-w WINDOW]");
  }
  if (total < 1 || chunk < 1 || chunk > 65536 || window < 1 || window > MAX_WINDOW)
    die("BYTES and CHUNK (at most 65536) must be positive, WINDOW 1 to 16");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  writer = strcmp(host, "node0") == 0;
  strcpy(peer, writer ? "node1" : "node0");

  if (VipOpenNic("/dev/clanvi0", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    die("cannot open the NIC");
  VIP_VI_ATTRIBUTES attrs = {VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_TRUE, VIP_FALSE};
  if (VipCreateVi(nic, &attrs, NULL, NULL, &vi) != VIP_SUCCESS)
    die("cannot create an RDMA VI");
  const VIP_ULONG control_bytes = (MAX_WINDOW + 2) * sizeof(VIP_DESCRIPTOR) + 128;
  char* control = aligned_alloc(64, control_bytes);
  data = aligned_alloc(64, ((size_t)total + 63) / 64 * 64);
  if (!control || !data)
    die("out of memory");
  memset(control, 0, control_bytes);
  memset(data, 0, (size_t)total);
  descs = (VIP_DESCRIPTOR*)control;
  note = control + (MAX_WINDOW + 2) * sizeof(VIP_DESCRIPTOR);
  VIP_MEM_ATTRIBUTES plain = {ptag, VIP_FALSE, VIP_FALSE}, open = {ptag, VIP_TRUE, VIP_FALSE};
  if (VipRegisterMem(nic, control, control_bytes, &plain, &mh) != VIP_SUCCESS ||
      VipRegisterMem(nic, data, (VIP_ULONG)total, writer ? &plain : &open, &data_mh) != VIP_SUCCESS)
    die("cannot register memory");

  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  if (writer)
    post(1, &descs[MAX_WINDOW], note, sizeof(struct where));
  VIP_CONN_HANDLE conn;
  VIP_VI_ATTRIBUTES remote;
  if (writer ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");
  if (writer)
    run_writer();
  else
    run_target();
  VipDisconnect(vi);
  free(control), free(data), free(la), free(ra);
  return 0;
}
