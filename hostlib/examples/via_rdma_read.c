/* RDMA read, in the style of the VIA providers' example programs: an
 * ordinary program with main(), globals, getopt, gettimeofday timing and
 * its role taken from gethostname(). The host named node1 opens a buffer
 * to RDMA reads and tells node0 its address and memory handle; node0 reads
 * it in CHUNK pieces, WINDOW of them in flight, checks every byte and tells
 * node1 it is done. RDMA read is optional in VIA: a NIC whose
 * VipQueryNic says it offers none (SVIA's) gets a clean report instead.
 * Build: cc via_rdma_read.c -o via_rdma_read $(pkg-config --cflags --libs lanai-emu-vipl)
 * Run:   lanai-emu launch --nodes 2 -- ./via_rdma_read [-s BYTES] [-c CHUNK] [-w WINDOW] */
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

static int total = 131072, chunk = 16384, window = 4, reader;
static VIP_NIC_HANDLE nic;
static VIP_PROTECTION_HANDLE ptag;
static VIP_VI_HANDLE vi;
static VIP_MEM_HANDLE mh, data_mh;
static VIP_DESCRIPTOR* descs;
static char *note, *data;

static void die(const char* what) {
  fprintf(stderr, "via_rdma_read: %s\n", what);
  exit(1);
}

static unsigned char byte_at(int i) { return (unsigned char)(i * 29 + (i >> 12) + 11); }

static double seconds(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

static void post(int recv, VIP_DESCRIPTOR* d, void* buf, VIP_UINT32 len) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
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

static void read_chunk(VIP_DESCRIPTOR* d, const struct where* from, int offset) {
  const int len = total - offset < chunk ? total - offset : chunk;
  memset(d, 0, sizeof *d);
  d->CS.Control = VIP_CONTROL_OP_RDMAREAD;
  d->CS.Length = (VIP_UINT32)len;
  d->CS.SegCount = 2;
  d->DS[0].Remote.Data.AddressBits = from->address + (VIP_UINT64)offset;
  d->DS[0].Remote.Handle = from->handle;
  d->DS[1].Local.Data.Address = data + offset;
  d->DS[1].Local.Handle = data_mh;
  d->DS[1].Local.Length = (VIP_UINT32)len;
  if (VipPostSend(vi, d, mh) != VIP_SUCCESS)
    die("RDMA read refused");
}

static void run_reader(void) {
  complete(1); /* where to read */
  struct where from;
  memcpy(&from, note, sizeof from);
  if ((int)from.bytes < total)
    die("node1's buffer is too small");
  const int reads = (total + chunk - 1) / chunk;
  double start = seconds();
  int posted = 0, completed = 0;
  while (completed < reads) {
    while (posted < reads && posted - completed < window) {
      read_chunk(&descs[posted % window], &from, posted * chunk);
      posted++;
    }
    if (complete(0)->CS.Status != (VIP_STATUS_DONE | VIP_STATUS_OP_RDMA_READ))
      die("an RDMA read did not complete as one");
    completed++;
  }
  double elapsed = seconds() - start;
  for (int i = 0; i < total; i++)
    if ((unsigned char)data[i] != byte_at(i))
      die("bytes differ");
  post(0, &descs[MAX_WINDOW + 1], note + 64, 8);
  complete(0);
  printf("node0: %d bytes in %d RDMA reads of %d B, %d in flight: intact, %.1f us, %.1f MB/s\n",
         total, reads, chunk, window, elapsed * 1e6, total / elapsed / 1e6);
}

static void run_target(void) {
  for (int i = 0; i < total; i++)
    data[i] = (char)byte_at(i);
  post(1, &descs[0], note + 64, 8); /* node0's word that it is done */
  struct where* here = (struct where*)note;
  here->address = (VIP_UINT64)(uintptr_t)data;
  here->handle = data_mh;
  here->bytes = (VIP_UINT32)total;
  post(0, &descs[1], here, sizeof *here);
  complete(0);
  complete(1);
  printf("node1: %d bytes read by node0 without a descriptor of node1's\n", total);
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
      die("usage: via_rdma_read [-s BYTES] [-c CHUNK] [-w WINDOW]");
  }
  if (total < 1 || chunk < 1 || chunk > 65536 || window < 1 || window > MAX_WINDOW)
    die("BYTES and CHUNK (at most 65536) must be positive, WINDOW 1 to 16");
  if (gethostname(host, sizeof host) != 0)
    die("gethostname failed");
  reader = strcmp(host, "node0") == 0;
  strcpy(peer, reader ? "node1" : "node0");

  VIP_NIC_ATTRIBUTES nic_attrs;
  if (VipOpenNic("/dev/clanvi0", &nic) != VIP_SUCCESS ||
      VipQueryNic(nic, &nic_attrs) != VIP_SUCCESS)
    die("cannot open the NIC");
  if (!(nic_attrs.RDMAReadSupport & VIP_SERVICE_RELIABLE_DELIVERY)) {
    printf("%s: this NIC offers no RDMA read (VipQueryNic: RDMAReadSupport 0x%lx)\n", host,
           (unsigned long)nic_attrs.RDMAReadSupport);
    return 0;
  }
  if (VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    die("cannot create a tag");
  VIP_VI_ATTRIBUTES attrs = {VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_FALSE, VIP_TRUE};
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
  VIP_MEM_ATTRIBUTES plain = {ptag, VIP_FALSE, VIP_FALSE}, open = {ptag, VIP_FALSE, VIP_TRUE};
  if (VipRegisterMem(nic, control, control_bytes, &plain, &mh) != VIP_SUCCESS ||
      VipRegisterMem(nic, data, (VIP_ULONG)total, reader ? &plain : &open, &data_mh) != VIP_SUCCESS)
    die("cannot register memory");

  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, host, la, 0);
  VipNSGetHostByName(nic, peer, ra, 0);
  if (reader)
    post(1, &descs[MAX_WINDOW], note, sizeof(struct where));
  VIP_CONN_HANDLE conn;
  VIP_VI_ATTRIBUTES remote;
  if (reader ? VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote) != VIP_SUCCESS
             : VipConnectWait(nic, la, VIP_INFINITE, ra, &remote, &conn) != VIP_SUCCESS ||
                   VipConnectAccept(conn, vi) != VIP_SUCCESS)
    die("cannot connect");
  if (reader)
    run_reader();
  else
    run_target();
  VipDisconnect(vi);
  free(control), free(data), free(la), free(ra);
  return 0;
}
