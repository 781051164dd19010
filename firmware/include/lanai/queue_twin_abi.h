/* The contract between the queueing-network twin experiment and its
 * reference firmware (firmware/nic-send-twin): the configuration block the
 * bench writes into SRAM before the core starts, and the labels the
 * firmware puts on its work so the bench can follow each message through
 * the network from the device trace. Words are in LANai order (big endian).
 *
 * The network is the NIC send path of the published queueing model: a
 * doorbell is LANai work, then a host DMA fetch of its descriptor; the
 * descriptor is LANai work, then a host DMA fetch of the data; the data is
 * LANai work (programming the send DMA, done only when that DMA is idle),
 * then the network send DMA, after which the message leaves. */
#ifndef LANAI_QUEUE_TWIN_ABI_H
#define LANAI_QUEUE_TWIN_ABI_H

#include <stdint.h>

/* Name of the configuration block's symbol in the firmware image. */
#define TWIN_CONFIG_SYMBOL "twin_config"

typedef struct {
  uint32_t pooled;          /* 1: one FCFS queue for all LANai work; 0: cyclic polling */
  uint32_t lanai_only;      /* 1: a message is its doorbell's LANai work and nothing more */
  uint32_t doorbell_cycles; /* LANai work per class, in core cycles */
  uint32_t descriptor_cycles;
  uint32_t data_cycles;
  uint32_t descriptor_bytes; /* host DMA transfer sizes */
  uint32_t data_bytes;
  uint32_t handle; /* the host region holding descriptors and data */
  uint32_t ptag;
  uint32_t data_host_lo; /* host address of the data */
  uint32_t data_host_hi;
  uint32_t route_byte; /* the send DMA's one-byte source route (the bench's sink ignores it) */
  uint32_t failure;    /* set by the firmware: a TWIN_FAIL_* code, 0 while all is well */
} twin_config_block;

#define TWIN_FAIL_HDMA_REFUSED 1u /* the host DMA queue refused a request */
#define TWIN_FAIL_QUEUE_FULL 2u   /* a software job queue overflowed */
#define TWIN_FAIL_SEND_REFUSED 3u /* the send DMA refused a packet */
#define TWIN_FAIL_DMA_STATUS 4u   /* a host DMA completed with an error */

/* The VI field of a trace label (VI << 16 | message) names the visit of
 * the message's path that the labelled work belongs to. */
#define TWIN_VISIT_LANAI_DOORBELL 0u
#define TWIN_VISIT_HDMA_DESCRIPTOR 1u /* host DMA, class doorbell: fetch the descriptor */
#define TWIN_VISIT_LANAI_DESCRIPTOR 2u
#define TWIN_VISIT_HDMA_DATA 3u /* host DMA, class descriptor: fetch the data */
#define TWIN_VISIT_LANAI_DATA 4u
#define TWIN_VISIT_NSDMA 5u

/* LANai state names (trace states) of the three classes of LANai work. */
#define TWIN_STATE_DOORBELL "doorbell"
#define TWIN_STATE_DESCRIPTOR "descriptor"
#define TWIN_STATE_DATA "data"

#endif
