/* _start, the first code the LANai runs: sets up the stack, clears .bss,
 * runs the static constructors, calls main and hands its return value to
 * the exit register. The loader defines the linker-style symbols used here. */
#include "start_abi.h"

	.text
	.globl	_start
	.p2align	2
	.type	_start,@function
_start:
	/* The stack grows down from __stack_top; pushes pre-decrement, so the
	 * first word used is the one just below it. %fp starts equal to %sp
	 * and gives the constructor loop a frame for the state it must keep
	 * across calls (every register is caller-saved on the LANai).
	 * Clang's frame code assumes %sp is 8-byte aligned at every call site
	 * (the callee's %fp equals it and 8-byte frame objects are addressed
	 * as `(%fp - k) | 4'), so the stack starts 8-byte aligned. */
	mov	hi(__stack_top), %sp
	or	%sp, lo(__stack_top), %sp
	add	%sp, 0x0, %fp
	sub	%sp, 0x8, %sp

	/* Zero [__bss_start, __bss_end) a word at a time; the loader aligns
	 * both ends to 4 bytes. The store sits in the delay slot of the
	 * backward branch so the loop costs four instructions per word. */
	mov	hi(__bss_start), %r3
	or	%r3, lo(__bss_start), %r3
	mov	hi(__bss_end), %r9
	or	%r9, lo(__bss_end), %r9
.Lbss_loop:
	sub.f	%r3, %r9, %r0
	beq	.Lbss_done
	nop
	bt	.Lbss_loop
	st	%r0, [%r3++]
.Lbss_done:

	/* Call each constructor in [__init_array_start, __init_array_end).
	 * The cursor lives at -4[%fp] because calls clobber all registers. */
	mov	hi(__init_array_start), %r3
	or	%r3, lo(__init_array_start), %r3
	st	%r3, -4[%fp]
.Linit_loop:
	ld	-4[%fp], %r3
	mov	hi(__init_array_end), %r9
	or	%r9, lo(__init_array_end), %r9
	sub.f	%r3, %r9, %r0
	beq	.Linit_done
	nop
	ld	0[%r3], %r9
	add	%r3, 0x4, %r3
	st	%r3, -4[%fp]
	/* The call sequence clang uses: the return address is this
	 * instruction plus 16, just past the jump's delay slot, and is pushed
	 * where the callee's epilogue reloads it from. */
	add	%pc, 0x10, %rca
	st	%rca, [--%sp]
	mov	%r9, %pc
	nop
	bt	.Linit_loop
	nop
.Linit_done:

	/* main(0, NULL): harmless for `int main(void)`, well defined for a
	 * main that does look at argc/argv. */
	mov	0x0, %r6
	mov	0x0, %r7
	add	%pc, 0x10, %rca
	st	%rca, [--%sp]
	bt	main
	nop

	/* The exit write stops the emulator; the loop below only matters to
	 * hardware (or an emulator) that keeps running after it. */
	mov	LANAI_RT_MMIO_BASE, %r3
	st	%rv, LANAI_RT_EXIT_OFFSET[%r3]
.Lhalt:
	bt	.Lhalt
	nop
.Lstart_end:
	.size	_start, .Lstart_end-_start
