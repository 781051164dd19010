// What the kernel runs for an event or a task: a callable taking nothing,
// like std::function<void()>, but move-only and with room for 48 bytes of
// captures in place (a link's event keeps `this` and a shared worm), so
// that scheduling an event allocates nothing. Larger callables, and those
// that may throw while moved, are kept on the heap. An empty
// std::function or a null function pointer gives an empty Callback.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace lanai::kernel {

class Callback {
public:
  Callback() noexcept = default;
  Callback(std::nullptr_t) noexcept {}
  template <class F, class D = std::decay_t<F>>
  requires(!std::is_same_v<D, Callback> && std::is_invocable_r_v<void, D&>) Callback(F&& f) {
    if constexpr (std::is_constructible_v<bool, const D&>) {
      if (!static_cast<bool>(f))
        return;
    }
    if constexpr (in_place<D>) {
      ::new (static_cast<void*>(storage_)) D(std::forward<F>(f));
      ops_ = &inline_ops<D>;
    } else {
      *reinterpret_cast<D**>(storage_) = new D(std::forward<F>(f));
      ops_ = &heap_ops<D>;
    }
  }
  Callback(Callback&& other) noexcept { take(other); }
  Callback& operator=(Callback&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  Callback& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;
  ~Callback() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  // Runs it (it must not be empty).
  void operator()() { ops_->call(storage_); }

private:
  static constexpr std::size_t capacity = 48;
  struct Ops {
    void (*call)(void* storage);
    void (*move)(void* to, void* from) noexcept; // and destroys `from`'s
    void (*destroy)(void* storage) noexcept;
    bool bytes; // moved by copying the storage, nothing to destroy
  };
  template <class D>
  static constexpr bool
      in_place = sizeof(D) <= capacity &&
                 alignof(D) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<D>;
  template <class D>
  static constexpr Ops inline_ops = {
      [](void* p) { (*static_cast<D*>(p))(); },
      [](void* to, void* from) noexcept {
        ::new (to) D(std::move(*static_cast<D*>(from)));
        static_cast<D*>(from)->~D();
      },
      [](void* p) noexcept { static_cast<D*>(p)->~D(); },
      std::is_trivially_copyable_v<D>&& std::is_trivially_destructible_v<D>};
  template <class D>
  static constexpr Ops heap_ops = {
      [](void* p) { (**static_cast<D**>(p))(); },
      [](void* to, void* from) noexcept { *static_cast<D**>(to) = *static_cast<D**>(from); },
      [](void* p) noexcept { delete *static_cast<D**>(p); }, false};

  void take(Callback& other) noexcept {
    if (other.ops_ == nullptr)
      return;
    if (other.ops_->bytes)
      std::memcpy(storage_, other.storage_, capacity);
    else
      other.ops_->move(storage_, other.storage_);
    ops_ = std::exchange(other.ops_, nullptr);
  }
  void reset() noexcept {
    // Empty before the capture goes: its destructor may reach this callback.
    const Ops* ops = std::exchange(ops_, nullptr);
    if (ops != nullptr && !ops->bytes)
      ops->destroy(storage_);
  }

  alignas(std::max_align_t) unsigned char storage_[capacity];
  const Ops* ops_ = nullptr;
};

} // namespace lanai::kernel
