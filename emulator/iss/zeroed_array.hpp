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
#include <unistd.h>

#ifdef __has_include
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace lanai::iss {

// Under AddressSanitizer a mapped array has an inaccessible page on either
// side and ends just before the second, and what its pages hold besides it
// is poisoned: an access past either end stops the program with a report,
// as one past a block from the allocator does, without what the allocator
// costs for a block this large (calloc clearing all of it, and free
// poisoning all of it).
#if defined(__SANITIZE_ADDRESS__)
#define LANAI_ZEROED_ARRAYS_GUARDED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANAI_ZEROED_ARRAYS_GUARDED 1
#endif
#endif

// Frees what zeroed_array() allocated: a mapping of `mapped` bytes that
// starts `offset` bytes before the array, or (mapped 0) a calloc'ed block.
struct ZeroedDeleter {
  std::size_t mapped = 0;
  std::size_t offset = 0;
  void operator()(void* p) const {
    if (mapped == 0) {
      std::free(p);
      return;
    }
    std::byte* base = static_cast<std::byte*>(p) - offset;
#ifdef LANAI_ZEROED_ARRAYS_GUARDED
    // What was poisoned is made whole again before the range is given back.
    ASAN_UNPOISON_MEMORY_REGION(base + page_bytes(), mapped - 2 * page_bytes());
#endif
    ::munmap(base, mapped);
  }
  static std::size_t page_bytes() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }
};

template <class T>
using ZeroedArray = std::unique_ptr<T[], ZeroedDeleter>;

// Arrays of at least this many bytes are mapped; smaller ones come from
// calloc.
inline constexpr std::size_t zeroed_map_bytes = 64 * 1024;

// Maps `bytes` of zeros (fresh pages); `deleter` learns how to unmap them.
inline void* map_zeroed(std::size_t bytes, ZeroedDeleter& deleter) {
#ifdef LANAI_ZEROED_ARRAYS_GUARDED
  const std::size_t page = ZeroedDeleter::page_bytes();
  const std::size_t inner = (bytes + page - 1) / page * page;
  const std::size_t total = inner + 2 * page;
  void* mapping = ::mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    throw std::bad_alloc();
  auto* base = static_cast<std::byte*>(mapping);
  if (::mprotect(base + page, inner, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(mapping, total);
    throw std::bad_alloc();
  }
  // Within 8 bytes of the second guard page, at a multiple of 8 (what
  // AddressSanitizer's shadow can mark a block's bounds at, and a multiple
  // of alignof(T)); the bytes around it are poisoned.
  const std::size_t head = (inner - bytes) / 8 * 8;
  std::byte* array = base + page + head;
  ASAN_POISON_MEMORY_REGION(base + page, head);
  ASAN_POISON_MEMORY_REGION(array + bytes, inner - head - bytes);
  deleter = ZeroedDeleter{total, static_cast<std::size_t>(array - base)};
  return array;
#else
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    throw std::bad_alloc();
  deleter = ZeroedDeleter{bytes, 0};
  return memory;
#endif
}

template <class T>
ZeroedArray<T> zeroed_array(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "zero bytes must be a valid start for T");
  const std::size_t bytes = count * sizeof(T);
  if (bytes >= zeroed_map_bytes) {
    ZeroedDeleter deleter;
    void* memory = map_zeroed(bytes, deleter);
    return ZeroedArray<T>(static_cast<T*>(memory), deleter);
  }
  void* memory = std::calloc(count, sizeof(T));
  if (!memory)
    throw std::bad_alloc();
  return ZeroedArray<T>(static_cast<T*>(memory), ZeroedDeleter{});
}

} // namespace lanai::iss
