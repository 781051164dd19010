// Corpus: freestanding C++ as firmware would use it: templates, classes
// with virtual functions, lambdas and CRTP. No exceptions, RTTI or standard
// library; the cases are exposed to the C table with C linkage.
#include "diff_cases.h"

namespace {

// Folds a value into an accumulator; rotate/xor/add like the C corpus.
constexpr uint64_t mix(uint64_t acc, uint64_t v) {
  acc ^= v;
  acc = (acc << 13) | (acc >> 51);
  return acc + 0x9E3779B97F4A7C15u;
}

// Generic reductions instantiated for several widths and signedness.
template <typename T, unsigned N>
T checked_sum(const T (&values)[N]) {
  T total = 0;
  for (unsigned i = 0; i < N; ++i)
    total = static_cast<T>(total + values[i]);
  return total;
}

template <typename T>
T max_of(T a, T b) {
  return a < b ? b : a;
}

template <typename T, unsigned N>
T max_element(const T (&values)[N]) {
  T best = values[0];
  for (unsigned i = 1; i < N; ++i)
    best = max_of(best, values[i]);
  return best;
}

// A small hierarchy dispatched through vtables.
class shape {
public:
  virtual uint64_t area() const = 0;
  virtual uint64_t perimeter() const = 0;
  virtual uint32_t kind() const { return 0; }
};

class rectangle : public shape {
public:
  rectangle(uint32_t w, uint32_t h) : w_(w), h_(h) {}
  uint64_t area() const override { return static_cast<uint64_t>(w_) * h_; }
  uint64_t perimeter() const override { return 2u * (uint64_t{w_} + h_); }
  uint32_t kind() const override { return 1; }

protected:
  uint32_t w_, h_;
};

class square final : public rectangle {
public:
  explicit square(uint32_t s) : rectangle(s, s) {}
  uint32_t kind() const override { return 2; }
};

class triangle : public shape {
public:
  triangle(uint32_t a, uint32_t b, uint32_t c) : a_(a), b_(b), c_(c) {}
  uint64_t area() const override { // twice the area of a right triangle
    return static_cast<uint64_t>(a_) * b_;
  }
  uint64_t perimeter() const override { return uint64_t{a_} + b_ + c_; }

private:
  uint32_t a_, b_, c_;
};

uint64_t describe(const shape& s) { return mix(mix(s.area(), s.perimeter()), s.kind()); }

// Applies a callable repeatedly; the lambdas below are inlined or called
// through their closure type depending on the optimisation level.
template <typename F>
uint64_t iterate(uint64_t seed, unsigned times, F f) {
  for (unsigned i = 0; i < times; ++i)
    seed = f(seed, i);
  return seed;
}

// Fixed-capacity stack: a class template with member functions and
// operator overloading, storage in the object itself.
template <typename T, unsigned Capacity>
class fixed_stack {
public:
  bool push(T v) {
    if (size_ == Capacity)
      return false;
    items_[size_++] = v;
    return true;
  }
  bool pop(T& out) {
    if (size_ == 0)
      return false;
    out = items_[--size_];
    return true;
  }
  unsigned size() const { return size_; }
  T operator[](unsigned i) const { return items_[i]; }

private:
  T items_[Capacity] = {};
  unsigned size_ = 0;
};

// Static polymorphism: the base calls into the derived class without a
// vtable; evaluated both at compile time and at run time.
template <typename Derived>
struct checksum_base {
  constexpr uint32_t run(const uint32_t* data, unsigned n) const {
    uint32_t state = static_cast<const Derived*>(this)->start();
    for (unsigned i = 0; i < n; ++i)
      state = static_cast<const Derived*>(this)->step(state, data[i]);
    return state;
  }
};

struct adler_like : checksum_base<adler_like> {
  constexpr uint32_t start() const { return 1u; }
  constexpr uint32_t step(uint32_t s, uint32_t v) const {
    uint32_t lo = ((s & 0xFFFFu) + (v & 0xFFFFu)) % 65521u;
    uint32_t hi = ((s >> 16) + lo) % 65521u;
    return (hi << 16) | lo;
  }
};

struct xor_shift : checksum_base<xor_shift> {
  constexpr uint32_t start() const { return 0x811C9DC5u; }
  constexpr uint32_t step(uint32_t s, uint32_t v) const {
    s ^= v;
    s ^= s << 13;
    s ^= s >> 17;
    return s ^ (s << 5);
  }
};

constexpr uint32_t kConstantData[4] = {1u, 2u, 3u, 0xFFFFFFFFu};
constexpr uint32_t kFolded = adler_like{}.run(kConstantData, 4);
static_assert(kFolded != 0u, "evaluated at compile time");

} // namespace

extern "C" uint64_t diff_cpp_templates(const uint64_t in[4]) {
  int8_t bytes[5];
  uint16_t halves[4];
  int64_t wides[3];
  for (unsigned i = 0; i < 5; ++i)
    bytes[i] = static_cast<int8_t>(static_cast<uint8_t>(in[0] >> (i * 8)));
  for (unsigned i = 0; i < 4; ++i)
    halves[i] = static_cast<uint16_t>(in[1] >> (i * 16));
  for (unsigned i = 0; i < 3; ++i)
    wides[i] = static_cast<int64_t>(in[2 + (i & 1)] >> i);
  uint64_t acc = static_cast<uint64_t>(static_cast<int64_t>(checked_sum(bytes)));
  acc = mix(acc, checked_sum(halves));
  acc = mix(acc, static_cast<uint64_t>(max_element(wides)));
  acc = mix(acc, static_cast<uint64_t>(max_element(bytes)));
  return mix(acc, max_element(halves));
}

extern "C" uint64_t diff_cpp_virtual_dispatch(const uint64_t in[4]) {
  rectangle r(static_cast<uint32_t>(in[0]) & 0xFFFFFu,
              static_cast<uint32_t>(in[0] >> 32) & 0xFFFFu);
  square s(static_cast<uint32_t>(in[1]));
  triangle t(static_cast<uint32_t>(in[2]), static_cast<uint32_t>(in[2] >> 32),
             static_cast<uint32_t>(in[3]));
  const shape* shapes[3] = {&r, &s, &t};
  uint64_t acc = 0;
  // The order depends on the input, so the calls cannot be devirtualised.
  for (unsigned i = 0; i < 6; ++i)
    acc = mix(acc, describe(*shapes[(in[3] >> (i * 2)) % 3u]));
  return acc;
}

extern "C" uint64_t diff_cpp_lambdas(const uint64_t in[4]) {
  uint64_t k = in[1] | 1u;
  unsigned calls = 0;
  auto step = [k, &calls](uint64_t v, unsigned i) {
    ++calls;
    return (v ^ (k >> (i & 31u))) + (v << 3) + i;
  };
  uint64_t a = iterate(in[0], 10, step);
  auto clamp = [](uint64_t v, uint64_t lo, uint64_t hi) { return v < lo ? lo : (v > hi ? hi : v); };
  uint64_t lo = in[2] >> 1, hi = lo + (in[3] >> 4);
  uint64_t b = iterate(in[3], 5, [&](uint64_t v, unsigned) { return clamp(v * 3u, lo, hi) ^ a; });
  return mix(mix(a, b), calls);
}

extern "C" uint64_t diff_cpp_fixed_stack(const uint64_t in[4]) {
  fixed_stack<uint32_t, 12> stack;
  uint64_t ops = in[0];
  uint64_t acc = 0;
  for (unsigned i = 0; i < 32; ++i) {
    if (ops & 1u) {
      uint32_t v = static_cast<uint32_t>(in[1 + (i % 3u)] >> i);
      acc += stack.push(v) ? 1u : 100u;
    } else {
      uint32_t v = 0;
      acc = stack.pop(v) ? mix(acc, v) : acc + 7u;
    }
    ops >>= 1;
  }
  for (unsigned i = 0; i < stack.size(); ++i)
    acc = mix(acc, stack[i]);
  return mix(acc, stack.size());
}

extern "C" uint64_t diff_cpp_crtp_constexpr(const uint64_t in[4]) {
  uint32_t data[8];
  for (unsigned i = 0; i < 8; ++i)
    data[i] = static_cast<uint32_t>(in[i & 3u] >> ((i >> 2) * 32u));
  uint32_t a = adler_like{}.run(data, 8);
  uint32_t x = xor_shift{}.run(data, 1 + (static_cast<unsigned>(in[3]) & 7u));
  return mix(mix(a, x), kFolded);
}
