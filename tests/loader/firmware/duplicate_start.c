// A second strong definition of _start, clashing with main_unit.c.

void _start(void) {
  for (;;) {
  }
}
