// A fixed-size array whose memory starts as zeros without being written:
// calloc hands out fresh pages the operating system zeroes on first touch,
// so a card's SRAM and predecode tables cost memory and time only for the
// parts its firmware uses. For implicit-lifetime types only (the zero bytes
// are the objects).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace lanai::iss {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
using ZeroedArray = std::unique_ptr<T[], FreeDeleter>;

template <class T>
ZeroedArray<T> zeroed_array(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "zero bytes must be a valid start for T");
  void* memory = std::calloc(count, sizeof(T));
  if (!memory)
    throw std::bad_alloc();
  return ZeroedArray<T>(static_cast<T*>(memory));
}

} // namespace lanai::iss
