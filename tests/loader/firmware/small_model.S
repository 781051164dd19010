// Small absolute addressing: SLS loads/stores and SLI moves take a 21-bit
// address (R_LANAI_21), which covers the lowest and highest 1 MiB.
	.text
	.globl	_start
	.type	_start,@function
_start:
	ld	[small_word], %r3
	st	%r3, [small_word+4]
	mov	small_word, %r9
	ld	[small_table], %r3
.Lend:
	.size	_start, .Lend-_start

	.data
	.p2align	2
	.globl	small_word
small_word:
	.long	0x11223344
	.long	_start
	.globl	small_table
small_table:
	.long	small_word
