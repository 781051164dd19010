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

#include <stdint.h>

/* Firmware-side accessors for the registers above. */
static inline void lanai_mmio_write(uint32_t addr, uint32_t value) {
  *(volatile uint32_t *)(uintptr_t)addr = value;
}
static inline uint32_t lanai_mmio_read(uint32_t addr) {
  return *(volatile uint32_t *)(uintptr_t)addr;
}

#endif
