// Small code model with an object too large for it: the buffer sits in
// .ldata, which the compiler reaches with 32-bit addresses and the loader
// places above bss, so the small objects keep their 21-bit addresses.
__attribute__((section(".ldata"))) unsigned char large_buffer[1536 * 1024] = {0};
int small_counter = 5;
int zeroed_counter;

void _start(void) {
  small_counter += large_buffer[1000];
  zeroed_counter = small_counter;
  large_buffer[sizeof large_buffer - 1] = (unsigned char)zeroed_counter;
}

// A zero-filled (NOBITS) .ldata section, as assembly may declare one: it is
// large data all the same, not bss.
__asm__(".section .ldata.reserved,\"aw\",@nobits\n"
        ".globl reserved_area\n"
        ".p2align 3\n"
        "reserved_area:\n"
        ".skip 4096\n"
        ".text\n");
