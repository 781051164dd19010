// Second object of the loader tests: defines what main_unit.c uses and calls
// back into it, so the two objects reference each other.

extern int main_callback(int value);

int shared_total = 42;
int helper_scratch;
static int call_count;

__attribute__((noinline)) int add_values(int a, int b) {
  ++call_count;
  return main_callback(a) + b;
}

__attribute__((noinline)) int sub_values(int a, int b) {
  ++call_count;
  return a - b;
}

__attribute__((noinline)) int mul_values(int a, int b) {
  ++call_count;
  helper_scratch = a;
  return (a << 2) + b + shared_total;
}
