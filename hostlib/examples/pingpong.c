/* Ping-pong between node0 and node1 over one VI: node0 sends SIZE bytes,
 * node1 sends them back, ITERS times; node0 checks the bytes and prints the
 * one-way latency after a warm-up round trip. All nodes run in one
 * process, so state lives in locals.
 * Run: ./pingpong --nodes 2 -- [SIZE] [ITERS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

struct channel {
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
  VIP_DESCRIPTOR *sd, *rd;
  char *sbuf, *rbuf;
  int size;
};

static int post(struct channel* c, int recv) {
  VIP_DESCRIPTOR* d = recv ? c->rd : c->sd;
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = (VIP_UINT32)c->size;
  d->DS[0].Local.Data.Address = recv ? c->rbuf : c->sbuf;
  d->DS[0].Local.Handle = c->mh;
  d->DS[0].Local.Length = (VIP_UINT32)c->size;
  return (recv ? VipPostRecv(c->vi, d, c->mh) : VipPostSend(c->vi, d, c->mh)) != VIP_SUCCESS;
}

static int await_completion(struct channel* c, int recv) {
  VIP_DESCRIPTOR* d;
  VIP_RETURN r = recv ? VipRecvWait(c->vi, VIP_INFINITE, &d) : VipSendWait(c->vi, VIP_INFINITE, &d);
  VIP_UINT32 want = VIP_STATUS_DONE | (recv ? VIP_STATUS_OP_RECEIVE : VIP_STATUS_OP_SEND);
  return r != VIP_SUCCESS || d->CS.Status != want || d->CS.Length != (VIP_UINT32)c->size;
}

int via_main(int argc, char** argv) {
  struct channel c = {0};
  int iters = argc > 2 ? atoi(argv[2]) : 100, me = lanai_emu_node();
  c.size = argc > 1 ? atoi(argv[1]) : 1024;
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("nic0", &nic) || VipCreatePtag(nic, &ptag))
    return 2;
  VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  VIP_ULONG bytes = 128 + 2 * (VIP_ULONG)(c.size + 64);
  char* mem = aligned_alloc(64, bytes);
  c.sd = (VIP_DESCRIPTOR*)mem, c.rd = (VIP_DESCRIPTOR*)(mem + 64);
  c.sbuf = mem + 128, c.rbuf = c.sbuf + c.size + 64;
  for (int i = 0; i < c.size; i++)
    c.sbuf[i] = (char)(i * 7 + 1);
  if (VipCreateVi(nic, &attrs, NULL, NULL, &c.vi) ||
      VipRegisterMem(nic, mem, bytes, &mattrs, &c.mh))
    return 2;
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64); /* no discriminator */
  VipNSGetHostByName(nic, me == 0 ? "node0" : "node1", la, 0);
  VipNSGetHostByName(nic, me == 0 ? "node1" : "node0", ra, 0);
  if (post(&c, 1))
    return 3; /* receives may be posted before connecting */
  VIP_CONN_HANDLE conn;
  if (me == 0 ? VipConnectRequest(c.vi, la, ra, VIP_INFINITE, &attrs)
              : VipConnectWait(nic, la, VIP_INFINITE, ra, &attrs, &conn) ||
                    VipConnectAccept(conn, c.vi))
    return 3;
  VIP_UINT64 start = lanai_emu_now_ns(); /* the first round trip warms up: not timed */
  for (int i = 0; i < iters; i++) {
    if (i == 1)
      start = lanai_emu_now_ns();
    if (me == 0 && post(&c, 0))
      return 4;
    if (await_completion(&c, 1))
      return 4;
    if (me == 1)
      memcpy(c.sbuf, c.rbuf, (size_t)c.size);
    else if (memcmp(c.sbuf, c.rbuf, (size_t)c.size) != 0)
      return 5;
    if ((me == 1 && post(&c, 0)) || (i + 1 < iters && post(&c, 1)))
      return 4;
    if (await_completion(&c, 0))
      return 4;
  }
  if (me == 0)
    printf("pingpong: %d bytes, %d round trips intact, one-way %.2f us\n", c.size, iters,
           (double)(lanai_emu_now_ns() - start) / 2000.0 / (iters > 1 ? iters - 1 : 1));
  free(mem), free(la), free(ra);
  return 0;
}
