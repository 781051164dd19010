/* Connecting the one VI of node0 to the one VI of node1, as the two-node
 * test programs do: node0 asks, node1 waits and accepts. */
#ifndef LANAI_TESTS_CONNECT_PAIR_H
#define LANAI_TESTS_CONNECT_PAIR_H

#include <stdlib.h>
#include <vipl.h>

/* 0 once connected. */
static inline int connect_pair(VIP_NIC_HANDLE nic, VIP_VI_HANDLE vi, VIP_VI_ATTRIBUTES *attrs,
                               int me) {
  VIP_NET_ADDRESS *la = calloc(1, 64), *ra = calloc(1, 64);
  VipNSGetHostByName(nic, me == 0 ? "node0" : "node1", la, 0);
  VipNSGetHostByName(nic, me == 0 ? "node1" : "node0", ra, 0);
  VIP_CONN_HANDLE conn;
  const int failed = me == 0 ? VipConnectRequest(vi, la, ra, VIP_INFINITE, attrs) != VIP_SUCCESS
                             : VipConnectWait(nic, la, VIP_INFINITE, ra, attrs, &conn) != VIP_SUCCESS ||
                                   VipConnectAccept(conn, vi) != VIP_SUCCESS;
  free(la), free(ra);
  return failed;
}

#endif
