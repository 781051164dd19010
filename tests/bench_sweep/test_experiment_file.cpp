// Tests of experiment files: a valid file expands to the expected points,
// every error names the file, the key and the problem, and the experiment
// files shipped with the bench all parse.
#include "bench/sweep/experiment_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "bench/sweep/load_points.hpp"
#include "bench/sweep/point_spec.hpp"

using namespace lanai::bench;
namespace fs = std::filesystem;

namespace {

const ParseOptions firmwares{{"svia", "pvia", "qosvia", "nic-send-twin"}};

fs::path scratch() {
  const fs::path dir = fs::path(BENCH_EXPERIMENT_TEST_SCRATCH);
  fs::create_directories(dir);
  return dir;
}

Experiment parse(const std::string& text, const std::string& name = "test.toml") {
  return parse_experiment(text, name, scratch(), firmwares);
}

const char* const highload = R"(
name = "cbr-highload"
kind = "jitter"
firmwares = ["svia", "pvia", "qosvia"]
receivers = 4
[[class]]
name = "2MBps"
traffic = "cbr"
rate_MBps = 2.0
message_bytes = 4096
receiver = 1
[[class]]
name = "8MBps"
traffic = "cbr"
rate_MBps = 8.0
message_bytes = 4096
receiver = 2
[[class]]
name = "32MBps"
traffic = "cbr"
rate_MBps = 32.0
message_bytes = 4096
receiver = 3
[best_effort]
rate_MBps = 33.0
message_bytes = 4096
receiver = 4
[load]
add_order = ["2MBps", "8MBps", "32MBps"]
max_total_MBps = 160.0
)";

// The same file with one line replaced (or a line put first when `from` is
// empty).
std::string with(std::string text, const std::string& from, const std::string& to) {
  if (from.empty())
    return to + "\n" + text; // a top-level key
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ExperimentError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("the high-load rule adds channels in order until the load passes the limit") {
  const Experiment e = parse(highload);
  CHECK(e.firmwares.size() == 3);
  CHECK(e.seed == 1);
  CHECK(e.warmup_ms == doctest::Approx(2.0));
  CHECK(e.duration_ms == doctest::Approx(30.0));
  CHECK(e.profile.name == lanai::profile::default_profile().name);
  const auto points = load_points(e.jitter);
  // 33 of best effort, then +2, +8, +32, +2, ... until first above 160.
  const std::vector<double> totals{35, 43, 75, 77, 85, 117, 119, 127, 159, 161};
  REQUIRE(points.size() == totals.size());
  for (std::size_t i = 0; i < totals.size(); ++i)
    CHECK(points[i].total_mbytes_per_s == doctest::Approx(totals[i]));
  CHECK(points[0].channels == std::vector<std::uint32_t>{1, 0, 0});
  CHECK(points[2].channels == std::vector<std::uint32_t>{1, 1, 1});
  CHECK(points[9].channels == std::vector<std::uint32_t>{4, 3, 3});
}

TEST_CASE("a channels list gives one point per entry, filled in the add order") {
  const Experiment e = parse(with(with(highload, "max_total_MBps = 160.0", "channels = [3, 6, 7]"),
                                  "add_order = [\"2MBps\", \"8MBps\", \"32MBps\"]",
                                  "add_order = [\"32MBps\", \"2MBps\"]"));
  const auto points = load_points(e.jitter);
  REQUIRE(points.size() == 3);
  CHECK(points[0].channels == std::vector<std::uint32_t>{1, 0, 2});
  CHECK(points[1].channels == std::vector<std::uint32_t>{3, 0, 3});
  CHECK(points[2].channels == std::vector<std::uint32_t>{3, 0, 4});
  CHECK(points[2].total_mbytes_per_s == doctest::Approx(33 + 3 * 2 + 4 * 32));
}

TEST_CASE("a list of totals gives one point per total, filled in the add order under it") {
  const Experiment e =
      parse(with(highload, "max_total_MBps = 160.0", "totals_MBps = [35, 45, 65, 85.5]"));
  const auto points = load_points(e.jitter);
  REQUIRE(points.size() == 4);
  // 2, 8 and 32 MB/s classes over 33 MB/s of best effort.
  CHECK(points[0].channels == std::vector<std::uint32_t>{1, 0, 0});
  CHECK(points[0].total_mbytes_per_s == doctest::Approx(35));
  CHECK(points[1].channels == std::vector<std::uint32_t>{2, 1, 0});
  CHECK(points[1].total_mbytes_per_s == doctest::Approx(45));
  CHECK(points[2].channels == std::vector<std::uint32_t>{4, 3, 0});
  CHECK(points[3].channels == std::vector<std::uint32_t>{2, 2, 1});
  CHECK(points[3].total_mbytes_per_s == doctest::Approx(85));
  // The shipped high-load sweep: every 10 MB/s from 35 to 175.
  const Experiment shipped = load_experiment(fs::path(BENCH_EXPERIMENTS_DIR) / "cbr-highload.toml",
                                             ParseOptions{{"svia", "pvia", "qosvia"}});
  const auto sweep = load_points(shipped.jitter);
  REQUIRE(sweep.size() == 15);
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    CAPTURE(i);
    CHECK(sweep[i].total_mbytes_per_s == doctest::Approx(35.0 + 10.0 * static_cast<double>(i)));
  }
  CHECK(sweep.back().channels[2] >= 3);
  const std::string f = "test.toml: ";
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [34]")) ==
        f + "load.totals_MBps: 34 MB/s leaves no room for a QoS channel above the 33 MB/s of best "
            "effort");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [35, 36]")) ==
        f + "load.totals_MBps: 36 MB/s gives the same channels as the total before it");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [45, 35]")) ==
        f + "load.totals_MBps[2]: values must be listed in ascending order");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = []")) ==
        f + "load.totals_MBps: must list at least one point");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [-5]")) ==
        f + "load.totals_MBps[1]: must be > 0 (got -5)");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [\"fast\"]")) ==
        f + "load.totals_MBps[1]: must be a number (got a string)");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "totals_MBps = [35]\nchannels = [3]")) ==
        f + "load.totals_MBps: give exactly one of max_total_MBps, channels and totals_MBps");
}

TEST_CASE("a point's spec has one channel per VI, best effort last, seeds shared by firmwares") {
  const Experiment e = parse(highload);
  const auto points = load_points(e.jitter);
  const StreamPointSpec a = point_spec(e, points[4], sweep_point(4, points.size()));
  const StreamPointSpec b = point_spec(e, points[4], sweep_point(14, points.size()));
  CHECK(a.firmware == "svia");
  CHECK(b.firmware == "pvia");
  CHECK(a.seed == b.seed);
  CHECK(a.seed != point_spec(e, points[5], sweep_point(5, points.size())).seed);
  REQUIRE(a.channels.size() == 6); // 2 + 2 + 1 QoS channels and best effort
  CHECK(a.channels[0].class_name == "2MBps");
  CHECK(a.channels[4].class_name == "32MBps");
  CHECK(a.channels[5].class_name == "BE");
  CHECK(a.channels[5].traffic == Traffic::best_effort);
  CHECK(a.receivers == 4);
  CHECK(a.duration.ps() == 30'000'000'000);
  CHECK(a.reliability == VIP_SERVICE_UNRELIABLE);
  const Experiment r = parse(with(highload, "", "reliability = \"reception\""));
  CHECK(point_spec(r, points[4], sweep_point(4, points.size())).reliability ==
        VIP_SERVICE_RELIABLE_RECEPTION);
}

TEST_CASE("VBR classes get their own frame streams, from a generator or a trace") {
  const std::string vbr = R"(
kind = "jitter"
firmwares = ["svia"]
receivers = 2
duration_ms = 100
warmup_ms = 0
[[class]]
name = "video"
traffic = "vbr"
rate_MBps = 1.9
frame_rate = 24.0
receiver = 1
[[class]]
name = "traced"
traffic = "vbr"
rate_MBps = 1.0
frame_rate = 25.0
receiver = 2
trace = "frames.txt"
[load]
channels = [4]
)";
  { std::ofstream(scratch() / "frames.txt") << "# bytes per frame\n100\n200\n300\n400\n500\n"; }
  const Experiment e = parse(vbr);
  CHECK(e.name == "test");
  CHECK(e.jitter.classes[0].interval_ps() == doctest::Approx(1e12 / 24));
  const auto points = load_points(e.jitter);
  const StreamPointSpec s = point_spec(e, points[0], sweep_point(0, 1));
  REQUIRE(s.channels.size() == 4);
  // 100 ms at 24 frames/s is 2.4 frames: 3, plus the margin.
  CHECK(s.channels[0].frames.size() == 5);
  CHECK(s.channels[0].frames != s.channels[1].frames);
  CHECK(s.channels[2].frames.size() == 5);
  CHECK(s.channels[2].frames[0] == 100);
  CHECK(s.channels[3].frames[0] != 100); // another offset into the trace
}

TEST_CASE("every error names the file, the key and the problem") {
  const std::string f = "test.toml: ";
  CHECK(error_of(with(highload, "rate_MBps = 8.0", "rate_MBps = -1")) ==
        f + "class[2].rate_MBps: must be > 0 (got -1)");
  CHECK(error_of(with(highload, "rate_MBps = 8.0", "rate_MBs = 8.0")) ==
        f + "class[2].rate_MBs: unknown key (did you mean 'rate_MBps'?)");
  CHECK(error_of(highload + std::string("colour = \"blue\"\n")) == f + "load.colour: unknown key");
  CHECK(error_of(with(highload, "receivers = 4", "recievers = 4")) ==
        f + "recievers: unknown key (did you mean 'receivers'?)");
  CHECK(error_of(with(highload, "message_bytes = 4096\nreceiver = 1",
                      "message_bytes = \"4K\"\nreceiver = 1")) ==
        f + "class[1].message_bytes: must be an integer (got a string)");
  CHECK(error_of(with(highload, "name = \"8MBps\"\n", "")) ==
        f + "class[2].name: missing (a string is required)");
  CHECK(error_of(with(highload, "firmwares = [\"svia\", \"pvia\", \"qosvia\"]",
                      "firmwares = [\"svia\", \"gm\"]")) ==
        f + "firmwares[2]: unknown firmware \"gm\" (known: svia, pvia, qosvia, nic-send-twin; or "
            "a firmware folder's path, containing '/')");
  CHECK(error_of(with(highload, "add_order = [\"2MBps\", \"8MBps\", \"32MBps\"]",
                      "add_order = [\"2MBps\", \"16MBps\"]")) ==
        f + "load.add_order[2]: unknown class \"16MBps\" (classes: 2MBps, 8MBps, 32MBps)");
  CHECK(error_of(with(highload, "receiver = 4", "receiver = 5")) ==
        f + "best_effort.receiver: must be in 1..4 (got 5)");
  CHECK(error_of(with(highload, "receiver = 3", "receiver = 0")) ==
        f + "class[3].receiver: must be in 1..4 (got 0)");
  CHECK(error_of(
            with(highload, "max_total_MBps = 160.0", "max_total_MBps = 160.0\nchannels = [3]")) ==
        f + "load.channels: give exactly one of max_total_MBps, channels and totals_MBps");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "")) ==
        f + "load.max_total_MBps: give exactly one of max_total_MBps, channels and totals_MBps");
  CHECK(error_of(with(highload, "kind = \"jitter\"", "kind = \"pingpong\"")) ==
        f + "kind: unknown kind \"pingpong\" (known: jitter, queueing, pipeline, saturation)");
  CHECK(error_of(with(highload, "kind = \"jitter\"", "")) ==
        f + "kind: missing (one of: jitter, queueing, pipeline, saturation)");
  CHECK(error_of(with(highload, "traffic = \"cbr\"", "traffic = \"abr\"")) ==
        f + "class[1].traffic: must be \"cbr\" or \"vbr\" (got \"abr\")");
  CHECK(error_of(with(highload, "name = \"32MBps\"", "name = \"8MBps\"")) ==
        f + "class[3].name: duplicate class name \"8MBps\"");
  CHECK(error_of(with(highload, "", "duration_ms = 0")) == f + "duration_ms: must be > 0 (got 0)");
  CHECK(error_of(with(highload, "", "seed = -3")) == f + "seed: must be >= 0 (got -3)");
  CHECK(parse(with(highload, "", "reliability = \"delivery\"")).jitter.reliability ==
        VIP_SERVICE_RELIABLE_DELIVERY);
  CHECK(parse(with(highload, "", "reliability = \"unreliable\"")).jitter.reliability ==
        VIP_SERVICE_UNRELIABLE);
  CHECK(error_of(with(highload, "", "reliability = \"reliable\"")) ==
        f + "reliability: \"reliable\" is not \"unreliable\", \"delivery\" or \"reception\"");
  CHECK(error_of(with(highload, "", "profile = \"no-such-profile.toml\""))
            .starts_with(f + "profile: "));
  CHECK(error_of(with(highload, "", "profile = \"no-such-profile\"")).starts_with(f + "profile: "));
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "max_total_MBps = 1e9")) ==
        f + "load.max_total_MBps: a point would have more than 1000 channels");
  CHECK(error_of(with(highload, "max_total_MBps = 160.0", "channels = [3, 0]")) ==
        f + "load.channels[2]: must be in 1..1000 (got 0)");
  // A VBR class with an unreadable trace.
  const std::string vbr_class =
      with(highload, "traffic = \"cbr\"\nrate_MBps = 2.0\nmessage_bytes = 4096",
           "traffic = \"vbr\"\nrate_MBps = 2.0\nframe_rate = 24.0\ntrace = \"missing.txt\"");
  CHECK(error_of(vbr_class).starts_with(f + "class[1].trace: "));
  CHECK(error_of(with(highload, "traffic = \"cbr\"\nrate_MBps = 2.0",
                      "traffic = \"vbr\"\nrate_MBps = 2.0\nframe_rate = 24.0")) ==
        f + "class[1].message_bytes: unknown key");
}

TEST_CASE("queueing experiments: the twin's keys and the model it runs are checked") {
  const std::string model = (fs::path(BENCH_MODELS_DIR) / "nic-send.toml").string();
  const std::string queueing = "kind = \"queueing\"\nfirmwares = [\"nic-send-twin\"]\n"
                               "model = \"" +
                               model + "\"\nrates_per_us = [0.005, 0.011]\n";
  const Experiment e = parse(queueing);
  CHECK(e.queueing.variants == std::vector<std::string>{"cyclic", "pooled"});
  CHECK(e.queueing.rates_per_us == std::vector<double>{0.005, 0.011});
  CHECK(e.queueing.services.hdma_data_us == doctest::Approx(68.3154));
  CHECK(!e.queueing.services.lanai_only);
  const std::string f = "test.toml: ";
  CHECK(error_of(with(queueing, "", "variants = [\"cyclic\", \"random\"]")) ==
        f + "variants[2]: unknown variant \"random\" (known: cyclic, pooled)");
  CHECK(error_of(with(queueing, "rates_per_us = [0.005, 0.011]", "rates_per_us = [0.005, -1]")) ==
        f + "rates_per_us[2]: must be > 0 and at most 10 per us (got -1)");
  CHECK(
      error_of(with(queueing, "rates_per_us = [0.005, 0.011]", "rates_per_us = [0.005, \"x\"]")) ==
      f + "rates_per_us[2]: must be a number (got a string)");
  CHECK(error_of(with(queueing, "", "batches = 1")) == f + "batches: must be in 2..1000 (got 1)");
  CHECK(error_of(with(queueing, "", "min_duration_ms = 50000")) ==
        f + "min_duration_ms: must be > 0 and at most duration_ms (30) (got 50000)");
  CHECK(error_of(with(queueing, "", "data_bytes = 32")) ==
        f + "model: data_bytes (32) must exceed descriptor_bytes (64)");
  CHECK(error_of(with(queueing, "firmwares = [\"nic-send-twin\"]",
                      "firmwares = [\"nic-send-twin\", \"pvia\"]")) ==
        f + "firmwares: a queueing experiment runs one reference firmware (nic-send-twin)");
  CHECK(error_of(with(queueing, model, "absent.toml")).starts_with(f + "model: "));
  CHECK(error_of(with(queueing, "model = ", "modle = ")) ==
        f + "modle: unknown key (did you mean 'model'?)");
}

TEST_CASE("pipeline experiments: packets, fragment counts, host work and reference stages") {
  const std::string pipeline =
      "kind = \"pipeline\"\nfirmwares = [\"pvia\"]\n"
      "packets = [4096, 8192]\nfragments = [1, 2, 4]\n"
      "[send_copy]\ng_us = 7.2\nG_us_per_kb = 7.2\n"
      "[[reference_stage]]\nname = \"dma\"\ng_us = 5.2\nG_us_per_kb = 24.9\n";
  const Experiment e = parse(pipeline);
  CHECK(e.pipeline.packets == std::vector<std::uint32_t>{4096, 8192});
  CHECK(e.pipeline.fragments == std::vector<std::uint32_t>{1, 2, 4});
  CHECK(e.pipeline.iterations == 3);
  CHECK(e.pipeline.send_copy.G_us_per_kb == 7.2);
  CHECK(e.pipeline.recv_copy.g_us == 0);
  CHECK(e.pipeline.fit_sizes == std::vector<std::uint32_t>{256, 1024, 4096, 8192});
  REQUIRE(e.pipeline.reference.size() == 1);
  CHECK(e.pipeline.reference[0].stage.G_us_per_kb == 24.9);
  const std::string f = "test.toml: ";
  CHECK(error_of(with(pipeline, "packets = [4096, 8192]", "packets = [8192, 4096]")) ==
        f + "packets[2]: values must be listed in ascending order");
  CHECK(error_of(with(pipeline, "packets = [4096, 8192]", "packets = [4096, 70000]")) ==
        f + "packets[2]: must be in 1..65536 (got 70000)");
  CHECK(error_of(with(pipeline, "fragments = [1, 2, 4]", "fragments = [0, 2]")) ==
        f + "fragments[1]: must be in 1..64 (got 0)");
  CHECK(error_of(with(pipeline, "packets = [4096, 8192]", "packets = [2]")) ==
        f + "fragments: 4 fragments of the 2-byte packet: at most one per byte");
  CHECK(error_of(with(pipeline, "G_us_per_kb = 7.2", "G_us_per_kb = -1")) ==
        f + "send_copy.G_us_per_kb: must be in 0..1e6 (got -1)");
  CHECK(error_of(with(pipeline, "g_us = 7.2", "g = 7.2")) == f + "send_copy.g: unknown key");
  CHECK(error_of(with(pipeline, "name = \"dma\"\n", "")) ==
        f + "reference_stage[1].name: missing (a string is required)");
  CHECK(error_of(with(pipeline, "g_us = 5.2", "g_us = -5.2")) ==
        f + "reference_stage[1].g_us: must be >= 0 (got -5.2)");
  CHECK(error_of(with(
            pipeline, "[[reference_stage]]\nname = \"dma\"\ng_us = 5.2\nG_us_per_kb = 24.9\n",
            "")) == f + "reference_stage: missing (at least one [[reference_stage]] is required)");
  CHECK(error_of(with(pipeline, "", "fit_sizes = [4096]")) ==
        f + "fit_sizes: the direct method needs at least two sizes");
  CHECK(error_of(with(pipeline, "", "iterations = 0")) ==
        f + "iterations: must be in 1..1000 (got 0)");
}

TEST_CASE("saturation experiments: message sizes and receiver counts") {
  const std::string saturation = "kind = \"saturation\"\nfirmwares = [\"svia\", \"pvia\"]\n"
                                 "sizes = [1024, 65536]\nreceivers = [1, 4]\n";
  const Experiment e = parse(saturation);
  CHECK(e.saturation.sizes == std::vector<std::uint32_t>{1024, 65536});
  CHECK(e.saturation.receivers == std::vector<std::uint32_t>{1, 4});
  CHECK(parse(with(saturation, "receivers = [1, 4]\n", "")).saturation.receivers ==
        std::vector<std::uint32_t>{1});
  const std::string f = "test.toml: ";
  CHECK(error_of(with(saturation, "sizes = [1024, 65536]\n", "")) ==
        f + "sizes: missing (an array of whole numbers is required)");
  CHECK(error_of(with(saturation, "sizes = [1024, 65536]", "sizes = []")) ==
        f + "sizes: must list at least one value");
  CHECK(error_of(with(saturation, "sizes = [1024, 65536]", "sizes = [8, 1024]")) ==
        f + "sizes[1]: must be in 16..65536 (got 8)");
  CHECK(error_of(with(saturation, "sizes = [1024, 65536]", "sizes = [1024, 70000]")) ==
        f + "sizes[2]: must be in 16..65536 (got 70000)");
  CHECK(error_of(with(saturation, "sizes = [1024, 65536]", "sizes = [4096, 1024]")) ==
        f + "sizes[2]: values must be listed in ascending order");
  CHECK(error_of(with(saturation, "receivers = [1, 4]", "receivers = [0, 4]")) ==
        f + "receivers[1]: must be in 1..64 (got 0)");
  CHECK(error_of(with(saturation, "receivers = [1, 4]", "receivers = [1, 65]")) ==
        f + "receivers[2]: must be in 1..64 (got 65)");
  CHECK(error_of(with(saturation, "receivers = [1, 4]", "receivers = [1, 4]\nfragments = [2]")) ==
        f + "fragments: unknown key");
}

TEST_CASE("saturation experiments: drop probabilities") {
  const std::string saturation = "kind = \"saturation\"\nfirmwares = [\"svia\"]\n"
                                 "sizes = [4096]\ndrop_probabilities = [0, 1e-4, 0.01]\n";
  CHECK(parse(saturation).saturation.drop_probabilities == std::vector<double>{0, 1e-4, 0.01});
  CHECK(parse(with(saturation, "drop_probabilities = [0, 1e-4, 0.01]\n", ""))
            .saturation.drop_probabilities.empty());
  const std::string f = "test.toml: ";
  const std::string axis = "drop_probabilities = [0, 1e-4, 0.01]";
  CHECK(error_of(with(saturation, axis, "drop_probabilities = []")) ==
        f + "drop_probabilities: must list at least one value");
  CHECK(error_of(with(saturation, axis, "drop_probabilities = [0, 1.5]")) ==
        f + "drop_probabilities[2]: must be in 0..1 (got 1.5)");
  CHECK(error_of(with(saturation, axis, "drop_probabilities = [-0.1]")) ==
        f + "drop_probabilities[1]: must be in 0..1 (got -0.1)");
  CHECK(error_of(with(saturation, axis, "drop_probabilities = [0.01, 0.001]")) ==
        f + "drop_probabilities[2]: values must be listed in ascending order");
  CHECK(error_of(with(saturation, axis, "drop_probabilities = [0, \"high\"]")) ==
        f + "drop_probabilities[2]: must be a number (got a string)");
  CHECK(error_of(with(saturation, axis, "drop_probabilities = 0.01")) ==
        f + "drop_probabilities: must be an array of numbers (got a number)");
  CHECK(parse(saturation).saturation.reliability == kUnreliable);
  CHECK(parse(saturation + "reliability = \"delivery\"\n").saturation.reliability ==
        kReliableDelivery);
  CHECK(parse(saturation + "reliability = \"reception\"\n").saturation.reliability ==
        kReliableReception);
  CHECK(error_of(saturation + "reliability = \"sometimes\"\n") ==
        f + "reliability: \"sometimes\" is not \"unreliable\", \"delivery\" or \"reception\"");
  // Another kind has no such axis.
  CHECK(error_of("kind = \"pipeline\"\nfirmwares = [\"svia\"]\npackets = [4096]\n"
                 "fragments = [1]\ndrop_probabilities = [0]\n")
            .ends_with("drop_probabilities: unknown key"));
}

TEST_CASE("firmwares: shipped names, folders by path, labels") {
  const std::string root = BENCH_FIRMWARE_ROOT;
  const std::string list = "firmwares = [\"svia\", \"pvia\", \"qosvia\"]";
  const Experiment e = parse(with(highload, list,
                                  "firmwares = [\"svia\", {path = \"" + root +
                                      "/pvia/\", label = \"p2\"}, {name = \"qosvia\", label = "
                                      "\"vc\"}, \"" +
                                      root + "/qosvia-sfq\"]"));
  REQUIRE(e.firmwares.size() == 4);
  CHECK(e.firmwares[0].label == "svia");
  CHECK(e.firmwares[0].shipped);
  CHECK(e.firmwares[1].label == "p2");
  CHECK(e.firmwares[1].source == root + "/pvia");
  CHECK_FALSE(e.firmwares[1].shipped);
  CHECK(e.firmwares[2].label == "vc");
  CHECK(e.firmwares[2].source == "qosvia");
  CHECK(e.firmwares[3].label == "qosvia-sfq"); // the folder's own name
  CHECK(firmware_toml(e.firmwares[0]) == "\"svia\"");
  CHECK(firmware_toml(e.firmwares[1]) == "{path = \"" + root + "/pvia\", label = \"p2\"}");
  CHECK(firmware_toml(e.firmwares[2]) == "{name = \"qosvia\", label = \"vc\"}");
  // A path is relative to the experiment file's folder.
  const fs::path here = scratch() / "relative";
  fs::create_directories(here);
  const std::string relative = fs::relative(fs::path(root) / "svia", here).string();
  const Experiment r = parse_experiment(with(highload, list, "firmwares = [\"" + relative + "\"]"),
                                        "test.toml", here, firmwares);
  CHECK(r.firmwares[0].label == "svia");
  CHECK(fs::path(r.firmwares[0].source) == fs::path(root) / "svia");
}

TEST_CASE("firmwares: every bad entry names its place") {
  const std::string f = "test.toml: ";
  const std::string root = BENCH_FIRMWARE_ROOT;
  const std::string list = "firmwares = [\"svia\", \"pvia\", \"qosvia\"]";
  auto bad = [&](const std::string& entries) {
    return error_of(with(highload, list, "firmwares = [" + entries + "]"));
  };
  CHECK(bad("\"pvia\", \"" + root + "/pvia\"") ==
        f + "firmwares[2]: the label \"pvia\" is taken by an earlier firmware: give this one a "
            "label, {path = \"...\", label = \"...\"}");
  CHECK(bad("\"pvia\", \"pvia\"") == f + "firmwares[2]: \"pvia\" is listed twice");
  CHECK(bad("{path = \"" + root + "/pvia\", name = \"svia\"}") ==
        f + "firmwares[1].path: give exactly one of name and path");
  CHECK(bad("{name = \"./pvia\"}") ==
        f + "firmwares[1].name: \"./pvia\" is a path: give it as path = \"...\"");
  CHECK(bad("{path = \"" + root + "/pvia\", label = \"my pvia\"}") ==
        f + "firmwares[1].label: must be 1-64 letters, digits, '-', '_' or '.' (got \"my pvia\")");
  CHECK(bad("{path = \"" + root + "/pvia\", colour = \"red\"}") ==
        f + "firmwares[1].colour: unknown key");
  CHECK(bad("3") == f + "firmwares[1]: must be a firmware name, a firmware folder's path, or a "
                        "table {path = \"...\", label = \"...\"}");
  CHECK(bad("\"./absent\"") == f + "firmwares[1]: firmware folder " +
                                   (scratch() / "absent").string() + ": no such folder");
  CHECK(bad("") == f + "firmwares: must name at least one firmware");
  CHECK(error_of(with(highload, list, "firmwares = \"pvia\"")) ==
        f + "firmwares: must be an array (got a string)");
}

TEST_CASE("TOML syntax errors give the line and column") {
  const std::string message = error_of("kind = \"jitter\"\nreceivers = = 4\n");
  CHECK(message.starts_with("test.toml:2:"));
}

TEST_CASE("a missing experiment file is reported with its name") {
  try {
    load_experiment(scratch() / "absent.toml", firmwares);
    FAIL("no error");
  } catch (const ExperimentError& e) {
    CHECK(std::string(e.what()).find("absent.toml: cannot open experiment file") !=
          std::string::npos);
  }
}

TEST_CASE("paths in an experiment that name no regular file are refused unread") {
  // A device would be read until memory ran out: the experiment file, its
  // profile, a class's frame-size trace and a queueing model alike.
  CHECK_THROWS_WITH_AS(load_experiment("/dev/zero", firmwares),
                       "/dev/zero: not a regular file (a directory, device or pipe cannot be read "
                       "as input)",
                       ExperimentError);
  const std::string head =
      "name = \"x\"\nkind = \"jitter\"\nfirmwares = [\"svia\"]\nreceivers = 1\n";
  for (const std::string& body :
       {head + "profile = \"/dev/zero\"\n",
        head + "[[class]]\nname = \"v\"\ntraffic = \"vbr\"\nrate_MBps = 1.0\n"
               "frame_rate = 30.0\ntrace = \"/dev/zero\"\nreceiver = 1\n[load]\nchannels = [1]\n",
        std::string("name = \"q\"\nkind = \"queueing\"\nfirmwares = [\"nic-send-twin\"]\n"
                    "model = \"/dev/zero\"\n")}) {
    CAPTURE(body);
    try {
      (void)parse_experiment(body, "t.toml", scratch(), firmwares);
      FAIL("accepted");
    } catch (const std::exception& e) {
      CHECK(std::string(e.what()).find("/dev/zero: not a regular file") != std::string::npos);
    }
  }
}

TEST_CASE("the shipped experiment files parse") {
  ParseOptions all{
      {"svia", "pvia", "qosvia", "qosvia-sfq", "qosvia-fcfs", "qosvia-regulated", "nic-send-twin"}};
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(BENCH_EXPERIMENTS_DIR)) {
    if (entry.path().extension() != ".toml")
      continue;
    CAPTURE(entry.path().string());
    const Experiment e = load_experiment(entry.path(), all);
    if (e.kind == "jitter")
      CHECK(!load_points(e.jitter).empty());
    else if (e.kind == "pipeline")
      CHECK(!e.pipeline.reference.empty());
    else if (e.kind == "saturation")
      CHECK(!e.saturation.sizes.empty());
    else
      CHECK(!e.queueing.rates_per_us.empty());
    ++files;
  }
  CHECK(files >= 3);
  const Experiment testbed =
      load_experiment(fs::path(BENCH_EXPERIMENTS_DIR) / "cbr-testbed.toml", all);
  const auto points = load_points(testbed.jitter);
  REQUIRE(points.size() == 5);
  CHECK(points[4].channels == std::vector<std::uint32_t>{5, 5, 5});
  CHECK(points[4].total_mbytes_per_s == doctest::Approx(30));
  const Experiment vbr = load_experiment(fs::path(BENCH_EXPERIMENTS_DIR) / "vbr-mpeg.toml", all);
  CHECK(load_points(vbr.jitter).back().qos_channels() == 80);
}
