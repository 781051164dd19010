// Connection messages as kernel events. Requests that arrive before anyone
// waits for them queue at the server in arrival order, so the outcome of a
// run never depends on which host happened to call first.
#include "hostlib/driver/connection_manager.hpp"

#include <algorithm>
#include <utility>

#include "hostlib/driver/session.hpp"

namespace lanai::vipl {

ConnectionManager::ConnectionManager(Session& session) : session_(session) {}

ConnectionManager::~ConnectionManager() {
  for (const kernel::EventId id : in_flight_)
    session_.cluster().kernel().cancel(id);
}

kernel::SimTime ConnectionManager::message_time() const {
  return kernel::nanoseconds(session_.cluster().profile().host.connect_ns);
}

void ConnectionManager::notify(std::uint32_t node) { session_.cluster().host(node).notify(); }

template <class Fn>
void ConnectionManager::send(Fn&& deliver) {
  auto& kernel = session_.cluster().kernel();
  auto id = std::make_shared<kernel::EventId>();
  const kernel::EventId event = kernel.schedule_in(
      message_time(),
      [this, id, deliver = std::forward<Fn>(deliver)]() mutable {
        in_flight_.erase(*id);
        deliver();
      },
      "vipl.connection_manager");
  *id = event;
  in_flight_.insert(event);
}

std::shared_ptr<ConnectRequest> ConnectionManager::make_request(NetAddress from, NetAddress to,
                                                                ViSummary client) {
  auto request = std::make_shared<ConnectRequest>();
  request->id = next_id_++;
  request->from = std::move(from);
  request->to = std::move(to);
  request->client = client;
  return request;
}

std::shared_ptr<ConnectRequest> ConnectionManager::request(NetAddress from, NetAddress to,
                                                           ViSummary client) {
  auto request = make_request(std::move(from), std::move(to), client);
  send([this, request] {
    if (request->state != RequestState::travelling)
      return;
    request->state = RequestState::arrived;
    arrivals_.push_back(request);
    notify(request->to.node);
  });
  return request;
}

bool ConnectionManager::has_arrival(std::uint32_t node,
                                    const std::vector<std::uint8_t>& discriminator) const {
  return std::any_of(arrivals_.begin(), arrivals_.end(), [&](const auto& request) {
    return request->to.node == node && request->to.discriminator == discriminator;
  });
}

std::shared_ptr<ConnectRequest>
ConnectionManager::claim(std::uint32_t node, const std::vector<std::uint8_t>& discriminator) {
  const auto it = std::find_if(arrivals_.begin(), arrivals_.end(), [&](const auto& request) {
    return request->to.node == node && request->to.discriminator == discriminator;
  });
  if (it == arrivals_.end())
    return nullptr;
  auto request = *it;
  arrivals_.erase(it);
  request->state = RequestState::claimed;
  return request;
}

void ConnectionManager::accept(const std::shared_ptr<ConnectRequest>& request, ViSummary server) {
  request->server = server;
  request->state = RequestState::accepting;
  send([this, request] {
    if (request->state == RequestState::accepting &&
        session_.driver(request->client.node).accept_delivered(*request)) {
      request->state = RequestState::connected;
    } else {
      request->state = request->refusal.empty() ? RequestState::failed : RequestState::refused;
    }
    notify(request->client.node);
    notify(request->server.node);
  });
}

void ConnectionManager::reject(const std::shared_ptr<ConnectRequest>& request) {
  send([this, request] {
    if (request->state == RequestState::claimed)
      request->state = RequestState::rejected;
    notify(request->client.node);
  });
}

void ConnectionManager::reject(const std::shared_ptr<ConnectRequest>& request, VIP_RETURN why) {
  send([this, request, why] {
    if (request->state == RequestState::claimed) {
      request->state = RequestState::rejected;
      request->rejection = why;
    }
    notify(request->client.node);
  });
}

void ConnectionManager::refuse(const std::shared_ptr<ConnectRequest>& request, std::string reason) {
  send([this, request, reason = std::move(reason)] {
    if (request->state == RequestState::claimed) {
      request->state = RequestState::refused;
      request->refusal = reason;
    }
    notify(request->client.node);
  });
}

std::shared_ptr<ConnectRequest> ConnectionManager::peer_request(NetAddress from, NetAddress to,
                                                                ViSummary client) {
  auto request = make_request(std::move(from), std::move(to), client);
  request->peer = true;
  return request;
}

void ConnectionManager::start_peer(const std::shared_ptr<ConnectRequest>& request) {
  // The other end's request may be here already, waiting for this one.
  const auto waiting = std::find_if(peers_.begin(), peers_.end(), [&](const auto& other) {
    return other->state == RequestState::arrived && other->from == request->to &&
           other->to == request->from;
  });
  if (waiting != peers_.end()) {
    const auto theirs = *waiting;
    peers_.erase(waiting);
    peer_match(request, theirs);
    return;
  }
  peers_.push_back(request);
  send([this, request] {
    if (request->state != RequestState::travelling)
      return;
    // Has the other end asked too, its request still on the way?
    const auto asked = std::find_if(peers_.begin(), peers_.end(), [&](const auto& other) {
      return other != request && other->state == RequestState::travelling &&
             other->from == request->to && other->to == request->from;
    });
    if (asked == peers_.end()) {
      request->state = RequestState::arrived;
      notify(request->to.node);
      return;
    }
    const auto mine = *asked;
    std::erase(peers_, request);
    peer_match(mine, request);
  });
}

void ConnectionManager::peer_match(const std::shared_ptr<ConnectRequest>& mine,
                                   const std::shared_ptr<ConnectRequest>& theirs) {
  std::erase(peers_, mine);
  theirs->state = RequestState::claimed;
  mine->accepted = theirs;
  session_.driver(mine->client.node).peer_matched(mine, theirs);
  notify(mine->client.node);
}

void ConnectionManager::cancel(const std::shared_ptr<ConnectRequest>& request) {
  if (request->peer) {
    // Unmatched peer requests wait in their own list; a matched one is
    // decided within one message time and is not withdrawn.
    if (request->state == RequestState::travelling || request->state == RequestState::arrived) {
      std::erase(peers_, request);
      request->state = RequestState::cancelled;
    }
    return;
  }
  switch (request->state) {
  case RequestState::arrived:
    arrivals_.erase(std::find(arrivals_.begin(), arrivals_.end(), request));
    request->state = RequestState::cancelled;
    break;
  case RequestState::travelling:
  case RequestState::claimed:
  case RequestState::accepting:
    request->state = RequestState::cancelled;
    break;
  case RequestState::connected:
  case RequestState::rejected:
  case RequestState::refused:
  case RequestState::cancelled:
  case RequestState::failed:
    break; // already decided
  }
}

void ConnectionManager::disconnect(std::uint32_t from_node, std::uint32_t from_slot,
                                   std::uint32_t to_node, std::uint32_t to_slot,
                                   std::uint64_t messages) {
  deliver_disconnect(from_node, from_slot, to_node, to_slot, messages, kDisconnectLooks);
}

void ConnectionManager::deliver_disconnect(std::uint32_t from_node, std::uint32_t from_slot,
                                           std::uint32_t to_node, std::uint32_t to_slot,
                                           std::uint64_t messages, int looks) {
  send([=, this] {
    // The last looks take the disconnection whatever has arrived: a
    // message lost on the way must not keep the VI connected for ever.
    const std::uint64_t awaited = looks > 1 ? messages : 0;
    if (!session_.driver(to_node).remote_disconnect(to_slot, from_node, from_slot, awaited))
      deliver_disconnect(from_node, from_slot, to_node, to_slot, messages, looks - 1);
  });
}

} // namespace lanai::vipl
