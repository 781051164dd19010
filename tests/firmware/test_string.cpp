// The runtime's memcpy, memmove, memset, memcmp and strlen against simple
// byte-at-a-time references, for every alignment of source and destination,
// overlaps in both directions and every length from 0 to 64.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "lanai_rt.h"

namespace {

constexpr size_t kBuffer = 160;
constexpr size_t kMaxLen = 64;
using buffer = std::array<unsigned char, kBuffer>;

// Distinct, non-zero bytes (including ones with the top bit set) so that a
// misplaced or missing byte always shows.
void fill_pattern(buffer& b, unsigned seed) {
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<unsigned char>(1u + (i * 37u + seed * 11u) % 255u);
}

int sign(int v) { return (v > 0) - (v < 0); }

} // namespace

TEST_CASE("memcpy copies exactly the requested bytes at every alignment") {
  alignas(8) buffer src, dst, expected;
  for (size_t sa = 0; sa < 8; ++sa) {
    for (size_t da = 0; da < 8; ++da) {
      for (size_t len = 0; len <= kMaxLen; ++len) {
        fill_pattern(src, 1);
        dst.fill(0xEE); // guard value around the destination
        expected = dst;
        for (size_t i = 0; i < len; ++i)
          expected[da + i] = src[sa + i];
        void* ret = rt_native_memcpy(dst.data() + da, src.data() + sa, len);
        if (ret != dst.data() + da || dst != expected) {
          INFO("src align ", sa, " dst align ", da, " len ", len);
          CHECK(ret == dst.data() + da);
          CHECK(dst == expected);
        }
      }
    }
  }
}

TEST_CASE("memmove handles overlap in both directions") {
  alignas(8) buffer b, expected;
  // Offsets up to 16 apart cover every relative alignment and both
  // directions; lengths up to 64 make most pairs overlap.
  for (size_t so = 0; so < 16; ++so) {
    for (size_t dof = 0; dof < 16; ++dof) {
      for (size_t len = 0; len <= kMaxLen; ++len) {
        fill_pattern(b, 2);
        expected = b;
        unsigned char tmp[kMaxLen];
        for (size_t i = 0; i < len; ++i)
          tmp[i] = expected[so + i];
        for (size_t i = 0; i < len; ++i)
          expected[dof + i] = tmp[i];
        void* ret = rt_native_memmove(b.data() + dof, b.data() + so, len);
        if (ret != b.data() + dof || b != expected) {
          INFO("src offset ", so, " dst offset ", dof, " len ", len);
          CHECK(ret == b.data() + dof);
          CHECK(b == expected);
        }
      }
    }
  }
}

TEST_CASE("memmove between separate buffers behaves like memcpy") {
  alignas(8) buffer src, dst, expected;
  for (size_t sa = 0; sa < 8; ++sa) {
    for (size_t da = 0; da < 8; ++da) {
      for (size_t len = 0; len <= kMaxLen; ++len) {
        fill_pattern(src, 3);
        dst.fill(0x11);
        expected = dst;
        for (size_t i = 0; i < len; ++i)
          expected[da + 50 + i] = src[sa + i];
        rt_native_memmove(dst.data() + da + 50, src.data() + sa, len);
        if (dst != expected) {
          INFO("src align ", sa, " dst align ", da, " len ", len);
          CHECK(dst == expected);
        }
      }
    }
  }
}

TEST_CASE("memset writes the low byte of its value and nothing else") {
  alignas(8) buffer b, expected;
  const int values[] = {0, 0xFF, 0x80, 0x5A, 0x1A5, -1, -128};
  for (int value : values) {
    for (size_t da = 0; da < 8; ++da) {
      for (size_t len = 0; len <= kMaxLen; ++len) {
        fill_pattern(b, 4);
        expected = b;
        for (size_t i = 0; i < len; ++i)
          expected[da + i] = static_cast<unsigned char>(value);
        void* ret = rt_native_memset(b.data() + da, value, len);
        if (ret != b.data() + da || b != expected) {
          INFO("value ", value, " align ", da, " len ", len);
          CHECK(ret == b.data() + da);
          CHECK(b == expected);
        }
      }
    }
  }
}

TEST_CASE("memcmp orders by the first differing byte, as unsigned") {
  alignas(8) buffer a, b;
  for (size_t aa = 0; aa < 8; ++aa) {
    for (size_t ba = 0; ba < 8; ++ba) {
      for (size_t len = 0; len <= kMaxLen; ++len) {
        fill_pattern(a, 5);
        b.fill(0);
        for (size_t i = 0; i < len; ++i)
          b[ba + i] = a[aa + i];
        if (rt_native_memcmp(a.data() + aa, b.data() + ba, len) != 0) {
          INFO("equal, align ", aa, "/", ba, " len ", len);
          CHECK(false);
        }
        // One differing byte at each position, both smaller and larger;
        // bytes after it are made to disagree the other way round.
        for (size_t k = 0; k < len; ++k) {
          unsigned char saved = b[ba + k];
          for (int delta : {1, -1, 0x80}) {
            b[ba + k] = static_cast<unsigned char>(saved + delta);
            if (k + 1 < len)
              b[ba + k + 1] = static_cast<unsigned char>(a[aa + k + 1] - delta);
            int expected = sign(static_cast<int>(a[aa + k]) - b[ba + k]);
            int got = sign(rt_native_memcmp(a.data() + aa, b.data() + ba, len));
            if (got != expected) {
              INFO("align ", aa, "/", ba, " len ", len, " at ", k, " delta ", delta);
              CHECK(got == expected);
            }
            if (k + 1 < len)
              b[ba + k + 1] = a[aa + k + 1];
          }
          b[ba + k] = saved;
        }
      }
    }
  }
}

TEST_CASE("strlen finds the terminator at every alignment and length") {
  alignas(8) buffer b;
  for (size_t align = 0; align < 8; ++align) {
    for (size_t len = 0; len <= kMaxLen; ++len) {
      fill_pattern(b, static_cast<unsigned>(len)); // non-zero everywhere
      b[align + len] = 0;
      // The buffer extends well past the terminator's word, so the aligned
      // word reads stay inside it.
      const char* s = reinterpret_cast<const char*>(b.data() + align);
      size_t got = rt_native_strlen(s);
      if (got != len) {
        INFO("align ", align, " len ", len);
        CHECK(got == len);
      }
    }
  }
  // Bytes 0x01 and 0x80, the borrow edges of the zero-byte test.
  alignas(4) char tricky[16] = {'\x01', '\x80', '\x81', '\x01', '\x7f', '\xff', '\x01', '\x01',
                                '\x80', '\x80', 0,      0,      0,      0,      0,      0};
  CHECK(rt_native_strlen(tricky) == 10u);
  CHECK(rt_native_strlen(tricky + 3) == 7u);
}
