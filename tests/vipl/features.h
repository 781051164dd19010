/* What the VIPL feature scenarios share: the per-node state, the memory
 * layout of descriptors and data pages, and small checking helpers. */
#ifndef VIPL_FEATURES_H
#define VIPL_FEATURES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vipl.h>

#include "tests/vipl/vipl_test_util.h"

#define PAGE 4096
#define PAGES 16
#define MEM_BYTES (PAGE + PAGES * PAGE) /* 64 descriptors, then 16 data pages */
#define WAIT_MS 100                     /* virtual ms: ample for any message here, short to fail */
#define MS 1000000ull

#define RECV_OK (VIP_STATUS_DONE | VIP_STATUS_OP_RECEIVE)
#define SEND_OK (VIP_STATUS_DONE | VIP_STATUS_OP_SEND)
#define FLUSHED (VIP_STATUS_DONE | VIP_STATUS_DESC_FLUSHED_ERROR)

/* All nodes run in one process: per-node state lives in this struct. */
struct node {
  int me, peer, active; /* node0 requests connections, node1 accepts them */
  VIP_NIC_HANDLE nic;
  VIP_PROTECTION_HANDLE ptag;
  VIP_MEM_HANDLE mh;
  unsigned char* mem; /* MEM_BYTES, registered with `ptag` */
  VIP_VI_HANDLE vi;
  int errors_seen;
  VIP_ERROR_DESCRIPTOR last_error;
};

VIP_DESCRIPTOR* desc(struct node* n, int i);
unsigned char* page(struct node* n, int i);
/* The byte at `offset` of message number `message`. */
unsigned char pattern(int message, VIP_UINT32 offset);
VIP_RETURN make_vi(struct node* n, VIP_CQ_HANDLE send_cq, VIP_CQ_HANDLE recv_cq, VIP_VI_HANDLE* vi);
VIP_RETURN connect_vi(struct node* n, VIP_VI_HANDLE vi, VIP_UINT8 disc);
/* A descriptor over two data segments (a0, l0) and (a1, l1). */
void fill2(VIP_DESCRIPTOR* d, void* a0, VIP_UINT32 l0, void* a1, VIP_UINT32 l1,
           VIP_MEM_HANDLE handle);
/* The next completed descriptor of a queue, or NULL after WAIT_MS. */
VIP_DESCRIPTOR* wait_desc(VIP_VI_HANDLE vi, int recv);
/* 0 if `d` completed with exactly this status and length. */
int check_status(const VIP_DESCRIPTOR* d, VIP_UINT32 status, VIP_UINT32 length);

/* The scenarios: 0 on success. features_transfers.c */
int cq(struct node* n);
int immediate(struct node* n);
int segments(struct node* n);
int zero_byte(struct node* n);
int too_long(struct node* n);
/* features_connections.c */
int disconnect(struct node* n);
int disconnect_data(struct node* n);
int reconnect(struct node* n);
int timeouts(struct node* n);
int peer(struct node* n);
int notify(struct node* n);

#endif
