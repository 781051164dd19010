// Reading and validating experiment files: the keys every kind shares, then
// the kind's own keys through the table of kinds.
#include "bench/sweep/experiment_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bench/sweep/load_points.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "tools/analytic/qna_model_file.hpp"
#include "bench/workloads/bench_cluster.hpp"
#include "bench/workloads/card_stages.hpp"
#include "bench/workloads/message_pattern.hpp"
#include "bench/workloads/mpeg_source.hpp"
#include "emulator/text/text_file.hpp"

namespace lanai::bench {

namespace {

constexpr std::uint32_t max_receivers = 64;
constexpr std::uint32_t max_message_bytes = 65536;

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// Names end up in file names, CSV cells and plot titles.
bool plain_name(std::string_view s) {
  if (s.empty() || s.size() > 64)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

double positive(const TableReader& t, std::string_view key) {
  const double v = t.required_number(key);
  if (!(v > 0))
    t.fail(key, fmt::format("must be > 0 (got {})", v));
  return v;
}

std::uint32_t in_range(const TableReader& t, std::string_view key, std::int64_t v, std::int64_t lo,
                       std::int64_t hi) {
  if (v < lo || v > hi)
    t.fail(key, fmt::format("must be in {}..{} (got {})", lo, hi, v));
  return static_cast<std::uint32_t>(v);
}

std::filesystem::path relative_to(const std::filesystem::path& base, const std::string& p) {
  const std::filesystem::path path(p);
  return path.is_absolute() ? path : (base / path).lexically_normal();
}

TrafficClass read_class(const TableReader& t, std::uint32_t receivers,
                        const std::filesystem::path& base_dir) {
  TrafficClass c;
  const std::string traffic = t.required_string("traffic");
  if (traffic == "cbr") {
    c.traffic = Traffic::cbr;
    t.allow_only({"name", "traffic", "rate_MBps", "message_bytes", "receiver"});
  } else if (traffic == "vbr") {
    c.traffic = Traffic::vbr;
    t.allow_only({"name", "traffic", "rate_MBps", "frame_rate", "receiver", "trace", "gop"});
  } else {
    t.fail("traffic", fmt::format("must be \"cbr\" or \"vbr\" (got \"{}\")", traffic));
  }
  c.name = t.required_string("name");
  if (!plain_name(c.name))
    t.fail("name",
           fmt::format("must be 1-64 letters, digits, '-', '_' or '.' (got \"{}\")", c.name));
  if (c.name == "BE")
    t.fail("name", "\"BE\" is reserved for the best-effort channel");
  c.rate_mbytes_per_s = positive(t, "rate_MBps");
  c.receiver = in_range(t, "receiver", t.required_integer("receiver"), 1, receivers);
  if (c.traffic == Traffic::cbr) {
    c.message_bytes =
        in_range(t, "message_bytes", t.required_integer("message_bytes"), 1, max_message_bytes);
    return c;
  }
  c.frame_rate = positive(t, "frame_rate");
  if (auto trace = t.string("trace")) {
    if (t.has("gop"))
      t.fail("gop", "only for synthetic streams (this class has a trace)");
    c.trace = relative_to(base_dir, *trace);
    try {
      c.trace_frames = read_frame_trace(c.trace);
    } catch (const std::exception& e) {
      t.fail("trace", e.what());
    }
    return c;
  }
  c.gop = t.string("gop").value_or("IBBPBBPBBPBB");
  if (c.gop.empty() || c.gop.find_first_not_of("IPB") != std::string::npos)
    t.fail("gop", fmt::format("must be a non-empty string of I, P and B (got \"{}\")", c.gop));
  return c;
}

// The VIs' reliability level: "unreliable" (the default), "delivery" or
// "reception".
std::uint32_t read_reliability(const TableReader& top) {
  const auto level = top.string("reliability");
  if (!level || *level == "unreliable")
    return kUnreliable;
  if (*level == "delivery")
    return kReliableDelivery;
  if (*level != "reception")
    top.fail("reliability",
             fmt::format("\"{}\" is not \"unreliable\", \"delivery\" or \"reception\"", *level));
  return kReliableReception;
}

void read_jitter(const TableReader& top, const std::filesystem::path& base_dir, Experiment& e) {
  JitterSetup& j = e.jitter;
  j.receivers = in_range(top, "receivers", top.required_integer("receivers"), 1, max_receivers);
  j.reliability = read_reliability(top);

  const toml::array* classes = top.table_array("class");
  if (!classes)
    top.fail("class", "missing (at least one [[class]] is required)");
  for (std::size_t i = 0; i < classes->size(); ++i) {
    const TableReader t(*classes->get(i)->as_table(), top.source(),
                        fmt::format("class[{}]", i + 1));
    TrafficClass c = read_class(t, j.receivers, base_dir);
    for (const auto& other : j.classes)
      if (other.name == c.name)
        t.fail("name", fmt::format("duplicate class name \"{}\"", c.name));
    j.classes.push_back(std::move(c));
  }

  if (const toml::table* be = top.table("best_effort")) {
    const TableReader t(*be, top.source(), "best_effort");
    t.allow_only({"rate_MBps", "message_bytes", "receiver"});
    BestEffortChannel b;
    b.rate_mbytes_per_s = positive(t, "rate_MBps");
    b.message_bytes =
        in_range(t, "message_bytes", t.required_integer("message_bytes"), 1, max_message_bytes);
    b.receiver = in_range(t, "receiver", t.required_integer("receiver"), 1, j.receivers);
    j.best_effort = b;
  }

  const toml::table* load = top.table("load");
  if (!load)
    top.fail("load", "missing (a [load] table is required)");
  const TableReader t(*load, top.source(), "load");
  t.allow_only({"add_order", "max_total_MBps", "channels", "totals_MBps"});
  if (auto order = t.string_array("add_order")) {
    if (order->empty())
      t.fail("add_order", "must name at least one class");
    for (std::size_t i = 0; i < order->size(); ++i) {
      const auto& want = (*order)[i];
      const auto it = std::find_if(j.classes.begin(), j.classes.end(),
                                   [&](const TrafficClass& c) { return c.name == want; });
      if (it == j.classes.end()) {
        std::vector<std::string> names;
        for (const auto& c : j.classes)
          names.push_back(c.name);
        t.fail(fmt::format("add_order[{}]", i + 1),
               fmt::format("unknown class \"{}\" (classes: {})", want, joined(names)));
      }
      j.load.add_order.push_back(static_cast<std::size_t>(it - j.classes.begin()));
    }
  } else {
    for (std::size_t i = 0; i < j.classes.size(); ++i)
      j.load.add_order.push_back(i);
  }
  const std::vector<std::string_view> modes{"max_total_MBps", "channels", "totals_MBps"};
  std::string_view mode;
  for (const std::string_view m : modes) {
    if (!t.has(m))
      continue;
    if (!mode.empty())
      t.fail(m, "give exactly one of max_total_MBps, channels and totals_MBps");
    mode = m;
  }
  if (mode.empty())
    t.fail("max_total_MBps", "give exactly one of max_total_MBps, channels and totals_MBps");
  if (mode == "max_total_MBps") {
    j.load.max_total_mbytes_per_s = positive(t, "max_total_MBps");
  } else if (mode == "channels") {
    const auto counts = *t.integer_array("channels");
    if (counts.empty())
      t.fail("channels", "must list at least one point");
    for (std::size_t i = 0; i < counts.size(); ++i)
      j.load.channels.push_back(
          in_range(t, fmt::format("channels[{}]", i + 1), counts[i], 1, max_channels_per_point));
  } else {
    const auto totals = t.number_array("totals_MBps");
    if (!totals)
      t.fail("totals_MBps", "must be an array of numbers");
    if (totals->empty())
      t.fail("totals_MBps", "must list at least one point");
    for (std::size_t i = 0; i < totals->size(); ++i) {
      const std::string item = fmt::format("totals_MBps[{}]", i + 1);
      const double v = (*totals)[i];
      if (!(v > 0))
        t.fail(item, fmt::format("must be > 0 (got {})", v));
      if (i > 0 && v <= (*totals)[i - 1])
        t.fail(item, "values must be listed in ascending order");
      j.load.totals_mbytes_per_s.push_back(v);
    }
  }
  // The sweep itself may be unreasonable (far too many points).
  try {
    (void)load_points(j);
  } catch (const std::invalid_argument& err) {
    t.fail(mode, err.what());
  }
}

void read_queueing(const TableReader& t, const std::filesystem::path& base_dir, Experiment& e) {
  QueueingSetup& q = e.queueing;
  if (e.firmwares.size() != 1)
    t.fail("firmwares", "a queueing experiment runs one reference firmware (nic-send-twin)");
  const std::string model = t.required_string("model");
  q.model_file = std::filesystem::absolute(relative_to(base_dir, model));
  try {
    q.model = models::load_qna_model(q.model_file);
    q.services = twin_services(q.model);
  } catch (const std::exception& err) {
    t.fail("model", err.what());
  }
  q.variants = t.string_array("variants").value_or(std::vector<std::string>{"cyclic", "pooled"});
  if (q.variants.empty())
    t.fail("variants", "must name at least one of cyclic, pooled");
  for (std::size_t i = 0; i < q.variants.size(); ++i) {
    const auto& v = q.variants[i];
    const std::string key = fmt::format("variants[{}]", i + 1);
    if (v != "cyclic" && v != "pooled")
      t.fail(key, fmt::format("unknown variant \"{}\" (known: cyclic, pooled)", v));
    if (std::count(q.variants.begin(), q.variants.end(), v) > 1)
      t.fail(key, fmt::format("\"{}\" is listed twice", v));
  }
  q.rates_per_us =
      t.number_array("rates_per_us").value_or(std::vector<double>{q.model.rate_per_us});
  if (q.rates_per_us.empty())
    t.fail("rates_per_us", "must list at least one rate");
  for (std::size_t i = 0; i < q.rates_per_us.size(); ++i)
    if (!(q.rates_per_us[i] > 0) || q.rates_per_us[i] > 10)
      t.fail(fmt::format("rates_per_us[{}]", i + 1),
             fmt::format("must be > 0 and at most 10 per us (got {})", q.rates_per_us[i]));
  q.min_duration_ms =
      t.number("min_duration_ms").value_or(std::min(q.min_duration_ms, e.duration_ms));
  if (!(q.min_duration_ms > 0) || q.min_duration_ms > e.duration_ms)
    t.fail("min_duration_ms", fmt::format("must be > 0 and at most duration_ms ({}) (got {})",
                                          e.duration_ms, q.min_duration_ms));
  q.batches = in_range(t, "batches", t.integer("batches").value_or(20), 2, 1000);
  q.target_ci_percent = t.number("target_ci_percent").value_or(q.target_ci_percent);
  if (!(q.target_ci_percent > 0))
    t.fail("target_ci_percent", fmt::format("must be > 0 (got {})", q.target_ci_percent));
  q.transfers.descriptor_bytes =
      in_range(t, "descriptor_bytes", t.integer("descriptor_bytes").value_or(64), 4, 65536);
  q.transfers.data_bytes =
      in_range(t, "data_bytes", t.integer("data_bytes").value_or(4096), 4, 65536);
  try {
    (void)twin_profile(e.profile, q.services, q.transfers);
  } catch (const std::exception& err) {
    t.fail("model", err.what());
  }
}

std::vector<std::uint32_t> sizes_in_range(const TableReader& t, std::string_view key,
                                          std::int64_t lo, std::int64_t hi) {
  const auto values = t.integer_array(key);
  if (!values)
    t.fail(key, "missing (an array of whole numbers is required)");
  if (values->empty())
    t.fail(key, "must list at least one value");
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < values->size(); ++i) {
    const std::string item = fmt::format("{}[{}]", key, i + 1);
    out.push_back(in_range(t, item, (*values)[i], lo, hi));
    if (i > 0 && out[i] <= out[i - 1])
      t.fail(item, "values must be listed in ascending order");
  }
  return out;
}

HostCopy read_host_copy(const TableReader& top, std::string_view key) {
  HostCopy c;
  const toml::table* table = top.table(key);
  if (!table)
    return c;
  const TableReader t(*table, top.source(), top.path(key));
  t.allow_only({"g_us", "G_us_per_kb"});
  c.g_us = t.number("g_us").value_or(0);
  c.G_us_per_kb = t.number("G_us_per_kb").value_or(0);
  if (!(c.g_us >= 0) || c.g_us > 1e6)
    t.fail("g_us", fmt::format("must be in 0..1e6 (got {})", c.g_us));
  if (!(c.G_us_per_kb >= 0) || c.G_us_per_kb > 1e6)
    t.fail("G_us_per_kb", fmt::format("must be in 0..1e6 (got {})", c.G_us_per_kb));
  return c;
}

void read_pipeline(const TableReader& t, const std::filesystem::path&, Experiment& e) {
  PipelineSetup& p = e.pipeline;
  p.packets = sizes_in_range(t, "packets", 1, max_message_bytes);
  p.fragments = sizes_in_range(t, "fragments", 1, kMaxHostFragments);
  if (p.fragments.back() > p.packets.front())
    t.fail("fragments", fmt::format("{} fragments of the {}-byte packet: at most one per byte",
                                    p.fragments.back(), p.packets.front()));
  p.iterations = in_range(t, "iterations", t.integer("iterations").value_or(3), 1, 1000);
  p.send_copy = read_host_copy(t, "send_copy");
  p.recv_copy = read_host_copy(t, "recv_copy");
  const toml::array* stages = t.table_array("reference_stage");
  if (!stages || stages->empty())
    t.fail("reference_stage", "missing (at least one [[reference_stage]] is required)");
  for (std::size_t i = 0; i < stages->size(); ++i) {
    const TableReader s(*stages->get(i)->as_table(), t.source(),
                        fmt::format("reference_stage[{}]", i + 1));
    s.allow_only({"name", "g_us", "G_us_per_kb"});
    ReferenceStage r;
    r.name = s.required_string("name");
    r.stage = {s.required_number("g_us"), s.required_number("G_us_per_kb")};
    if (!(r.stage.g_us >= 0))
      s.fail("g_us", fmt::format("must be >= 0 (got {})", r.stage.g_us));
    if (!(r.stage.G_us_per_kb >= 0))
      s.fail("G_us_per_kb", fmt::format("must be >= 0 (got {})", r.stage.G_us_per_kb));
    p.reference.push_back(r);
  }
  if (t.has("fit_sizes")) {
    p.fit_sizes = sizes_in_range(t, "fit_sizes", 1, max_message_bytes);
    if (p.fit_sizes.size() < 2)
      t.fail("fit_sizes", "the direct method needs at least two sizes");
  } else {
    p.fit_sizes = default_fit_sizes(p.packets.back());
  }
}

void read_saturation(const TableReader& t, const std::filesystem::path&, Experiment& e) {
  SaturationSetup& s = e.saturation;
  s.sizes = sizes_in_range(t, "sizes", kStampedMessageBytes, max_message_bytes);
  s.receivers = t.has("receivers") ? sizes_in_range(t, "receivers", 1, max_receivers)
                                   : std::vector<std::uint32_t>{1};
  s.reliability = read_reliability(t);
  if (t.has("drop_probabilities")) {
    const std::vector<double> values = *t.number_array("drop_probabilities");
    if (values.empty())
      t.fail("drop_probabilities", "must list at least one value");
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string item = fmt::format("drop_probabilities[{}]", i + 1);
      const double p = values[i];
      if (!(p >= 0.0 && p <= 1.0))
        t.fail(item, fmt::format("must be in 0..1 (got {})", p));
      if (i > 0 && !(p > values[i - 1]))
        t.fail(item, "values must be listed in ascending order");
      s.drop_probabilities.push_back(p);
    }
  }
}

const std::vector<std::string_view> common_keys{
    "name", "description", "kind", "firmwares", "profile", "seed", "warmup_ms", "duration_ms"};

} // namespace

double TrafficClass::interval_ps() const {
  if (traffic == Traffic::vbr)
    return 1e12 / frame_rate;
  return static_cast<double>(message_bytes) * 1e6 / rate_mbytes_per_s;
}

const std::vector<ExperimentKind>& experiment_kinds() {
  static const std::vector<ExperimentKind> kinds{
      {"jitter",
       "one sender, QoS classes of CBR or VBR channels and an optional best-effort channel; "
       "jitter per class and best-effort latency against the injected load",
       &read_jitter,
       {"receivers", "reliability", "class", "best_effort", "load"}},
      {"queueing",
       "a queueing-network model's network run by the reference firmware: mean queue lengths "
       "and utilisations by batch means, next to the model's (QNA) answers",
       &read_queueing,
       {"model", "variants", "rates_per_us", "min_duration_ms", "batches", "target_ci_percent",
        "descriptor_bytes", "data_bytes"}},
      {"pipeline",
       "packets fragmented by the host programs: 1-way latency against the number of "
       "fragments, next to the pipeline model of a reference stage set and of the emulated "
       "path's stages measured by the direct method",
       &read_pipeline,
       {"packets", "fragments", "iterations", "send_copy", "recv_copy", "reference_stage",
        "fit_sizes"}},
      {"saturation",
       "one sender sending back to back to 1..n receivers: the throughput each firmware "
       "carries against the bound the hardware profile sets, and how busy every engine is",
       &read_saturation,
       {"sizes", "receivers", "reliability", "drop_probabilities"}},
  };
  return kinds;
}

Experiment parse_experiment(std::string_view text, const std::filesystem::path& source,
                            const std::filesystem::path& base_dir, const ParseOptions& options) {
  const std::string src = source.string();
  const toml::table root = parse_toml(text, src);
  const TableReader top(root, src, "");

  Experiment e;
  e.file = source;
  std::vector<std::string> kind_names;
  for (const auto& k : experiment_kinds())
    kind_names.emplace_back(k.name);
  const auto kind_value = top.string("kind");
  if (!kind_value)
    top.fail("kind", fmt::format("missing (one of: {})", joined(kind_names)));
  const auto kind = std::find_if(experiment_kinds().begin(), experiment_kinds().end(),
                                 [&](const ExperimentKind& k) { return k.name == *kind_value; });
  if (kind == experiment_kinds().end())
    top.fail("kind",
             fmt::format("unknown kind \"{}\" (known: {})", *kind_value, joined(kind_names)));
  e.kind = *kind_value;
  std::vector<std::string_view> allowed = common_keys;
  allowed.insert(allowed.end(), kind->top_level_keys.begin(), kind->top_level_keys.end());
  top.allow_only(allowed);

  e.name = top.string("name").value_or(source.stem().string());
  if (!plain_name(e.name))
    top.fail("name",
             fmt::format("must be 1-64 letters, digits, '-', '_' or '.' (got \"{}\")", e.name));
  e.description = top.string("description").value_or("");

  const bool real_names = options.known_firmwares.empty();
  e.firmwares = read_firmwares(top, base_dir,
                               real_names ? loader::firmware_names() : options.known_firmwares);

  e.profile_source = top.string("profile").value_or("");
  try {
    const bool is_path =
        e.profile_source.find('/') != std::string::npos || e.profile_source.ends_with(".toml");
    e.profile = is_path ? profile::load_profile(relative_to(base_dir, e.profile_source))
                        : profile::find_profile(e.profile_source);
  } catch (const std::exception& err) {
    top.fail("profile", err.what());
  }

  if (auto seed = top.integer("seed")) {
    if (*seed < 0)
      top.fail("seed", fmt::format("must be >= 0 (got {})", *seed));
    e.seed = static_cast<std::uint64_t>(*seed);
  }
  e.warmup_ms = top.number("warmup_ms").value_or(e.warmup_ms);
  if (e.warmup_ms < 0)
    top.fail("warmup_ms", fmt::format("must be >= 0 (got {})", e.warmup_ms));
  e.duration_ms = top.number("duration_ms").value_or(e.duration_ms);
  if (!(e.duration_ms > 0))
    top.fail("duration_ms", fmt::format("must be > 0 (got {})", e.duration_ms));
  if (e.warmup_ms + e.duration_ms > 1e6)
    top.fail("duration_ms", "warm-up plus duration must not exceed 1000 s of virtual time");
  check_firmware_links(top, e.firmwares, e.profile, real_names);

  kind->read(top, base_dir, e);
  return e;
}

Experiment load_experiment(const std::filesystem::path& file, const ParseOptions& options) {
  const std::string text = text::text_of_file<ExperimentError>(file, "cannot open experiment file");
  const auto base = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  return parse_experiment(text, file, base, options);
}

} // namespace lanai::bench
