/* The VIPL: the Virtual Interface Provider Library of VIA 1.0, as host
 * programs call it on an emulated node. Descriptor layout, status and
 * control bits come from lanai/via_abi.h, shared with the NIC firmware.
 * A program defines via_main() instead of main(); the launcher runs one
 * copy per node (see vipl_emu.h). */
#ifndef LANAI_VIPL_H
#define LANAI_VIPL_H

#include "lanai/via_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Basic types ---------------------------------------------------------- */

typedef int VIP_BOOLEAN;
#define VIP_TRUE 1
#define VIP_FALSE 0

typedef char VIP_CHAR;
typedef unsigned char VIP_UCHAR;
typedef short VIP_SHORT;
typedef unsigned short VIP_USHORT;
typedef long VIP_LONG;
typedef unsigned long VIP_ULONG;

/* Handles are opaque: the library refuses stale or foreign ones
 * (VIP_INVALID_PARAMETER) rather than trusting them. */
typedef VIP_PVOID VIP_NIC_HANDLE;
typedef VIP_PVOID VIP_VI_HANDLE;
typedef VIP_PVOID VIP_CQ_HANDLE;
typedef VIP_PVOID VIP_PROTECTION_HANDLE;
typedef VIP_PVOID VIP_CONN_HANDLE;

/* Timeouts are in milliseconds of virtual time; 0 polls once. */
#define VIP_INFINITE 0xFFFFFFFFul

typedef VIP_ULONG VIP_RELIABILITY_LEVEL; /* one VIP_SERVICE_* bit (via_abi.h) */

typedef enum {
  VIP_SUCCESS,
  VIP_NOT_DONE,
  VIP_INVALID_PARAMETER,
  VIP_ERROR_RESOURCE,
  VIP_TIMEOUT,
  VIP_REJECT,
  VIP_INVALID_RELIABILITY_LEVEL,
  VIP_INVALID_MTU,
  VIP_INVALID_QOS,
  VIP_INVALID_PTAG,
  VIP_INVALID_RDMAREAD,
  VIP_DESCRIPTOR_ERROR,
  VIP_INVALID_STATE,
  VIP_ERROR_NAMESERVICE,
  VIP_NO_MATCH,
  VIP_NOT_REACHABLE,
  VIP_ERROR_NOT_SUPPORTED
} VIP_RETURN;

/* --- Quality of service ---------------------------------------------------
 * VIA leaves QoS to the provider. Here a VI asks for a bandwidth when it is
 * created; the driver turns it into the VirtualClock tick (ideal time
 * between two MaxTransferSize packets) that QoS firmware schedules by.
 * A null VIP_QOS, or BandwidthBytesPerSec 0, asks for best effort. A rate
 * above the link's bandwidth is refused with VIP_INVALID_QOS. Firmware
 * without a scheduler (SVIA, PVIA) ignores the tick. */
typedef struct {
  VIP_ULONG BandwidthBytesPerSec; /* 0 = best effort */
} VIP_QOS_REQUEST;
typedef VIP_QOS_REQUEST* VIP_QOS;

/* --- Network addresses ------------------------------------------------------
 * HostAddressLen bytes of host address, then DiscriminatorLen bytes of
 * discriminator, stored from HostAddress[0] on: allocate room for both.
 * Host addresses here are 2 bytes, the node number, most significant first. */
typedef struct {
  VIP_USHORT HostAddressLen;
  VIP_USHORT DiscriminatorLen;
  VIP_UCHAR HostAddress[1];
} VIP_NET_ADDRESS;

/* --- Attributes ----------------------------------------------------------- */

typedef struct {
  VIP_CHAR Name[64];
  VIP_ULONG HardwareVersion;
  VIP_ULONG ProviderVersion;
  VIP_USHORT NicAddressLen;
  const VIP_UCHAR* LocalNicAddress;
  VIP_BOOLEAN ThreadSafe;
  VIP_USHORT MaxDiscriminatorLen;
  VIP_ULONG MaxRegisterBytes;
  VIP_ULONG MaxRegisterRegions;
  VIP_ULONG MaxRegisterBlockBytes;
  VIP_ULONG MaxVI;
  VIP_ULONG MaxDescriptorsPerQueue;
  VIP_ULONG MaxSegmentsPerDesc;
  VIP_ULONG MaxCQ;
  VIP_ULONG MaxCQEntries;
  VIP_ULONG MaxTransferSize;
  VIP_ULONG NativeMTU;
  VIP_ULONG MaxPtags;
  VIP_RELIABILITY_LEVEL ReliabilityLevelSupport;
  VIP_RELIABILITY_LEVEL RDMAReadSupport;
} VIP_NIC_ATTRIBUTES;

typedef struct {
  VIP_RELIABILITY_LEVEL ReliabilityLevel;
  VIP_ULONG MaxTransferSize;
  VIP_QOS QoS;
  VIP_PROTECTION_HANDLE Ptag;
  VIP_BOOLEAN EnableRdmaWrite;
  VIP_BOOLEAN EnableRdmaRead;
} VIP_VI_ATTRIBUTES;

typedef struct {
  VIP_PROTECTION_HANDLE Ptag;
  VIP_BOOLEAN EnableRdmaWrite;
  VIP_BOOLEAN EnableRdmaRead;
} VIP_MEM_ATTRIBUTES;

typedef enum {
  VIP_STATE_IDLE,
  VIP_STATE_CONNECTED,
  VIP_STATE_CONNECT_PENDING,
  VIP_STATE_ERROR
} VIP_VI_STATE;

/* --- Asynchronous errors ---------------------------------------------------- */

typedef enum {
  VIP_ERROR_POST_DESC,
  VIP_ERROR_CONN_LOST,
  VIP_ERROR_RECVQ_EMPTY,
  VIP_ERROR_VI_OVERRUN,
  VIP_ERROR_RDMAW_PROT,
  VIP_ERROR_RDMAW_DATA,
  VIP_ERROR_RDMAW_ABORT,
  VIP_ERROR_RDMAR_PROT,
  VIP_ERROR_COMP_PROT,
  VIP_ERROR_RDMA_TRANSPORT,
  VIP_ERROR_CATASTROPHIC
} VIP_ERROR_CODE;

typedef enum {
  VIP_RESOURCE_NIC,
  VIP_RESOURCE_VI,
  VIP_RESOURCE_CQ,
  VIP_RESOURCE_DESCRIPTOR
} VIP_RESOURCE_CODE;

typedef struct {
  VIP_NIC_HANDLE NicHandle;
  VIP_VI_HANDLE ViHandle;
  VIP_CQ_HANDLE CQHandle;
  VIP_DESCRIPTOR* DescriptorPtr;
  VIP_ULONG OpCode;
  VIP_RESOURCE_CODE ResourceCode;
  VIP_ERROR_CODE ErrorCode;
} VIP_ERROR_DESCRIPTOR;

typedef void (*VIP_ERROR_HANDLER)(VIP_PVOID Context, VIP_ERROR_DESCRIPTOR* ErrorDesc);

/* --- NIC -------------------------------------------------------------------
 * The only device is "nic0". Opening it gives the NIC its configuration
 * (node number, routes to every node); other names: VIP_INVALID_PARAMETER. */
VIP_RETURN VipOpenNic(const VIP_CHAR* DeviceName, VIP_NIC_HANDLE* NicHandle);
/* Releases everything opened through the handle (VIs are disconnected). */
VIP_RETURN VipCloseNic(VIP_NIC_HANDLE NicHandle);
VIP_RETURN VipQueryNic(VIP_NIC_HANDLE NicHandle, VIP_NIC_ATTRIBUTES* Attrs);
/* InfoType LANAI_EMU_SMI_NIC_COUNTERS (vipl_emu.h): the NIC's counters;
 * any other: VIP_ERROR_NOT_SUPPORTED. VIP_INVALID_PARAMETER for a bad
 * handle or a null SysManInfo. */
VIP_RETURN VipQuerySystemManagementInfo(VIP_NIC_HANDLE NicHandle, VIP_ULONG InfoType,
                                        VIP_PVOID SysManInfo);
/* Handler NULL restores the default, which prints the error on stderr. The
 * handler runs on the program's own stack, at its next VIPL call or while
 * it blocks in one. */
VIP_RETURN VipErrorCallback(VIP_NIC_HANDLE NicHandle, VIP_PVOID Context, VIP_ERROR_HANDLER Handler);

/* --- Memory and protection tags ------------------------------------------- */
VIP_RETURN VipCreatePtag(VIP_NIC_HANDLE NicHandle, VIP_PROTECTION_HANDLE* ProtectionTag);
/* VIP_INVALID_STATE while a VI or a memory region still uses the tag. */
VIP_RETURN VipDestroyPtag(VIP_NIC_HANDLE NicHandle, VIP_PROTECTION_HANDLE ProtectionTag);
VIP_RETURN VipRegisterMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress, VIP_ULONG Length,
                          VIP_MEM_ATTRIBUTES* MemAttrs, VIP_MEM_HANDLE* MemHandle);
VIP_RETURN VipDeregisterMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress,
                            VIP_MEM_HANDLE MemHandle);
VIP_RETURN VipQueryMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress, VIP_MEM_HANDLE MemHandle,
                       VIP_MEM_ATTRIBUTES* MemAttrs);
/* Another protection tag or RDMA permissions for a registered region;
 * Address is the region's start. VIP_INVALID_PARAMETER for a region this
 * NIC did not register, VIP_INVALID_PTAG for a tag of another NIC (or
 * none), VIP_INVALID_RDMAREAD for RDMA read on a NIC whose firmware does
 * none (VipRegisterMem likewise). */
VIP_RETURN VipSetMemAttributes(VIP_NIC_HANDLE NicHandle, VIP_PVOID Address,
                               VIP_MEM_HANDLE MemHandle, VIP_MEM_ATTRIBUTES* MemAttrs);

/* --- Virtual interfaces -----------------------------------------------------
 * RDMA write and RDMA read are offered when the firmware does them
 * (VipQueryNic's RDMAReadSupport names the levels reads are offered on);
 * otherwise asking for one is VIP_ERROR_NOT_SUPPORTED. RDMA read on an
 * unreliable VI: VIP_INVALID_RDMAREAD. Completion queues may be NULL. */
VIP_RETURN VipCreateVi(VIP_NIC_HANDLE NicHandle, VIP_VI_ATTRIBUTES* ViAttribs,
                       VIP_CQ_HANDLE SendCQHandle, VIP_CQ_HANDLE RecvCQHandle,
                       VIP_VI_HANDLE* ViHandle);
/* The VI must be idle with no descriptor posted (else VIP_INVALID_STATE). */
VIP_RETURN VipDestroyVi(VIP_VI_HANDLE ViHandle);
VIP_RETURN VipQueryVi(VIP_VI_HANDLE ViHandle, VIP_VI_STATE* State, VIP_VI_ATTRIBUTES* Attrs,
                      VIP_BOOLEAN* SendQueueEmpty, VIP_BOOLEAN* RecvQueueEmpty);
/* Allowed on an idle VI; the attributes are checked as by VipCreateVi. */
VIP_RETURN VipSetViAttributes(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* Attrs);

/* --- Connections --------------------------------------------------------------
 * Client-server: the server waits for a request to its address (its host
 * address plus a discriminator), then accepts it with an idle VI whose
 * reliability level and MaxTransferSize equal the requester's, or rejects
 * it. Each message between the two hosts costs the profile's
 * host.connect_ns. RemoteAddr must have room for 2 + MaxDiscriminatorLen
 * address bytes. */
VIP_RETURN VipConnectWait(VIP_NIC_HANDLE NicHandle, VIP_NET_ADDRESS* LocalAddr, VIP_ULONG Timeout,
                          VIP_NET_ADDRESS* RemoteAddr, VIP_VI_ATTRIBUTES* RemoteViAttribs,
                          VIP_CONN_HANDLE* ConnHandle);
/* VIP_TIMEOUT if the requester gave up before the acceptance reached it. */
VIP_RETURN VipConnectAccept(VIP_CONN_HANDLE ConnHandle, VIP_VI_HANDLE ViHandle);
VIP_RETURN VipConnectReject(VIP_CONN_HANDLE ConnHandle);
/* VIP_REJECT if refused, VIP_TIMEOUT if not accepted in time,
 * VIP_NOT_REACHABLE for a node not in the network (or this node). */
VIP_RETURN VipConnectRequest(VIP_VI_HANDLE ViHandle, VIP_NET_ADDRESS* LocalAddr,
                             VIP_NET_ADDRESS* RemoteAddr, VIP_ULONG Timeout,
                             VIP_VI_ATTRIBUTES* RemoteViAttribs);
/* Both VIs return to idle. Descriptors still posted on either side are
 * completed by the library with VIP_STATUS_DONE | VIP_STATUS_DESC_FLUSHED_ERROR;
 * do not reuse their memory for new posts until the NIC has been idle, as a
 * transfer it had already begun may still write to them. */
VIP_RETURN VipDisconnect(VIP_VI_HANDLE ViHandle);
/* Peer-to-peer: each end asks for the other's address with an idle VI
 * (LocalAddr naming itself, RemoteAddr the other end); the request returns
 * at once and the VI is connect-pending. The two requests meet; the end
 * that learns of both first checks reliability level and MaxTransferSize
 * (VIP_INVALID_RELIABILITY_LEVEL, VIP_INVALID_MTU on both ends) and, with
 * admission control, its incoming link (VIP_INVALID_QOS on both ends).
 * Done looks (VIP_NOT_DONE while undecided), Wait blocks; both give the
 * remote VI's attributes on success (RemoteViAttribs may be NULL).
 * VIP_TIMEOUT if the other end has not asked within Timeout ms; the VI is
 * idle again after any failure. VIP_INVALID_STATE from Done or Wait on a
 * VI with no peer request. */
VIP_RETURN VipConnectPeerRequest(VIP_VI_HANDLE ViHandle, VIP_NET_ADDRESS* LocalAddr,
                                 VIP_NET_ADDRESS* RemoteAddr, VIP_ULONG Timeout);
VIP_RETURN VipConnectPeerDone(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* RemoteViAttribs);
VIP_RETURN VipConnectPeerWait(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* RemoteViAttribs);

/* --- Data transfer --------------------------------------------------------------
 * Descriptors are 64-byte aligned, inside memory registered with the VI's
 * protection tag (MemHandle). Null, misaligned or unregistered descriptors:
 * VIP_INVALID_PARAMETER; bad SegCount or Control: VIP_DESCRIPTOR_ERROR;
 * sends need a connected VI, receives an idle or connected one
 * (VIP_INVALID_STATE); at most VIA_QUEUE_DEPTH descriptors outstanding per
 * queue (VIP_ERROR_RESOURCE). Errors found by the NIC appear as status bits
 * of the completed descriptor. */
VIP_RETURN VipPostSend(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR* DescriptorPtr,
                       VIP_MEM_HANDLE MemoryHandle);
VIP_RETURN VipPostRecv(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR* DescriptorPtr,
                       VIP_MEM_HANDLE MemoryHandle);
/* The oldest posted descriptor once complete (VIP_SUCCESS), else VIP_NOT_DONE. */
VIP_RETURN VipSendDone(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR** DescriptorPtr);
VIP_RETURN VipRecvDone(VIP_VI_HANDLE ViHandle, VIP_DESCRIPTOR** DescriptorPtr);
/* Blocks until the oldest posted descriptor completes, or VIP_TIMEOUT. */
VIP_RETURN VipSendWait(VIP_VI_HANDLE ViHandle, VIP_ULONG Timeout, VIP_DESCRIPTOR** DescriptorPtr);
/* Notification: Handler runs once, for the next descriptor to complete on
 * the queue, which leaves the queue and is passed to it (as Done would
 * take it). It runs on the program's own stack at its next VIPL call, or
 * while it blocks in one (or in lanai_emu_compute_ns), never in the middle
 * of its own code, and may call the VIPL. One notification per queue at a
 * time (VIP_ERROR_RESOURCE for a second); VIP_INVALID_PARAMETER for a bad
 * handle or no handler. */
typedef void (*VIP_DESCRIPTOR_NOTIFY)(VIP_PVOID Context, VIP_NIC_HANDLE NicHandle,
                                      VIP_DESCRIPTOR* DescriptorPtr);
VIP_RETURN VipSendNotify(VIP_VI_HANDLE ViHandle, VIP_PVOID Context, VIP_DESCRIPTOR_NOTIFY Handler);
VIP_RETURN VipRecvNotify(VIP_VI_HANDLE ViHandle, VIP_PVOID Context, VIP_DESCRIPTOR_NOTIFY Handler);
VIP_RETURN VipRecvWait(VIP_VI_HANDLE ViHandle, VIP_ULONG Timeout, VIP_DESCRIPTOR** DescriptorPtr);

/* --- Completion queues ---------------------------------------------------------
 * A completion names the VI and queue; take the descriptor with
 * VipSendDone/VipRecvDone. A full queue drops the completion and reports
 * VIP_ERROR_CATASTROPHIC on it through the error callback. */
VIP_RETURN VipCreateCQ(VIP_NIC_HANDLE NicHandle, VIP_ULONG EntryCount, VIP_CQ_HANDLE* CQHandle);
/* VIP_INVALID_STATE while a VI queue is still attached to it. */
VIP_RETURN VipDestroyCQ(VIP_CQ_HANDLE CQHandle);
VIP_RETURN VipResizeCQ(VIP_CQ_HANDLE CQHandle, VIP_ULONG EntryCount);
VIP_RETURN VipCQDone(VIP_CQ_HANDLE CQHandle, VIP_VI_HANDLE* ViHandle, VIP_BOOLEAN* RecvQueue);
VIP_RETURN VipCQWait(VIP_CQ_HANDLE CQHandle, VIP_ULONG Timeout, VIP_VI_HANDLE* ViHandle,
                     VIP_BOOLEAN* RecvQueue);
/* Handler runs once, for the next completion entered in the queue, which
 * leaves the queue and is passed to it (as CQDone would take it); same
 * rules as VipSendNotify. */
typedef void (*VIP_CQ_NOTIFY)(VIP_PVOID Context, VIP_NIC_HANDLE NicHandle, VIP_VI_HANDLE ViHandle,
                              VIP_BOOLEAN RecvQueue);
VIP_RETURN VipCQNotify(VIP_CQ_HANDLE CqHandle, VIP_PVOID Context, VIP_CQ_NOTIFY Handler);

/* --- Name service ------------------------------------------------------------------
 * Node K is named "nodeK"; one address per name (NameIndex 0). */
VIP_RETURN VipNSInit(VIP_NIC_HANDLE NicHandle, VIP_PVOID NSInitInfo);
VIP_RETURN VipNSGetHostByName(VIP_NIC_HANDLE NicHandle, VIP_CHAR* Name, VIP_NET_ADDRESS* Address,
                              VIP_ULONG NameIndex);
/* *NameLen: in, the room at Name; out, the length written with its NUL. */
VIP_RETURN VipNSGetHostByAddr(VIP_NIC_HANDLE NicHandle, VIP_NET_ADDRESS* Address, VIP_CHAR* Name,
                              VIP_ULONG* NameLen);
VIP_RETURN VipNSShutdown(VIP_NIC_HANDLE NicHandle);

#ifdef __cplusplus
}
#endif

#include "vipl_emu.h"

#endif
