// Entry object of the loader tests: calls into helper_unit.c, reads its data,
// and keeps function-pointer tables, strings and aligned bss of its own.

extern int add_values(int a, int b);
extern int sub_values(int a, int b);
extern int mul_values(int a, int b);
extern int shared_total;

typedef int (*binary_op)(int, int);

// A constant table of code addresses: R_LANAI_32 words in .rodata.
const binary_op dispatch[3] = {add_values, sub_values, mul_values};
// A pointer to a string: an R_LANAI_32 word in .data pointing into .rodata.
const char* greeting = "hello, lanai";

int counter;
int main_result;
__attribute__((aligned(64))) int aligned_buffer[16];
static int local_state = 7;

__attribute__((noinline)) int main_callback(int value) {
  local_state += value;
  return local_state;
}

int run_dispatch(unsigned which, int a, int b) { return which < 3 ? dispatch[which](a, b) : 0; }

void _start(void) {
  counter = add_values(shared_total, 3);
  aligned_buffer[counter & 15] = run_dispatch(counter, 5, 6);
  main_result = counter + greeting[0];
  for (;;) {
  }
}
