// Fibers: the body runs only inside resume(), yields hand control back in a
// fixed order, many fibers interleave deterministically, failures surface
// at resume(), and an unfinished fiber unwinds cleanly when destroyed.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "emulator/host/fiber.hpp"

using lanai::host::Fiber;

TEST_CASE("a fiber runs its body only when resumed and continues after each yield") {
  std::vector<int> log;
  Fiber* self = nullptr;
  Fiber fiber([&] {
    log.push_back(1);
    self->yield();
    log.push_back(3);
    self->yield();
    log.push_back(5);
  });
  self = &fiber;
  CHECK(log.empty());
  CHECK_FALSE(fiber.started());
  fiber.resume();
  log.push_back(2);
  fiber.resume();
  log.push_back(4);
  CHECK_FALSE(fiber.finished());
  fiber.resume();
  CHECK(fiber.finished());
  CHECK(log == std::vector<int>{1, 2, 3, 4, 5});
  CHECK_THROWS_AS(fiber.resume(), std::logic_error);
}

TEST_CASE("current() names the running fiber and nothing outside") {
  CHECK(Fiber::current() == nullptr);
  Fiber* seen = nullptr;
  Fiber fiber([&] { seen = Fiber::current(); });
  fiber.resume();
  CHECK(seen == &fiber);
  CHECK(Fiber::current() == nullptr);
}

TEST_CASE("many fibers interleave in the order they are resumed") {
  constexpr int fibers = 300;
  constexpr int rounds = 20;
  std::vector<std::unique_ptr<Fiber>> all;
  std::vector<int> log;
  for (int f = 0; f < fibers; ++f) {
    all.push_back(std::make_unique<Fiber>([&, f] {
      for (int r = 0; r < rounds; ++r) {
        log.push_back(f * 1000 + r);
        Fiber::current()->yield();
      }
    }));
  }
  for (int r = 0; r <= rounds; ++r)
    for (auto& fiber : all)
      fiber->resume();
  for (auto& fiber : all)
    CHECK(fiber->finished());
  REQUIRE(log.size() == std::size_t{fibers * rounds});
  // Round-robin: round r of every fiber before round r + 1 of any.
  for (int r = 0; r < rounds; ++r)
    for (int f = 0; f < fibers; ++f)
      CHECK(log[std::size_t(r * fibers + f)] == f * 1000 + r);
}

TEST_CASE("an exception escaping the body is rethrown by resume, once") {
  Fiber fiber([] { throw std::runtime_error("boom"); });
  CHECK_THROWS_WITH_AS(fiber.resume(), "boom", std::runtime_error);
  CHECK(fiber.finished());
}

TEST_CASE("exceptions thrown and caught inside a fiber stay there") {
  int caught = 0;
  Fiber fiber([&] {
    for (int i = 0; i < 10; ++i) {
      try {
        throw std::runtime_error("inside");
      } catch (const std::runtime_error&) {
        ++caught;
      }
      Fiber::current()->yield();
    }
  });
  while (!fiber.finished())
    fiber.resume();
  CHECK(caught == 10);
}

TEST_CASE("destroying a suspended fiber unwinds it: destructors run") {
  struct Flag {
    bool& set;
    ~Flag() { set = true; }
  };
  bool destroyed = false;
  bool after_yield = false;
  {
    Fiber fiber([&] {
      Flag flag{destroyed};
      Fiber::current()->yield();
      after_yield = true;
    });
    fiber.resume();
    CHECK_FALSE(destroyed);
  }
  CHECK(destroyed);
  CHECK_FALSE(after_yield);
}

TEST_CASE("a fiber that is never started never runs its body") {
  bool ran = false;
  {
    Fiber fiber([&] { ran = true; });
  }
  CHECK_FALSE(ran);
}

TEST_CASE("cancel keeps unwinding a body that swallows the first cancellation") {
  int cancellations = 0;
  Fiber fiber([&] {
    for (int i = 0; i < 3; ++i) {
      try {
        Fiber::current()->yield();
      } catch (const Fiber::Cancelled&) {
        ++cancellations;
      }
    }
  });
  fiber.resume();
  fiber.cancel();
  CHECK(fiber.finished());
  // The first cancellation came from the pending yield, the next two from
  // the body's later yields, which no longer switch.
  CHECK(cancellations == 3);
}

TEST_CASE("a fiber can resume another, nested") {
  std::vector<std::string> log;
  Fiber inner([&] {
    log.push_back("inner 1");
    Fiber::current()->yield();
    log.push_back("inner 2");
  });
  Fiber outer([&] {
    log.push_back("outer 1");
    inner.resume();
    log.push_back("outer 2");
    Fiber::current()->yield();
    inner.resume();
    log.push_back("outer 3");
  });
  outer.resume();
  outer.resume();
  CHECK(outer.finished());
  CHECK(inner.finished());
  CHECK(log == std::vector<std::string>{"outer 1", "inner 1", "outer 2", "inner 2", "outer 3"});
}

namespace {
// Recursion that keeps a little data in every frame, so the stack really
// holds `depth` frames.
int deep(int depth) {
  volatile char frame[256];
  frame[0] = static_cast<char>(depth);
  if (depth == 0)
    return frame[0];
  return deep(depth - 1) + 1 + frame[0] * 0;
}
} // namespace

TEST_CASE("a fiber's stack holds a hundred kilobytes of frames") {
  int result = -1;
  Fiber fiber([&] { result = deep(300); });
  fiber.resume();
  CHECK(result == 300);
}

TEST_CASE("yield from outside a running fiber is refused") {
  Fiber fiber([] {});
  CHECK_THROWS_AS(fiber.yield(), std::logic_error);
  fiber.resume();
}
