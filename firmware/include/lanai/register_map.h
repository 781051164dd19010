/* The LANai card's memory map as firmware and emulator see it: where SRAM
 * ends, where the memory-mapped device registers live, and what each
 * register and bit means. Usable from freestanding C/C++ firmware and from
 * the host-side C++ emulator; it is the only thing firmware knows about the
 * hardware. All registers are 32 bits wide and must be accessed with
 * aligned full-word loads and stores. */
#ifndef LANAI_REGISTER_MAP_H
#define LANAI_REGISTER_MAP_H

/* Base of the memory-mapped register window; SRAM starts at address 0. */
#define LANAI_MMIO_BASE 0xFFFF0000u
/* Size of the register window in bytes. */
#define LANAI_MMIO_SIZE 0x00010000u

/* Address of register at byte offset OFF inside the window. */
#define LANAI_REG(off) (LANAI_MMIO_BASE + (off))

/* --- System block (0x0000 - 0x00FF) ------------------------------------ */
/* Write: low byte is sent to the debug console (host stdout). Read: 0. */
#define LANAI_REG_CONSOLE LANAI_REG(0x0000)
/* Write: stops the processor; the written word is the program's exit code. */
#define LANAI_REG_EXIT LANAI_REG(0x0004)
/* Read: low 32 bits of the LANai cycle counter (latches the high half). */
#define LANAI_REG_CYCLE_LO LANAI_REG(0x0008)
/* Read: high 32 bits of the cycle counter as latched by the last CYCLE_LO read. */
#define LANAI_REG_CYCLE_HI LANAI_REG(0x000C)
/* Read: SRAM size in bytes, as configured by the hardware profile. */
#define LANAI_REG_SRAM_SIZE LANAI_REG(0x0010)

/* Read: the current event-status word (LANAI_EV_* bits), for one-load polling. */
#define LANAI_REG_EVENT_STATUS LANAI_REG(0x0014)
/* Write: start the countdown timer for N cycles (0 cancels). Read: cycles left. */
#define LANAI_REG_TIMER LANAI_REG(0x0018)
/* Write: raise an interrupt to the host driver carrying this word (see via_abi.h). */
#define LANAI_REG_HOST_INTERRUPT LANAI_REG(0x001C)
/* Read: this card's node number on the network. */
#define LANAI_REG_NODE_ID LANAI_REG(0x0020)
/* Instrumentation port (the emulator's, not the card's; a write costs what
 * an SRAM store costs). Write: labels the device operations this core
 * starts next with (VI << 16) | (message number & 0xFFFF) in traces;
 * 0xFFFFFFFF: unlabelled. Read: the last word written. */
#define LANAI_REG_TRACE_TAG LANAI_REG(0x0024)
/* Write: SRAM address of the NUL-terminated name of the firmware state the
 * core starts working in (0: back to polling); traces draw the LANai's
 * busy spans from it. Read: the last word written. */
#define LANAI_REG_TRACE_STATE LANAI_REG(0x0028)
/* Write: 1 while the core busy-waits on a device in its current state, 0
 * when it works again; the LANai's work meter and trace spans leave the
 * waits out. Read: the last word written. */
#define LANAI_REG_TRACE_WAIT LANAI_REG(0x002C)
/* Write: a scheduler's 64-bit stamp, low then high word, carried in traces
 * by the device operations this core starts next (0 when not written).
 * Read: the word written. */
#define LANAI_REG_TRACE_STAMP_LO LANAI_REG(0x0030)
#define LANAI_REG_TRACE_STAMP_HI LANAI_REG(0x0034)
/* Writes to addresses in [LANAI_TRACE_PORT_FIRST, LANAI_TRACE_PORT_LAST]. */
#define LANAI_TRACE_PORT_FIRST LANAI_REG_TRACE_TAG
#define LANAI_TRACE_PORT_LAST LANAI_REG_TRACE_STAMP_HI

/* Event-status bits. Level bits follow device state; sticky bits stay set
 * until the named register clears them. */
/* A doorbell entry waits (FIFO mode: in the FIFO; per-VI mode: in any VI queue). */
#define LANAI_EV_DOORBELL 0x00000001u
/* Sticky: a doorbell was dropped because its queue was full (cleared via DB_STATUS). */
#define LANAI_EV_DOORBELL_OVERFLOW 0x00000002u
/* At least one host DMA completion waits in the completion FIFO. */
#define LANAI_EV_HDMA_DONE 0x00000004u
/* The host DMA request queue is empty and the engine idle. */
#define LANAI_EV_HDMA_IDLE 0x00000008u
/* The network send DMA is idle (its last packet's tail has left). */
#define LANAI_EV_NSDMA_IDLE 0x00000010u
/* The network receive DMA holds a received packet (NRDMA_STATUS DONE). */
#define LANAI_EV_NRDMA_DONE 0x00000020u
/* Sticky: the countdown timer expired (cleared by writing TIMER). */
#define LANAI_EV_TIMER 0x00000040u

/* --- Doorbell block (0x0100 - 0x01FF) ----------------------------------
 * Hosts ring doorbells with one posted PCI write each (struct via_doorbell
 * in via_abi.h). FIFO mode merges all VIs in arrival order; per-VI mode
 * keeps one queue per VI and DB_SELECT picks the queue the other registers
 * show. A full queue drops the doorbell, counts it and raises OVERFLOW. */
/* Read: bits 0-15 entries waiting in the (selected) queue; bit 31 sticky
 * overflow. Write: LANAI_DB_STATUS_OVERFLOW clears the sticky bit. */
#define LANAI_REG_DB_STATUS LANAI_REG(0x0100)
#define LANAI_DB_STATUS_COUNT_MASK 0x0000FFFFu
#define LANAI_DB_STATUS_OVERFLOW 0x80000000u
/* Read: pops the head entry of the (selected) queue into the ENTRY latches;
 * returns 1 if an entry was popped, 0 if the queue was empty. */
#define LANAI_REG_DB_POP LANAI_REG(0x0104)
/* Read: latched entry: bits 0-15 VI number, bit 16 set for a receive
 * doorbell, bits 24-31 as the host wrote them (the VI's epoch). */
#define LANAI_REG_DB_ENTRY_VI LANAI_REG(0x0108)
#define LANAI_DB_ENTRY_VI_MASK 0x0000FFFFu
#define LANAI_DB_ENTRY_RECV 0x00010000u
#define LANAI_DB_ENTRY_TAG_MASK 0xFF000000u
/* Read: latched entry: descriptor host address, low and high words. */
#define LANAI_REG_DB_ENTRY_ADDR_LO LANAI_REG(0x010C)
#define LANAI_REG_DB_ENTRY_ADDR_HI LANAI_REG(0x0110)
/* Read: latched entry: memory handle of the region holding the descriptor. */
#define LANAI_REG_DB_ENTRY_HANDLE LANAI_REG(0x0114)
/* Read: doorbells dropped on overflow since reset. */
#define LANAI_REG_DB_OVERFLOWS LANAI_REG(0x0118)
/* Write (per-VI mode): VI whose queue DB_STATUS and DB_POP use. Read: it. */
#define LANAI_REG_DB_SELECT LANAI_REG(0x011C)
/* Read: 0 for FIFO mode, 1 for per-VI mode. */
#define LANAI_REG_DB_MODE LANAI_REG(0x0120)
/* Read: capacity of the FIFO (or of each per-VI queue). */
#define LANAI_REG_DB_CAPACITY LANAI_REG(0x0124)
/* Read: latched entry: the LANai cycle at which the host's doorbell write
 * reached the queue, low and high word (both stable until the next pop). A
 * scheduler stamps the request with the time it was posted, not with the
 * time the firmware got round to it. */
#define LANAI_REG_DB_ENTRY_TIME_LO LANAI_REG(0x0128)
#define LANAI_REG_DB_ENTRY_TIME_HI LANAI_REG(0x012C)

/* --- Host DMA block (0x0200 - 0x02FF) ----------------------------------
 * Requests are staged in the HDMA_* registers and committed by a write to
 * APPEND or INSERT; HDMA_RESULT answers at once. The engine serves the
 * queue from its head, one request at a time, checking the memory handle,
 * protection tag and bounds against the host's registrations; a request
 * that fails the check moves no byte and completes with a PROT status. */
/* Write: host virtual address of the transfer, low and high words. */
#define LANAI_REG_HDMA_HOST_LO LANAI_REG(0x0200)
#define LANAI_REG_HDMA_HOST_HI LANAI_REG(0x0204)
/* Write: memory handle the host address belongs to. */
#define LANAI_REG_HDMA_HANDLE LANAI_REG(0x0208)
/* Write: protection tag the region must carry (the VI's tag). */
#define LANAI_REG_HDMA_PTAG LANAI_REG(0x020C)
/* Write: SRAM address of the transfer. */
#define LANAI_REG_HDMA_SRAM LANAI_REG(0x0210)
/* Write: byte count (0 allowed: a pure protection check). */
#define LANAI_REG_HDMA_LENGTH LANAI_REG(0x0214)
/* Write: queue the staged request at the tail; the word is its direction. */
#define LANAI_REG_HDMA_APPEND LANAI_REG(0x0218)
/* Write: queue the staged request at position (bits 8-23) with direction
 * (bits 0-1). Positions count from the oldest request whose completion has
 * not been popped (0: ahead of everything the firmware has not yet seen
 * complete). A request cannot go ahead of one completed or in service, and
 * positions inside the waiting entries the engine may already have taken
 * (nic.hdma_race_entries) land just behind them. */
#define LANAI_REG_HDMA_INSERT LANAI_REG(0x021C)
#define LANAI_HDMA_TO_SRAM 0u /* host memory to SRAM */
#define LANAI_HDMA_TO_HOST 1u /* SRAM to host memory */
/* Host memory to SRAM on behalf of another node (an RDMA read): the region
 * must also have been registered with remote reads enabled. */
#define LANAI_HDMA_TO_SRAM_REMOTE 2u
/* SRAM to host memory on behalf of another node (an RDMA write): the region
 * must also have been registered with remote writes enabled. */
#define LANAI_HDMA_TO_HOST_REMOTE 3u
#define LANAI_HDMA_POSITION_SHIFT 8
/* Read: outcome of the last APPEND/INSERT. Accepted: bit 31 set, bits 0-15
 * the request id, bits 16-27 the position it landed at (counted as INSERT
 * counts). Refused: bit 31
 * clear and one of the LANAI_HDMA_REFUSED_* codes. */
#define LANAI_REG_HDMA_RESULT LANAI_REG(0x0220)
#define LANAI_HDMA_ACCEPTED 0x80000000u
#define LANAI_HDMA_ID_MASK 0x0000FFFFu
#define LANAI_HDMA_POSITION(result) (((result) >> 16) & 0x0FFFu)
#define LANAI_HDMA_REFUSED_FULL 1u       /* the request queue is full */
#define LANAI_HDMA_REFUSED_SRAM_RANGE 2u /* SRAM address or length outside SRAM */
/* Read: requests queued, including the one in service. */
#define LANAI_REG_HDMA_QUEUED LANAI_REG(0x0224)
/* Read: pops one completion: 0 if none, else bit 31, status in bits 16-23
 * and the request id in bits 0-15. Completions come in service order. */
#define LANAI_REG_HDMA_DONE_POP LANAI_REG(0x0228)
#define LANAI_HDMA_DONE_VALID 0x80000000u
#define LANAI_HDMA_DONE_STATUS(word) (((word) >> 16) & 0xFFu)
#define LANAI_HDMA_OK 0u          /* bytes moved */
#define LANAI_HDMA_PROT_HANDLE 1u /* no live registration for the handle */
#define LANAI_HDMA_PROT_TAG 2u    /* region's protection tag differs */
#define LANAI_HDMA_PROT_BOUNDS 3u /* transfer not inside the region */
#define LANAI_HDMA_PROT_REMOTE 4u /* remote write (read) to a region that refuses it */

/* --- Network send DMA block (0x0300 - 0x03FF) --------------------------
 * One packet at a time, no queue. The buffer starts with ROUTE_LEN source
 * route bytes (first hop first) followed by the packet payload. */
/* Write: SRAM address and total length (route bytes included) of the buffer. */
#define LANAI_REG_NSDMA_SRAM LANAI_REG(0x0300)
#define LANAI_REG_NSDMA_LENGTH LANAI_REG(0x0304)
/* Write: number of route bytes at the head of the buffer. */
#define LANAI_REG_NSDMA_ROUTE_LEN LANAI_REG(0x0308)
/* Write: start sending the staged buffer; NSDMA_RESULT answers at once. */
#define LANAI_REG_NSDMA_START LANAI_REG(0x030C)
/* Read: outcome of the last START. */
#define LANAI_REG_NSDMA_RESULT LANAI_REG(0x0310)
#define LANAI_NSDMA_ACCEPTED 1u
#define LANAI_NSDMA_BUSY 2u       /* the previous packet has not left */
#define LANAI_NSDMA_TOO_LARGE 3u  /* payload beyond wire.max_payload_bytes */
#define LANAI_NSDMA_NO_ROUTE 4u   /* zero route bytes */
#define LANAI_NSDMA_SRAM_RANGE 5u /* buffer outside SRAM or shorter than its route */
/* Read: bit 0 busy; bits 8-31 packets completed since reset. */
#define LANAI_REG_NSDMA_STATUS LANAI_REG(0x0314)
#define LANAI_NSDMA_STATUS_BUSY 0x1u

/* --- Network receive DMA block (0x0400 - 0x04FF) -----------------------
 * Armed with one SRAM buffer, it takes the next arriving packet (arrival
 * order) and disarms. While it is not armed the link is held in STOP and
 * packets wait in the fabric: nothing is lost. */
/* Write: SRAM address and capacity in bytes of the receive buffer. */
#define LANAI_REG_NRDMA_SRAM LANAI_REG(0x0400)
#define LANAI_REG_NRDMA_CAPACITY LANAI_REG(0x0404)
/* Write: arm with the staged buffer; NRDMA_RESULT answers at once. */
#define LANAI_REG_NRDMA_ARM LANAI_REG(0x0408)
/* Read: outcome of the last ARM. */
#define LANAI_REG_NRDMA_RESULT LANAI_REG(0x040C)
#define LANAI_NRDMA_ACCEPTED 1u
#define LANAI_NRDMA_BUSY 2u       /* already armed, or DONE not yet acknowledged */
#define LANAI_NRDMA_SRAM_RANGE 3u /* buffer outside SRAM */
/* Read: receive state. Write LANAI_NRDMA_STATUS_DONE to acknowledge a packet. */
#define LANAI_REG_NRDMA_STATUS LANAI_REG(0x0410)
#define LANAI_NRDMA_STATUS_ARMED 0x1u     /* waiting for a packet */
#define LANAI_NRDMA_STATUS_DONE 0x2u      /* a packet is in the buffer */
#define LANAI_NRDMA_STATUS_BAD_CRC 0x4u   /* ... and its checksum failed */
#define LANAI_NRDMA_STATUS_TRUNCATED 0x8u /* ... and it was longer than the buffer */
/* Read: payload length of the received packet (before truncation). */
#define LANAI_REG_NRDMA_LENGTH LANAI_REG(0x0414)
/* Read: node that sent the received packet. */
#define LANAI_REG_NRDMA_SOURCE LANAI_REG(0x0418)
/* Read: the LANai cycle at which the received packet's tail reached the
 * card, low and high word (both stable until the next packet is done). */
#define LANAI_REG_NRDMA_TIME_LO LANAI_REG(0x041C)
#define LANAI_REG_NRDMA_TIME_HI LANAI_REG(0x0420)

#include <stdint.h>

/* Firmware-side accessors for the registers above. */
static inline void lanai_mmio_write(uint32_t addr, uint32_t value) {
  *(volatile uint32_t*)(uintptr_t)addr = value;
}
static inline uint32_t lanai_mmio_read(uint32_t addr) {
  return *(volatile uint32_t*)(uintptr_t)addr;
}

#endif
