// Second C++ object: duplicates cxx_a.cpp's COMDAT groups and adds a static
// constructor with an explicit priority (.init_array.200).

extern "C" int seed_value();

template <typename T>
__attribute__((noinline)) T twice(T v) {
  return v + v;
}

inline int shared_counter() {
  static int n = 0;
  return ++n;
}

struct Early {
  int value;
  Early() : value(seed_value() + 1) {}
};

__attribute__((init_priority(200))) Early early_b;

struct Registered {
  int value;
  Registered() : value(twice(seed_value())) {}
};

Registered registered_b;

extern "C" int cxx_b_value() {
  return registered_b.value + early_b.value + shared_counter() + twice(4);
}

extern "C" void _start() {
  for (;;) {
  }
}
