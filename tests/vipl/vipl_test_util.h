/* Helpers shared by the VIPL test programs: descriptor set-up, addresses
 * and the two sides of a connection. */
#ifndef VIPL_TEST_UTIL_H
#define VIPL_TEST_UTIL_H

#include <stdio.h>
#include <string.h>
#include <vipl.h>

/* One-segment descriptor over [buf, buf+len) in region `handle`. */
static inline void vt_fill(VIP_DESCRIPTOR* d, void* buf, VIP_UINT32 len, VIP_MEM_HANDLE handle) {
  memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = len;
  d->DS[0].Local.Data.Address = buf;
  d->DS[0].Local.Handle = handle;
  d->DS[0].Local.Length = len;
}

/* Slot `i` of a block of equal slots of `slot` bytes: a descriptor at its
 * start, its data 64 bytes in. */
static inline VIP_DESCRIPTOR* vt_slot_descriptor(unsigned char* mem, size_t slot, int i) {
  return (VIP_DESCRIPTOR*)(mem + (size_t)i * slot);
}
static inline unsigned char* vt_slot_data(unsigned char* mem, size_t slot, int i) {
  return mem + (size_t)i * slot + 64;
}

static inline VIP_RETURN vt_post(VIP_VI_HANDLE vi, VIP_DESCRIPTOR* d, void* buf, VIP_UINT32 len,
                                 VIP_MEM_HANDLE handle, int recv) {
  vt_fill(d, buf, len, handle);
  return recv ? VipPostRecv(vi, d, handle) : VipPostSend(vi, d, handle);
}

/* Addresses of node `me` and node `peer`, both with discriminator `disc`.
 * Each buffer must hold 64 bytes. */
static inline int vt_addresses(VIP_NIC_HANDLE nic, int me, int peer, VIP_UINT8 disc, char* local,
                               char* remote) {
  char name[16];
  VIP_NET_ADDRESS *la = (VIP_NET_ADDRESS*)local, *ra = (VIP_NET_ADDRESS*)remote;
  snprintf(name, sizeof name, "node%d", me);
  if (VipNSGetHostByName(nic, name, la, 0) != VIP_SUCCESS)
    return -1;
  snprintf(name, sizeof name, "node%d", peer);
  if (VipNSGetHostByName(nic, name, ra, 0) != VIP_SUCCESS)
    return -1;
  la->DiscriminatorLen = ra->DiscriminatorLen = 1;
  la->HostAddress[la->HostAddressLen] = ra->HostAddress[ra->HostAddressLen] = disc;
  return 0;
}

/* Connects `vi` to node `peer` on discriminator `disc`: the active side
 * requests, the other waits and accepts. */
static inline VIP_RETURN vt_connect(VIP_NIC_HANDLE nic, VIP_VI_HANDLE vi, int me, int peer,
                                    VIP_UINT8 disc, int active) {
  char local[64] = {0}, remote[64] = {0};
  VIP_VI_ATTRIBUTES remote_attrs;
  if (vt_addresses(nic, me, peer, disc, local, remote) != 0)
    return VIP_ERROR_NAMESERVICE;
  if (active)
    return VipConnectRequest(vi, (VIP_NET_ADDRESS*)local, (VIP_NET_ADDRESS*)remote, VIP_INFINITE,
                             &remote_attrs);
  VIP_CONN_HANDLE conn;
  VIP_RETURN r = VipConnectWait(nic, (VIP_NET_ADDRESS*)local, VIP_INFINITE,
                                (VIP_NET_ADDRESS*)remote, &remote_attrs, &conn);
  return r != VIP_SUCCESS ? r : VipConnectAccept(conn, vi);
}

#define VT_CHECK(cond)                                                                             \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "node%d: %s:%d: check failed: %s\n", lanai_emu_node(), __FILE__, __LINE__,   \
              #cond);                                                                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#endif
