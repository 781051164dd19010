// The common entry of every VIPL function: find the calling node's driver,
// charge the call's CPU time, run pending error callbacks and completion
// notifications, and keep C++
// exceptions from crossing into the C caller.
#pragma once

#include <cstdio>
#include <exception>
#include <new>

#include <fmt/format.h>

#include "emulator/host/fiber.hpp"
#include "hostlib/driver/session.hpp"

namespace lanai::vipl {

// How a call's time is spent: by sleeping it, or, for a call that only
// looks at what the card changes (a Done), as NodeDriver::charge_look does.
enum class CallKind { acts, looks };

template <class Fn>
VIP_RETURN vipl_call(Fn&& body, CallKind kind = CallKind::acts) {
  NodeDriver* driver = Session::current_driver();
  // Outside an emulated node there is no NIC to talk to.
  if (!driver)
    return VIP_ERROR_RESOURCE;
  try {
    if (kind == CallKind::looks)
      driver->charge_look(driver->costs().call_ns);
    else
      driver->charge(driver->costs().call_ns);
    driver->deliver_errors();
    driver->deliver_notifications();
    const VIP_RETURN result = body(*driver);
    if (const long owner = driver->take_foreign_handle(); owner >= 0)
      Session::active()->warn_foreign_handle(driver->node(), owner);
    return result;
  } catch (const host::Fiber::Cancelled&) {
    throw; // the run is over; let the program unwind
  } catch (const std::bad_alloc&) {
    return VIP_ERROR_RESOURCE;
  } catch (const std::exception& e) {
    fmt::print(stderr, "node{}: VIPL internal error: {}\n", driver->node(), e.what());
    return VIP_ERROR_RESOURCE;
  }
}

} // namespace lanai::vipl
