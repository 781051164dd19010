// The C++ ABI hooks clang emits calls to from freestanding firmware: static
// local guards, global destructor registration, pure virtual calls and the
// deleting destructors of classes with virtual destructors.
#include <stddef.h>
#include <stdint.h>

extern "C" [[noreturn]] void abort(void);

extern "C" {

// Identifies this "shared object" to __cxa_atexit; firmware is one image.
__attribute__((visibility("hidden"))) void* __dso_handle = &__dso_handle;

// Firmware ends when main returns and the exit register stops the machine,
// so destructors of globals never have a moment to run: registering one is
// accepted and forgotten.
int __cxa_atexit(void (*destructor)(void*), void* object, void* dso) {
  (void)destructor;
  (void)object;
  (void)dso;
  return 0;
}

// A call through an unfilled vtable slot is a firmware bug: stop loudly.
[[noreturn]] void __cxa_pure_virtual(void) { abort(); }

// Function-local statics with dynamic initialisation. The Itanium ABI has
// the compiler test the guard's first byte inline and call acquire only
// while it is zero; there is a single thread, so the second byte merely
// catches an initialiser that recursively re-enters its own static.
int __cxa_guard_acquire(uint64_t* guard) {
  unsigned char* bytes = reinterpret_cast<unsigned char*>(guard);
  if (bytes[0] != 0u)
    return 0;
  if (bytes[1] != 0u)
    abort();
  bytes[1] = 1u;
  return 1;
}

void __cxa_guard_release(uint64_t* guard) {
  unsigned char* bytes = reinterpret_cast<unsigned char*>(guard);
  bytes[0] = 1u;
  bytes[1] = 0u;
}

void __cxa_guard_abort(uint64_t* guard) { reinterpret_cast<unsigned char*>(guard)[1] = 0u; }

} // extern "C"

// There is no heap, so nothing can legitimately be deleted; these exist
// because every class with a virtual destructor names them in its vtable.
// Deleting a null pointer is still allowed and does nothing.
void operator delete(void* pointer) noexcept {
  if (pointer != nullptr)
    abort();
}

void operator delete(void* pointer, size_t size) noexcept {
  (void)size;
  if (pointer != nullptr)
    abort();
}
