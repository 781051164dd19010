// Part "a" of the firmware-folder tests' base: the entry point, a call into
// part "b", and a weak helper such as every user of a shared header carries.

extern int beta(int x);

__attribute__((weak)) int shared_helper(int x) { return x + 1; }

int alpha(int x) { return beta(shared_helper(x)); }

void _start(void) { (void)alpha(1); }
