// The card's event word as the devices keep it: each publishes only the
// bits that are its own, from the moment it is attached, and a device on
// its own publishes nothing. (Through the card, every read of the word is
// checked against the devices' own bits in builds with assertions, which
// the device tests exercise state by state.)
#include <doctest/doctest.h>

#include "emulator/nic/event_word.hpp"
#include "lanai/register_map.h"
#include "tests/nic/nic_fixture.hpp"

using lanai::nic::EventBits;
using lanai::nic::EventWord;

TEST_CASE("a device publishes its own bits into the event word and leaves the others") {
  EventWord word;
  EventBits hdma(LANAI_EV_HDMA_DONE | LANAI_EV_HDMA_IDLE);
  EventBits timer(LANAI_EV_TIMER);
  hdma.attach(&word, LANAI_EV_HDMA_IDLE);
  CHECK(word.bits() == LANAI_EV_HDMA_IDLE);
  timer.attach(&word, LANAI_EV_TIMER);
  CHECK(word.bits() == (LANAI_EV_HDMA_IDLE | LANAI_EV_TIMER));
  hdma.publish(LANAI_EV_HDMA_DONE);
  CHECK(word.bits() == (LANAI_EV_HDMA_DONE | LANAI_EV_TIMER));
  // Bits outside a device's mask are not its to set.
  timer.publish(LANAI_EV_TIMER | LANAI_EV_DOORBELL);
  CHECK(word.bits() == (LANAI_EV_HDMA_DONE | LANAI_EV_TIMER));
  timer.publish(0);
  CHECK(word.bits() == LANAI_EV_HDMA_DONE);
}

TEST_CASE("a device not attached to a card publishes nowhere") {
  EventWord word;
  EventBits nsdma(LANAI_EV_NSDMA_IDLE);
  nsdma.publish(LANAI_EV_NSDMA_IDLE);
  CHECK(word.bits() == 0u);
}

TEST_CASE("a card's event word follows a doorbell from ringing to its pop") {
  nic_test::Fixture f;
  const std::uint32_t idle = LANAI_EV_HDMA_IDLE | LANAI_EV_NSDMA_IDLE;
  CHECK(f.read(0, LANAI_REG_EVENT_STATUS) == idle);
  via_doorbell doorbell{};
  REQUIRE(f.card(0).ring_doorbell(doorbell));
  CHECK(f.read(0, LANAI_REG_EVENT_STATUS) == (idle | LANAI_EV_DOORBELL));
  CHECK(f.read(0, LANAI_REG_DB_POP) == 1u);
  CHECK(f.read(0, LANAI_REG_EVENT_STATUS) == idle);
}
