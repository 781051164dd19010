// Part "b" of the firmware-folder tests' base: two functions a variant
// replacing the part must both define, and the same weak helper as part "a".

__attribute__((weak)) int shared_helper(int x) { return x + 1; }

int beta_extra(int x) { return x * 3; }

int beta(int x) { return beta_extra(shared_helper(x)); }
