/* The contract between the host side (VIPL library and driver) and the NIC
 * firmware: VIA 1.0 descriptors as they sit in host memory, the doorbell a
 * host rings, the packet header firmware puts on the wire, the completion
 * status bits, the host-interrupt word, and the configuration block the
 * driver fills in the card's SRAM. Shared by hostlib and every firmware;
 * usable from C and C++, hosted or freestanding.
 *
 * Byte order: descriptors and doorbells are in host memory order (little
 * endian); firmware converts with via_le32(). Packet headers and the SRAM
 * configuration block are LANai order (big endian). */
#ifndef LANAI_VIA_ABI_H
#define LANAI_VIA_ABI_H

#include <stdint.h>

/* --- VIA 1.0 descriptor ------------------------------------------------- */

typedef uint64_t VIP_UINT64;
typedef uint32_t VIP_UINT32;
typedef uint16_t VIP_UINT16;
typedef uint8_t VIP_UINT8;
typedef void* VIP_PVOID;

/* Registered memory is named by a handle the NIC checks on every DMA. */
typedef VIP_UINT32 VIP_MEM_HANDLE;

/* A host address carried in 64 bits whatever the pointer size. */
typedef union {
  VIP_UINT64 AddressBits;
  VIP_PVOID Address;
} VIP_PVOID64;

/* Descriptors must start on this boundary in registered memory. */
#define VIP_DESCRIPTOR_ALIGNMENT 64

/* Control segment: 32 bytes. */
typedef struct {
  VIP_PVOID64 Next;          /* next descriptor (unused by this provider) */
  VIP_MEM_HANDLE NextHandle; /* its memory handle */
  VIP_UINT16 SegCount;       /* data/address segments that follow */
  VIP_UINT16 Control;        /* VIP_CONTROL_* */
  VIP_UINT32 Reserved;
  VIP_UINT32 ImmediateData; /* sent with VIP_CONTROL_IMMEDIATE */
  VIP_UINT32 Length;        /* send: bytes to send; receive: bytes received */
  VIP_UINT32 Status;        /* VIP_STATUS_*, written by the NIC */
} VIP_CONTROL_SEGMENT;

/* Address segment (remote side of RDMA): 16 bytes. */
typedef struct {
  VIP_PVOID64 Data;
  VIP_MEM_HANDLE Handle;
  VIP_UINT32 Reserved;
} VIP_ADDRESS_SEGMENT;

/* Data segment (local buffer): 16 bytes. */
typedef struct {
  VIP_PVOID64 Data;
  VIP_MEM_HANDLE Handle;
  VIP_UINT32 Length;
} VIP_DATA_SEGMENT;

typedef union {
  VIP_ADDRESS_SEGMENT Remote;
  VIP_DATA_SEGMENT Local;
} VIP_DESCRIPTOR_SEGMENT;

/* A descriptor as applications allocate it: control segment and two
 * segments, 64 bytes. SegCount may use fewer segments, never more than
 * VIA_MAX_SEGMENTS. */
typedef struct _VIP_DESCRIPTOR {
  VIP_CONTROL_SEGMENT CS;
  VIP_DESCRIPTOR_SEGMENT DS[2];
} VIP_DESCRIPTOR;

/* Control field. */
#define VIP_CONTROL_OP_SENDRECV 0x0000
#define VIP_CONTROL_OP_RDMAWRITE 0x0001
#define VIP_CONTROL_OP_RDMAREAD 0x0002
#define VIP_CONTROL_OP_RESERVED 0x0003
#define VIP_CONTROL_OP_MASK 0x0003
#define VIP_CONTROL_IMMEDIATE 0x0004 /* carry ImmediateData to the receiver */
#define VIP_CONTROL_QFENCE 0x0008
#define VIP_CONTROL_RESERVED 0xFFF0

/* Status field, written by the NIC when it completes a descriptor. */
#define VIP_STATUS_DONE 0x00000001             /* descriptor completed */
#define VIP_STATUS_FORMAT_ERROR 0x00000002     /* malformed descriptor */
#define VIP_STATUS_PROTECTION_ERROR 0x00000004 /* handle, tag or bounds check failed */
#define VIP_STATUS_LENGTH_ERROR 0x00000008     /* lengths disagree or exceed the buffer/MTU */
#define VIP_STATUS_PARTIAL_ERROR 0x00000010
#define VIP_STATUS_DESC_FLUSHED_ERROR 0x00000020 /* VI not connected or in error */
#define VIP_STATUS_TRANSPORT_ERROR 0x00000040    /* packet damaged on the wire */
#define VIP_STATUS_RDMA_PROT_ERROR 0x00000080
#define VIP_STATUS_REMOTE_DESC_ERROR 0x00000100
#define VIP_STATUS_ERROR_MASK 0x000001FE
#define VIP_STATUS_OP_SEND 0x00000000
#define VIP_STATUS_OP_RECEIVE 0x00010000
#define VIP_STATUS_OP_RDMA_WRITE 0x00020000
#define VIP_STATUS_OP_REMOTE_RDMA_WRITE 0x00030000
#define VIP_STATUS_OP_RDMA_READ 0x00040000
#define VIP_STATUS_OP_MASK 0x00070000
#define VIP_STATUS_IMMEDIATE 0x00080000 /* ImmediateData is valid */
#define VIP_STATUS_RESERVED 0xFFF0FE00

/* Byte offsets inside a descriptor, for firmware that reads the copy the
 * host DMA brought into SRAM. */
#define VIA_DESC_SEGCOUNT 12 /* 16-bit SegCount (low half of a LE word at 12) */
#define VIA_DESC_CONTROL 14  /* 16-bit Control (high half of that word) */
#define VIA_DESC_IMMEDIATE 20
#define VIA_DESC_LENGTH 24
#define VIA_DESC_STATUS 28
#define VIA_DESC_SEGMENTS 32 /* first segment */
#define VIA_SEG_SIZE 16
#define VIA_SEG_ADDR 0 /* 64-bit address, LE */
#define VIA_SEG_HANDLE 8
#define VIA_SEG_LENGTH 12
/* The NIC writes back ImmediateData, Length and Status: 12 bytes from here. */
#define VIA_DESC_WRITEBACK VIA_DESC_IMMEDIATE
#define VIA_DESC_WRITEBACK_BYTES 12

/* Limits of this provider. */
#define VIA_MAX_SEGMENTS 2
#define VIA_DESC_BYTES 64
#define VIA_MAX_TRANSFER 65536 /* largest message (MTU) */
#define VIA_MAX_VI 128         /* VIs per NIC */
#define VIA_MAX_NODES 64       /* nodes a NIC can route to */
#define VIA_MAX_ROUTE 8        /* route bytes to any node */
#define VIA_QUEUE_DEPTH 64     /* descriptors a VI queue holds on the NIC */

/* --- Doorbell ------------------------------------------------------------
 * One posted 16-byte PCI write into the card's doorbell window, kept whole
 * by the doorbell FIFO (LANAI_REG_DB_ENTRY_* show its fields). */
typedef struct {
  VIP_UINT32 vi_queue;   /* VI number | VIA_DOORBELL_RECV for the receive queue
                                   | the VI's epoch << VIA_DOORBELL_EPOCH_SHIFT */
  VIP_MEM_HANDLE handle; /* handle of the region holding the descriptor */
  VIP_UINT64 descriptor; /* host address of the descriptor */
} via_doorbell;
#define VIA_DOORBELL_RECV 0x00010000u
/* The epoch of the VI when the descriptor was posted (see via_vi_config):
 * firmware drops ring entries of an older epoch, i.e. descriptors the host
 * has already flushed. */
#define VIA_DOORBELL_EPOCH_SHIFT 24
#define VIA_DOORBELL_EPOCH(word) (((word) >> VIA_DOORBELL_EPOCH_SHIFT) & 0xFFu)
/* Credit flow control (lanai_emu_set_flow_control). Every doorbell of a
 * flow-controlled VI carries VIA_DOORBELL_FLOW beside its VI number, so
 * that the number names no VI on the firmware's common path and the
 * doorbell takes its rare one: VIs without flow control pay nothing for
 * it, and firmware without it counts such doorbells as naming no VI (the
 * driver refuses the attribute unless the firmware exports
 * VIA_FEATURE_FLOW_CONTROL). A send doorbell whose descriptor takes a
 * receive at the peer (a send, an RDMA write with immediate data) also
 * carries VIA_DOORBELL_CREDIT: it waits on the card for a credit. */
#define VIA_DOORBELL_FLOW 0x8000u
#define VIA_DOORBELL_CREDIT 0x4000u
#define VIA_DOORBELL_VI(word) ((word)&0x3FFFu) /* the VI number without them */
/* Flow-controlled VIs per card (each holds sends waiting for credits). */
#define VIA_MAX_FLOW_VI 16

/* --- Packet header ------------------------------------------------------
 * Follows the route bytes on the wire; big endian. The payload follows.
 * Two kinds of packet share it: data (a message's fragment, an RDMA
 * request or an RDMA read's data) and acknowledgements (below). */
typedef struct {
  uint32_t kind;      /* VIA_PACKET_* */
  uint16_t src_node;  /* sending node */
  uint16_t src_vi;    /* sending VI */
  uint16_t dst_vi;    /* receiving VI */
  uint16_t flags;     /* VIA_PACKET_F_* */
  uint32_t length;    /* payload bytes */
  uint32_t immediate; /* immediate data, valid with VIA_PACKET_F_IMMEDIATE */
  uint32_t sequence;  /* per-VI message number, from 0; every fragment of a
                          message carries its message's number */
  uint32_t offset;    /* where this fragment's payload starts in the message */
  uint32_t message;   /* the whole message's length */
} via_packet_header;
#define VIA_PACKET_HEADER_BYTES 32
#define VIA_PACKET_DATA 0x56494144u /* "VIAD": a VI send */
#define VIA_PACKET_ACK 0x56494141u  /* "VIAA": an acknowledgement (below) */
#define VIA_PACKET_F_IMMEDIATE 0x0001u
/* The message's last fragment (an unfragmented message is its own last). */
#define VIA_PACKET_F_LAST 0x0002u
/* The sender gave the message up part way (a fragment's data could not be
 * read): no payload; the receive completes in error. Also the last. */
#define VIA_PACKET_F_ABORTED 0x0004u
/* An RDMA write: the payload is followed by a via_rdma_trailer naming where
 * the message goes in the target's registered memory. */
#define VIA_PACKET_F_RDMA_WRITE 0x0008u
/* The sender's VI is Reliable Reception: the receiving card acknowledges
 * the message once its data is in host memory (VIA_PACKET_ACK). Every
 * fragment of the message carries it. */
#define VIA_PACKET_F_ACK_WANTED 0x0010u
/* An RDMA read request: no payload but a via_rdma_trailer naming the
 * target's memory to read; `message` is the number of bytes asked for.
 * It is a message of the initiator's VI, numbered in that VI's sequence. */
#define VIA_PACKET_F_RDMA_READ 0x0020u
/* An RDMA read's data, streamed back by the target's card as a message
 * of the target's VI (its fragments, its order), numbered as the request it
 * answers, not among the target's messages: `sequence` and `immediate` both
 * hold the request's number, so that data the fabric loses leaves no gap
 * in the target's numbering, and a request that comes again (the initiator
 * times out and asks again) is served again under the same number. With
 * VIA_PACKET_F_ABORTED (and no payload) the target refused the read, or
 * gave it up part way: the initiator's descriptor completes with
 * VIP_STATUS_RDMA_PROT_ERROR. */
#define VIA_PACKET_F_RDMA_READ_DATA 0x0040u
/* Sent on a Reliable Delivery VI (and by SVIA on a Reliable Reception one)
 * by firmware that keeps its packets until acknowledged: the receiving card
 * takes the VI's messages strictly in sequence, drops duplicates
 * (acknowledging them again at once) and packets past a gap, and
 * acknowledges what it took (at once under VIA_PACKET_F_ACK_WANTED or
 * VIA_PACKET_F_ACK_NOW, else later, several messages in one: SVIA within a
 * quarter of the retransmission timeout, PVIA and QoS-VIA within half of
 * it), so that the sender can free, or resend, what it keeps. */
#define VIA_PACKET_F_RELIABLE 0x0080u
/* With VIA_PACKET_F_RELIABLE: the sender's window of packets kept for
 * resending is filling (or the packet is resent): the receiving card
 * acknowledges what it has taken at once rather than later. */
#define VIA_PACKET_F_ACK_NOW 0x0100u

/* --- Acknowledgements ----------------------------------------------------
 * A VIA_PACKET_ACK packet is the header alone (length 0, no payload), sent
 * by the card that received messages back to the card that sent them:
 *   src_node, src_vi  the acknowledging node and VI (for a message no VI
 *                     took: the VI the message named)
 *   dst_vi            the VI whose messages are acknowledged
 *   sequence          cumulative: every message of dst_vi numbered up to
 *                     and including `sequence` is settled at the receiver
 *   immediate         the outcome of message `sequence`: 0, its data is in
 *                     host memory; else the VIP_STATUS_* error bits its
 *                     send descriptor completes with
 *   flags             VIA_ACK_F_EXACT or 0; message is 0.
 *   offset            cumulative acks: the outcomes of the sixteen messages
 *                     up to `sequence`, two bits each (VIA_ACK_OUTCOME_*),
 *                     message `sequence - i` in bits 2i+1..2i, so that a
 *                     sender whose earlier ack was lost still learns that
 *                     a Reliable Reception message failed; 0 otherwise.
 * Reliable Reception messages (VIA_PACKET_F_ACK_WANTED) are acknowledged
 * in their VI's order once their data (or their failure) is settled, so a
 * later ack stands for the earlier ones and a card may merge acks not yet
 * sent into the latest. An ack with VIA_ACK_F_EXACT settles message
 * `sequence` alone, nothing before it: it refuses an RDMA read request
 * (which is otherwise answered by its data, never by an ack) or a message
 * that arrived for a VI not connected to its sender. Keyed by VI and
 * per-VI sequence, the cumulative ack is what a retransmitting protocol
 * would also use (a sender keeps what is not yet acknowledged). */
#define VIA_ACK_F_EXACT 0x0001u
/* With a cumulative ack: a message past a gap arrived (the one after
 * `sequence` was lost), so the sender need not wait for its timeout to go
 * back. Sent once per gap. */
#define VIA_ACK_F_GAP 0x0002u
/* Credit flow control: a credit (VIA_ACK_F_CREDIT) settles nothing; its
 * `sequence` is how many receives the acknowledging VI has had posted in
 * its current epoch (free-running), so the sender's VI may have sent that
 * many messages that take one. A later credit stands for an earlier one,
 * and a card may merge a credit not yet sent into the next (never into an
 * ack of another kind). A credit request (VIA_ACK_F_CREDIT_REQUEST) asks
 * the peer for a credit: a sender that waits for credits sends one when it
 * starts waiting (the receives may have been posted before the connection
 * existed) and again each retransmission timeout while it waits (a credit
 * may be lost). */
#define VIA_ACK_F_CREDIT 0x0004u
#define VIA_ACK_F_CREDIT_REQUEST 0x0008u
#define VIA_ACK_OUTCOME_OK 0u          /* data in host memory */
#define VIA_ACK_OUTCOME_REMOTE_DESC 1u /* VIP_STATUS_REMOTE_DESC_ERROR */
#define VIA_ACK_OUTCOME_RDMA_PROT 2u   /* VIP_STATUS_RDMA_PROT_ERROR */
#define VIA_ACK_OUTCOME_TRANSPORT 3u   /* VIP_STATUS_TRANSPORT_ERROR */
#define VIA_ACK_OUTCOMES 16u           /* messages an ack's outcomes cover */

/* Trails the payload of every fragment of an RDMA write; big endian. */
/* An RDMA read request carries the same trailer (its only payload), naming
 * the memory to read at the target. */
typedef struct {
  uint32_t address_hi; /* the message's first byte at the target */
  uint32_t address_lo;
  uint32_t handle; /* the target's memory handle for it */
  uint32_t reserved;
} via_rdma_trailer;
#define VIA_RDMA_TRAILER_BYTES 16

/* --- Host interrupt -----------------------------------------------------
 * Word the firmware writes to LANAI_REG_HOST_INTERRUPT for an asynchronous
 * error: (code << 16) | VI number. The driver turns it into VipErrorCallback. */
#define VIA_INTR_CODE(word) ((word) >> 16)
#define VIA_INTR_VI(word) ((word)&0xFFFFu)
#define VIA_INTR_WORD(code, vi) (((uint32_t)(code) << 16) | ((uint32_t)(vi)&0xFFFFu))
#define VIA_INTR_RECVQ_EMPTY 1u   /* a packet arrived with no receive posted */
#define VIA_INTR_DOORBELL_LOST 2u /* doorbells were dropped on overflow (VI = 0xFFFF) */
#define VIA_INTR_BAD_PACKET 3u    /* the shipped firmwares: a descriptor of the VI unreadable */
#define VIA_INTR_RDMAW_PROT 4u    /* an RDMA write to this VI failed its protection checks */
#define VIA_INTR_RDMAR_PROT 5u    /* an RDMA read on this VI was refused by its target */
#define VIA_INTR_CONN_LOST                                                                         \
  6u /* the peer stayed unreachable past the retry limit: the
                                       VI is broken, its sends on the card failed */

/* --- Configuration block in SRAM ----------------------------------------
 * Firmware defines `via_nic_config` (C linkage); the driver finds it by
 * symbol and writes it with PCI writes. All words big endian. */
enum {
  VIA_VI_FREE = 0,      /* no VI in this slot */
  VIA_VI_IDLE = 1,      /* created, not connected */
  VIA_VI_CONNECTED = 2, /* remote_node/remote_vi valid */
  VIA_VI_ERROR = 3,     /* broken; sends are flushed */
};

/* Reliability levels (VIP_RELIABILITY_LEVEL bits). */
#define VIP_SERVICE_UNRELIABLE 0x01
#define VIP_SERVICE_RELIABLE_DELIVERY 0x02
#define VIP_SERVICE_RELIABLE_RECEPTION 0x04

typedef struct {
  uint32_t state;         /* VIA_VI_* (driver writes; firmware sets ERROR) */
  uint32_t ptag;          /* protection tag of the VI */
  uint32_t reliability;   /* VIP_SERVICE_* */
  uint32_t mtu;           /* largest message on this VI */
  uint32_t remote_node;   /* peer node when connected */
  uint32_t remote_vi;     /* peer VI when connected */
  uint32_t vtick_lo;      /* QoS: ideal time between MTU packets, LANai cycles; */
  uint32_t vtick_hi;      /*      all ones for best effort */
  uint32_t epoch;         /* 0-255; the driver advances it whenever it flushes the
                            VI's queues (disconnect, destroy, re-create) */
  uint32_t frag_policy;   /* VIA_FRAG_*: how firmware that pipelines cuts sends */
  uint32_t frag_bytes;    /* STATIC: the fragment size; the others: the smallest;
                            NONE: all ones. Firmware sends a message no larger
                            whole without consulting the policy */
  uint32_t frag_param[4]; /* the policy's pipeline figures (VIA_FRAG_* below) */
  uint32_t access;        /* VIA_ACCESS_*: what the VI lets its peer do */
} via_vi_config;

/* VI access bits (via_vi_config.access). */
#define VIA_ACCESS_RDMA_WRITE 0x1u /* the peer may RDMA-write through this VI */
#define VIA_ACCESS_RDMA_READ 0x2u  /* the peer may RDMA-read through this VI */

/* Firmware features, a word the firmware exports under VIA_FEATURES_SYMBOL
 * for the driver to read. */
#define VIA_FEATURE_RDMA_WRITE 0x1u
#define VIA_FEATURE_RDMA_READ 0x2u
#define VIA_FEATURE_FLOW_CONTROL 0x4u /* VIA_DOORBELL_FLOW, VIA_ACK_F_CREDIT */
#define VIA_FEATURES_SYMBOL "via_firmware_features"

/* Fragmentation policies (firmware that pipelines messages: PVIA, QoS-VIA;
 * SVIA sends every message whole). Times in ns, per-byte costs in ns per KB
 * (1024 bytes). Fragment sizes other than a message's last are multiples of
 * VIA_FRAG_ALIGN. */
#define VIA_FRAG_NONE 0u   /* one packet per message */
#define VIA_FRAG_STATIC 1u /* frag_bytes per fragment */
#define VIA_FRAG_FIXED_OPTIMAL                                                                     \
  2u /* equal fragments, k from the fixed-size theorem:
                                     param[0] = g_b, param[1] = sum of the other
                                     stages' G */
#define VIA_FRAG_RAMP_UP                                                                           \
  3u /* growing sizes from the two-stage recurrence:
                                     param[0..3] = g_0, G_0, g_1, G_1 */
#define VIA_FRAG_ADAPTIVE                                                                          \
  4u /* as FIXED_OPTIMAL, with g_b and the other
                                     stages' G measured by the firmware from its
                                     own fragments (param[0..1] seed them) */
#define VIA_FRAG_POLICIES 5u
#define VIA_FRAG_ALIGN 8u

typedef struct {
  uint32_t magic;                   /* VIA_CONFIG_MAGIC once the driver has written it */
  uint32_t node;                    /* this node */
  uint32_t nodes;                   /* nodes in the network */
  uint32_t clock_khz;               /* the LANai's clock, for firmware that measures time */
  uint8_t route_len[VIA_MAX_NODES]; /* 0: unreachable (or self) */
  uint8_t route[VIA_MAX_NODES][VIA_MAX_ROUTE]; /* first hop first */
  via_vi_config vi[VIA_MAX_VI];
  /* Firmware that retransmits (the hardware profile's nic.retransmit_*):
   * LANai cycles a reliable packet waits for its acknowledgement before it
   * is sent again, and how many times in a row it is sent again unanswered
   * before its VI breaks (VIA_INTR_CONN_LOST). */
  uint32_t retransmit_cycles;
  uint32_t retry_limit;
} via_nic_config_block;
#define VIA_CONFIG_MAGIC 0x56494131u /* "VIA1" */
#define VIA_CONFIG_SYMBOL "via_nic_config"

/* Little-endian word at p (descriptors and doorbells from host memory). */
static inline uint32_t via_le32(const void* p) {
  const uint8_t* b = (const uint8_t*)p;
  return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static inline void via_store_le32(void* p, uint32_t v) {
  uint8_t* b = (uint8_t*)p;
  b[0] = (uint8_t)v;
  b[1] = (uint8_t)(v >> 8);
  b[2] = (uint8_t)(v >> 16);
  b[3] = (uint8_t)(v >> 24);
}

#endif
