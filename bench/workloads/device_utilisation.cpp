#include "bench/workloads/device_utilisation.hpp"

#include <stdexcept>

#include "emulator/nic/host_dma.hpp"
#include "emulator/nic/net_recv_dma.hpp"
#include "emulator/nic/net_send_dma.hpp"

namespace lanai::bench {

std::vector<UtilisationWindow::Busy> UtilisationWindow::snapshot(host::Cluster& cluster,
                                                                 kernel::SimTime at) {
  std::vector<Busy> out;
  for (std::size_t n = 0; n < cluster.size(); ++n) {
    nic::Card& card = cluster.card(n);
    out.push_back({card.lanai_work().busy_until(at), card.host_dma().busy_meter().busy_until(at),
                   card.send_dma().busy_meter().busy_until(at),
                   card.recv_dma().busy_meter().busy_until(at)});
  }
  return out;
}

void UtilisationWindow::schedule(host::Cluster& cluster, kernel::SimTime from, kernel::SimTime to) {
  if (!(from < to) || from < cluster.kernel().now())
    throw std::invalid_argument("utilisation window: it must start now or later and end after it");
  kernel::Kernel& kernel = cluster.kernel();
  kernel.schedule_at(
      from, [this, &cluster, from] { start_ = snapshot(cluster, from); },
      "bench.utilisation_start");
  kernel.schedule_at(
      to,
      [this, &cluster, from, to] {
        const std::vector<Busy> end = snapshot(cluster, to);
        const double span = static_cast<double>((to - from).ps());
        auto share = [&](kernel::SimTime a, kernel::SimTime b) {
          return static_cast<double>((b - a).ps()) / span;
        };
        result_.clear();
        for (std::size_t n = 0; n < end.size(); ++n)
          result_.push_back(
              {share(start_[n].lanai, end[n].lanai), share(start_[n].hdma, end[n].hdma),
               share(start_[n].nsdma, end[n].nsdma), share(start_[n].nrdma, end[n].nrdma)});
        closed_ = true;
      },
      "bench.utilisation_end");
}

} // namespace lanai::bench
