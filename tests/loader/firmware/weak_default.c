// Weak symbols: a default hook that a board file may override, and an
// optional feature that may be missing entirely (its address is then 0).

__attribute__((weak)) int board_hook(void) { return 1; }

extern int optional_feature(void) __attribute__((weak));

int call_hook(void) { return board_hook(); }

int has_feature(void) { return optional_feature != 0 ? optional_feature() : -1; }
