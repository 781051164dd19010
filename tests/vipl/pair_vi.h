/* What the two-node fragmentation test programs share: one reliable VI
 * (64 KB messages) over one registered block of memory on each node, a
 * fragmentation policy read from the command line and set on it, and the
 * connection of node0's VI to node1's (node0 asks, node1 waits and
 * accepts). */
#ifndef LANAI_TESTS_PAIR_VI_H
#define LANAI_TESTS_PAIR_VI_H

#include <stdio.h>
#include <stdlib.h>
#include <vipl.h>

struct pair_vi {
  VIP_NIC_HANDLE nic;
  VIP_VI_ATTRIBUTES attrs;
  VIP_VI_HANDLE vi;
  VIP_MEM_HANDLE mh;
};

/* 0 once the NIC is open, the VI created and MEM (BYTES long) registered. */
static inline int open_pair_vi(unsigned char* mem, size_t bytes, struct pair_vi* p) {
  VIP_PROTECTION_HANDLE ptag;
  if (VipOpenNic("nic0", &p->nic) || VipCreatePtag(p->nic, &ptag))
    return 1;
  const VIP_VI_ATTRIBUTES attrs = {
      VIP_SERVICE_RELIABLE_DELIVERY, 65536, NULL, ptag, VIP_FALSE, VIP_FALSE};
  VIP_MEM_ATTRIBUTES mattrs = {ptag, VIP_FALSE, VIP_FALSE};
  p->attrs = attrs;
  return VipCreateVi(p->nic, &p->attrs, NULL, NULL, &p->vi) != VIP_SUCCESS ||
         VipRegisterMem(p->nic, mem, bytes, &mattrs, &p->mh) != VIP_SUCCESS;
}

/* POLICY BYTES P0 P1 P2 P3, as six arguments. */
static inline LANAI_EMU_FRAGMENTATION fragmentation_from_args(char** args) {
  LANAI_EMU_FRAGMENTATION how = {(uint32_t)atoi(args[0]),
                                 (uint32_t)atoi(args[1]),
                                 {(uint32_t)atoi(args[2]), (uint32_t)atoi(args[3]),
                                  (uint32_t)atoi(args[4]), (uint32_t)atoi(args[5])}};
  return how;
}

/* 0 once HOW is the VI's policy; otherwise prints the reason. */
static inline int set_fragmentation(const struct pair_vi* p, const LANAI_EMU_FRAGMENTATION* how) {
  if (lanai_emu_set_fragmentation(p->vi, how) == VIP_SUCCESS)
    return 0;
  fprintf(stderr, "%s\n", lanai_emu_last_error());
  return 1;
}

/* 0 once connected. */
static inline int connect_pair(struct pair_vi* p, int me) {
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(p->nic, me == 0 ? "node0" : "node1", la, 0);
  VipNSGetHostByName(p->nic, me == 0 ? "node1" : "node0", ra, 0);
  VIP_CONN_HANDLE conn;
  const int failed =
      me == 0 ? VipConnectRequest(p->vi, la, ra, VIP_INFINITE, &p->attrs) != VIP_SUCCESS
              : VipConnectWait(p->nic, la, VIP_INFINITE, ra, &p->attrs, &conn) != VIP_SUCCESS ||
                    VipConnectAccept(conn, p->vi) != VIP_SUCCESS;
  free(la), free(ra);
  return failed;
}

#endif
