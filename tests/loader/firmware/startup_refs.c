// What a startup routine needs from the linker: the bounds of bss and of the
// constructor table, and the initial stack pointer.

extern char __bss_start[], __bss_end[], __stack_top[], __image_end[];
typedef void (*constructor)(void);
extern constructor __init_array_start[], __init_array_end[];

void* const startup_table[5] = {__bss_start, __bss_end, __stack_top, __init_array_start,
                                __init_array_end};

char* bss_start(void) { return __bss_start; }
char* image_end(void) { return __image_end; }
