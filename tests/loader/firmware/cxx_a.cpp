// C++ features the loader must handle: an inline function and a template
// instantiated in two objects (COMDAT groups) and static constructors.

// Volatile so that the compiler cannot fold the constructors away.
volatile int seed_source = 5;

extern "C" __attribute__((noinline)) int seed_value() { return seed_source; }

template <typename T>
__attribute__((noinline)) T twice(T v) {
  return v + v;
}

inline int shared_counter() {
  static int n = 0;
  return ++n;
}

struct Registered {
  int value;
  Registered() : value(twice(seed_value())) {}
};

Registered registered_a;

extern "C" int cxx_a_value() { return registered_a.value + shared_counter() + twice(3); }
