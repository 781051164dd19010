/* Constants shared by start.S and C: assembly cannot include
 * <lanai/register_map.h>, which carries C declarations, so the exit
 * register's address is repeated here (as the base of the register window,
 * loadable with one `mov`, plus an offset) and the native tests check that
 * the sum still equals LANAI_REG_EXIT. */
#ifndef LANAI_RT_START_ABI_H
#define LANAI_RT_START_ABI_H

#define LANAI_RT_MMIO_BASE 0xFFFF0000
#define LANAI_RT_EXIT_OFFSET 0x4

#endif
