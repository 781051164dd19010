// A variant of part "b" that defines beta() but forgets beta_extra(), and
// carries the weak helper too: it must replace part "b" only.

__attribute__((weak)) int shared_helper(int x) { return x + 1; }

int beta(int x) { return shared_helper(x) * 2; }
