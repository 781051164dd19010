/* QoS admission control from the launcher: node0 asks for VIs of 50, 40 and
 * 30 MB/s on a 160 MB/s link and prints, for each, "accepted" or the
 * reason it was refused. Run with and without --admission FRACTION. */
#include <stdio.h>
#include <vipl.h>

#include "vipl_test_util.h"

int via_main(int argc, char** argv) {
  (void)argc, (void)argv;
  if (lanai_emu_node() != 0)
    return 0;
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  VT_CHECK(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
  VT_CHECK(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
  const VIP_ULONG rates[] = {50000000, 40000000, 30000000};
  for (int i = 0; i < 3; i++) {
    VIP_QOS_REQUEST qos = {rates[i]};
    VIP_VI_ATTRIBUTES attrs = {
        VIP_SERVICE_RELIABLE_DELIVERY, 4096, &qos, ptag, VIP_FALSE, VIP_FALSE};
    VIP_VI_HANDLE vi;
    VIP_RETURN r = VipCreateVi(nic, &attrs, NULL, NULL, &vi);
    if (r == VIP_SUCCESS)
      printf("node0: %lu B/s accepted\n", (unsigned long)rates[i]);
    else if (r == VIP_INVALID_QOS)
      printf("node0: %lu B/s refused: %s\n", (unsigned long)rates[i], lanai_emu_last_error());
    else
      return 2;
  }
  return 0;
}
