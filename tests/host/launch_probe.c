/* A host program in plain C for the launcher tests: it checks that vipl.h
 * compiles as C and links into a C program, and behaves as its first
 * argument says: print its arguments, fail on one node, block forever,
 * report the seed, make a few VIPL calls, or share a handle through a
 * global variable. */
#include <stdio.h>
#include <string.h>

#include "vipl.h"

static int use_vipl(void) {
  VIP_NIC_HANDLE nic = NULL;
  VIP_NIC_ATTRIBUTES attributes;
  VIP_PROTECTION_HANDLE ptag = NULL;
  if (VipOpenNic("nic0", &nic) != VIP_SUCCESS)
    return 10;
  if (VipQueryNic(nic, &attributes) != VIP_SUCCESS)
    return 11;
  if (VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    return 12;
  if (VipOpenNic("eth0", &nic) != VIP_INVALID_PARAMETER)
    return 13;
  printf("node%d: %s max vi %lu at %llu ns\n", lanai_emu_node(), attributes.Name, attributes.MaxVI,
         (unsigned long long)lanai_emu_now_ns());
  return 0;
}

/* Per-node state in a global, as if each node were its own process: node1
 * ends up using node0's NIC handle. */
static VIP_NIC_HANDLE shared_nic;
static int share_a_global(void) {
  VIP_NIC_ATTRIBUTES attributes;
  if (lanai_emu_node() == 0)
    return VipOpenNic("nic0", &shared_nic) == VIP_SUCCESS ? 0 : 30;
  lanai_emu_compute_ns(1000000);
  return VipQueryNic(shared_nic, &attributes) == VIP_INVALID_PARAMETER ? 0 : 31;
}

static int block_forever(void) {
  VIP_NIC_HANDLE nic = NULL;
  VIP_PROTECTION_HANDLE ptag = NULL;
  VIP_VI_HANDLE vi = NULL;
  VIP_VI_ATTRIBUTES attributes;
  VIP_DESCRIPTOR* done = NULL;
  if (VipOpenNic("nic0", &nic) != VIP_SUCCESS || VipCreatePtag(nic, &ptag) != VIP_SUCCESS)
    return 20;
  memset(&attributes, 0, sizeof attributes);
  attributes.ReliabilityLevel = VIP_SERVICE_RELIABLE_DELIVERY;
  attributes.MaxTransferSize = 1024;
  attributes.Ptag = ptag;
  if (VipCreateVi(nic, &attributes, NULL, NULL, &vi) != VIP_SUCCESS)
    return 21;
  VipSendWait(vi, VIP_INFINITE, &done);
  return 22;
}

int via_main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "args";
  int node = lanai_emu_node();
  if (strcmp(mode, "args") == 0) {
    printf("node%d of %d:", node, lanai_emu_nodes());
    for (int i = 0; i < argc; ++i)
      printf(" %s", argv[i]);
    printf("\n");
    return 0;
  }
  if (strcmp(mode, "fail") == 0)
    return node == 1 ? 7 : 0;
  if (strcmp(mode, "seed") == 0) {
    printf("node%d seed %llu\n", node, (unsigned long long)lanai_emu_seed());
    return 0;
  }
  if (strcmp(mode, "vipl") == 0)
    return use_vipl();
  if (strcmp(mode, "shared-global") == 0)
    return share_a_global();
  if (strcmp(mode, "block") == 0)
    return node == 0 ? block_forever() : 0;
  fprintf(stderr, "unknown mode %s\n", mode);
  return 99;
}
