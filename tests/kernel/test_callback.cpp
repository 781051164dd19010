// The kernel's callbacks: small captures kept in place, large or
// throwing-move ones on the heap, every capture destroyed exactly once, and
// an empty std::function or null pointer an empty callback.
#include "emulator/kernel/callback.hpp"
#include "emulator/kernel/event_queue.hpp"

#include <doctest/doctest.h>

#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <utility>

using lanai::kernel::Callback;

namespace {

// Counts its live copies through a shared counter.
struct Tracked {
  std::shared_ptr<int> live;
  explicit Tracked(std::shared_ptr<int> counter) : live(std::move(counter)) { ++*live; }
  Tracked(const Tracked& other) : live(other.live) { ++*live; }
  Tracked(Tracked&& other) noexcept : live(other.live) { ++*live; }
  ~Tracked() { --*live; }
};

struct ThrowingMove {
  int* runs;
  ThrowingMove(int* r) : runs(r) {}
  ThrowingMove(ThrowingMove&& other) noexcept(false) : runs(other.runs) {}
  void operator()() const { ++*runs; }
};

void bump(int& n) { ++n; }
int counter = 0;
void bump_counter() { ++counter; }

} // namespace

TEST_CASE("a callback runs what it holds, small or large, and moves with it") {
  int runs = 0;
  Callback small = [&runs] { ++runs; };
  REQUIRE(small);
  small();
  CHECK(runs == 1);

  std::array<int, 32> big{};
  big[31] = 5;
  Callback large = [&runs, big] { runs += big[31]; };
  large();
  CHECK(runs == 6);

  Callback moved = std::move(large);
  CHECK_FALSE(large);
  moved();
  CHECK(runs == 11);
  small = std::move(moved);
  CHECK_FALSE(moved);
  small();
  CHECK(runs == 16);

  Callback heap = ThrowingMove(&runs);
  Callback heap_moved = std::move(heap);
  heap_moved();
  CHECK(runs == 17);

  Callback pointer = &bump_counter;
  pointer();
  CHECK(counter == 1);
  int n = 0;
  Callback bound = std::bind(bump, std::ref(n));
  bound();
  CHECK(n == 1);
}

TEST_CASE("every capture a callback held is destroyed once") {
  auto live = std::make_shared<int>(0);
  {
    Callback a = [t = Tracked(live)] {};
    CHECK(*live == 1);
    std::array<char, 64> pad{};
    Callback b = [t = Tracked(live), pad] { (void)pad; }; // on the heap
    CHECK(*live == 2);
    Callback c = std::move(a);
    CHECK(*live == 2);
    c = std::move(b); // c's first capture goes
    CHECK(*live == 1);
    c = nullptr;
    CHECK(*live == 0);
    Callback d = [t = Tracked(live)] {};
    CHECK(*live == 1);
  }
  CHECK(*live == 0);
}

TEST_CASE("an empty std::function or a null pointer makes an empty callback") {
  CHECK_FALSE(Callback{});
  CHECK_FALSE(Callback{nullptr});
  CHECK_FALSE(Callback{std::function<void()>{}});
  void (*none)() = nullptr;
  CHECK_FALSE(Callback{none});
  CHECK(Callback{std::function<void()>([] {})});

  lanai::kernel::Kernel k;
  CHECK_THROWS_AS(k.schedule_at(lanai::kernel::nanoseconds(1), std::function<void()>{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(k.add_task(std::function<void()>{}, "nothing"), std::invalid_argument);
}
