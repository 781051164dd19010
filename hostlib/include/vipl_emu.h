/* What a host program on the emulator may ask beyond VIA: virtual time,
 * charged computation, which node it runs on, and the launcher's seed.
 * A program defines via_main(); the launcher (lanai_vipl's main) runs it
 * on every node:
 *   ./prog --nodes N [--switches K] [--profile NAME|FILE]
 *          [--firmware NAME | --firmware-image A.o,B.o...]
 *          [--firmware-node I=NAME | --firmware-node I=@A.o,B.o...]...
 *          [--admission FRACTION] [--seed S] [--stats FILE] [-- ARGS...]
 * --firmware-image (or I=@...) links the given LANai objects with the
 * firmware runtime instead of a named firmware; --admission switches QoS
 * admission control on (see lanai_emu_last_error below).
 * and each copy sees argv = {program name, ARGS...}.
 * All copies run in one process, each on its own stack, taking turns in
 * virtual time: global and static variables are shared by every node, so
 * keep per-node state in via_main's locals (or index it by lanai_emu_node()),
 * or run the program with `lanai-emu launch`, which loads a private copy of
 * it per node (and runs ordinary programs with main() the same way).
 * Each stack holds 256 KiB: allocate large buffers with malloc.
 * Called outside an emulated node, every VIPL function returns
 * VIP_ERROR_RESOURCE. */
#ifndef LANAI_VIPL_EMU_H
#define LANAI_VIPL_EMU_H

#include <stdint.h>

#include "vipl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the host program. */
int via_main(int argc, char** argv);

/* VipQuerySystemManagementInfo's one InfoType: SysManInfo points to a
 * LANAI_EMU_NIC_COUNTERS, filled with this node's NIC counters since the
 * run began. Other InfoTypes: VIP_ERROR_NOT_SUPPORTED. */
#define LANAI_EMU_SMI_NIC_COUNTERS 1
typedef struct {
  uint64_t doorbells_rung;         /* doorbells the host rang */
  uint64_t doorbell_overflows;     /* doorbells lost to a full FIFO */
  uint64_t hdma_requests;          /* host DMA transfers the firmware queued */
  uint64_t hdma_bytes_to_sram;     /* bytes read from host memory */
  uint64_t hdma_bytes_to_host;     /* bytes written into host memory */
  uint64_t hdma_protection_errors; /* transfers refused by the protection table */
  uint64_t packets_sent;           /* packets the network send DMA sent */
  uint64_t bytes_sent;
  uint64_t packets_received; /* packets the network receive DMA took in */
  uint64_t bytes_received;
} LANAI_EMU_NIC_COUNTERS;

/* Virtual time now, in nanoseconds (0 outside an emulated node). */
uint64_t lanai_emu_now_ns(void);
/* Spends ns of host CPU time: the program's clock moves on by ns. */
void lanai_emu_compute_ns(uint64_t ns);
/* A launched program's wall clock (CLOCK_REALTIME, gettimeofday, time)
 * reads virtual time from this instant: 2000-01-01T00:00:00Z. */
#define LANAI_EMU_EPOCH_S 946684800
/* Sleeps ns of virtual time without using the CPU (usleep, nanosleep and
 * sleep of a launched program come here). */
void lanai_emu_sleep_ns(uint64_t ns);
/* Reads the virtual clock as a program's clock read does: costs the
 * profile's host.clock_read_ns first, so a loop that waits for the clock
 * to move sees it move. 0 outside an emulated node. */
uint64_t lanai_emu_clock_read_ns(void);
/* Ends this node's program with `status`, as exit() ends a process (a
 * launched program's exit() comes here). Outside an emulated node it
 * returns, and the caller exits the process. */
void lanai_emu_exit(int status);
/* This node's number, 0..lanai_emu_nodes()-1 (-1 outside an emulated node). */
int lanai_emu_node(void);
/* Nodes in the emulated cluster (0 outside one). */
int lanai_emu_nodes(void);
/* The launcher's --seed (the same on every node). */
uint64_t lanai_emu_seed(void);
/* VipCQWait with a deadline in virtual time: waits until a completion is
 * on the queue or lanai_emu_now_ns() reaches deadline_ns, whichever comes
 * first, and returns VIP_TIMEOUT at the deadline (at once if it has
 * passed and no completion waits). For programs that must wake at an exact
 * instant, a traffic source's next message say, and reap completions
 * meanwhile: VipCQWait's timeouts are whole milliseconds. */
VIP_RETURN lanai_emu_cq_wait_until(VIP_CQ_HANDLE cq, uint64_t deadline_ns, VIP_VI_HANDLE* vi,
                                   VIP_BOOLEAN* recv_queue);
/* Why the last call refused with VIP_INVALID_QOS on this node was refused,
 * as one line, e.g. "node1 incoming link: 150000000 B/s reserved +
 * 40000000 B/s requested > 0.9 x 160000000 B/s"; "" if none was (or
 * outside an emulated node). Valid until the node's next refusal.
 * QoS admission control (off unless the profile's host.admission_fraction
 * or the launcher's --admission FRACTION is above 0) reserves a VI's rate
 * on its node's outgoing link at VipCreateVi (and VipSetViAttributes), and
 * at connection set-up each side's rate on the other node's incoming link;
 * a reservation taking a link past FRACTION x its bandwidth is refused.
 * VipDisconnect releases the incoming reservations of both sides,
 * VipDestroyVi the outgoing one. */
const char* lanai_emu_last_error(void);

/* How firmware that pipelines messages (PVIA, QoS-VIA) cuts this VI's sends
 * into fragments; the receiving side reassembles whatever it gets. SVIA
 * ignores it. policy is one of VIA_FRAG_NONE, _STATIC, _FIXED_OPTIMAL,
 * _RAMP_UP, _ADAPTIVE (lanai/via_abi.h). bytes: STATIC's fragment size,
 * the smallest fragment for the others (0: the alignment, 8 bytes).
 * param: FIXED_OPTIMAL and ADAPTIVE (as its starting point) take g_b in
 * ns and the other stages' summed G in ns per KB; RAMP_UP takes g_0, G_0,
 * g_1, G_1 (ns, ns per KB). New VIs start with VIA_FRAG_NONE. Takes effect
 * for messages whose descriptor the firmware reads afterwards. Refused with
 * VIP_INVALID_PARAMETER (reason in lanai_emu_last_error) for an unknown
 * policy, a STATIC size of 0 or above the VI's MaxTransferSize, or
 * figures the policy cannot use (g_b 0, G_0 0). */
typedef struct {
  uint32_t policy;
  uint32_t bytes;
  uint32_t param[4];
} LANAI_EMU_FRAGMENTATION;
VIP_RETURN lanai_emu_set_fragmentation(VIP_VI_HANDLE vi, const LANAI_EMU_FRAGMENTATION* how);

/* Credit flow control on this VI (off on new VIs). The receiving card
 * grants a credit for each receive posted; the sending card holds each send
 * that would take a receive at the peer (a send, an RDMA write with
 * immediate data) until it has a credit for it, and the sends behind it in
 * the queue wait with it. A sender that runs ahead of its receiver then
 * waits instead of overrunning it: nothing is dropped for want of a
 * receive, and VipPostSend still returns at once. Both ends of a connection
 * must set it (a connection between ends that differ is refused with
 * VIP_INVALID_PARAMETER). Set while the VI is idle with nothing posted
 * (VIP_INVALID_STATE otherwise); VIP_ERROR_NOT_SUPPORTED if the firmware
 * has no flow control (SVIA, PVIA and QoS-VIA have), VIP_ERROR_RESOURCE past
 * VIA_MAX_FLOW_VI VIs on one node. Reason in lanai_emu_last_error. */
VIP_RETURN lanai_emu_set_flow_control(VIP_VI_HANDLE vi, VIP_BOOLEAN on);

#ifdef __cplusplus
}
#endif

#endif
