// A fixed-size array whose memory starts as zeros without being written:
// fresh pages the operating system zeroes on first touch, so a card's SRAM
// and predecode tables cost memory and time only for the parts its
// firmware uses. Large arrays are mapped directly rather than taken from
// calloc: once a large block has been freed, the allocator raises its
// mapping threshold and serves the next ones from its heap, which calloc
// must then clear byte by byte (a sweep builds and drops a cluster per
// point). For implicit-lifetime types only (the zero bytes are the
// objects).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#include <sys/mman.h>

namespace lanai::iss {

// Frees what zeroed_array() allocated: `mapped` bytes unmapped, or (0) a
// calloc'ed block.
struct ZeroedDeleter {
  std::size_t mapped = 0;
  void operator()(void* p) const {
    if (mapped != 0)
      ::munmap(p, mapped);
    else
      std::free(p);
  }
};

template <class T>
using ZeroedArray = std::unique_ptr<T[], ZeroedDeleter>;

// Arrays of at least this many bytes are mapped, except under
// AddressSanitizer, which guards only what the allocator hands out: there
// every array comes from calloc, so that an access past its end is caught.
#if defined(__SANITIZE_ADDRESS__)
#define LANAI_ZEROED_ARRAYS_FROM_CALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANAI_ZEROED_ARRAYS_FROM_CALLOC 1
#endif
#endif
#ifdef LANAI_ZEROED_ARRAYS_FROM_CALLOC
inline constexpr std::size_t zeroed_map_bytes = ~std::size_t{0};
#else
inline constexpr std::size_t zeroed_map_bytes = 64 * 1024;
#endif

template <class T>
ZeroedArray<T> zeroed_array(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "zero bytes must be a valid start for T");
  const std::size_t bytes = count * sizeof(T);
  if (bytes >= zeroed_map_bytes) {
    void* memory =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED)
      throw std::bad_alloc();
    return ZeroedArray<T>(static_cast<T*>(memory), ZeroedDeleter{bytes});
  }
  void* memory = std::calloc(count, sizeof(T));
  if (!memory)
    throw std::bad_alloc();
  return ZeroedArray<T>(static_cast<T*>(memory), ZeroedDeleter{});
}

} // namespace lanai::iss
