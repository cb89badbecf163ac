// kds_bench_event_queue: the event queue chosen by measurement (issue 8, item 2). Replays
// two synthetic operation mixes on each queue of queues.hpp and reports nanoseconds per
// event. It reports; it does not switch kds's queue.
//
//   update mix (a kinetic sorted list, or one event per sphere): m entries; per event the
//     top's key moves later and two other entries' keys change in place (3 updates).
//   churn mix (kds's hard spheres today): m entries; per event the top is popped, k
//     random entries are erased and k + 1 new ones pushed (a collision destroys and
//     recreates every certificate of both spheres; issue 8 counts about 90).
// New keys are now + an exponential delay of mean m (so the queue keeps its size and a
// steady spread of keys), drawn from a fixed pool of random numbers so that every queue
// gets the same operations; the sequence of popped or updated top ids is hashed, and the
// hashes must agree across queues.
//
//   kds_bench_event_queue [--m 1000,...] [--events E] [--churn K] [--churn-events E] [--csv FILE]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/event_queue/queues.hpp"
#include "examples/common/command_line.hpp"

namespace {

using kds::bench::QueueId;

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Random numbers drawn once: exponential delays of mean 1 and uniform fractions.
struct Pool {
  std::vector<double> delay, fraction;
  std::size_t next_delay = 0, next_fraction = 0;
  explicit Pool(std::uint64_t seed) : delay(1 << 20), fraction(1 << 20) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < delay.size(); ++i) {
      const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53;
      delay[i] = -std::log(u);
      fraction[i] = static_cast<double>(rng() >> 11) * 0x1p-53;
    }
  }
  double exp() { return delay[next_delay++ & (delay.size() - 1)]; }
  double unit() { return fraction[next_fraction++ & (fraction.size() - 1)]; }
};

struct Result {
  double seconds = 0;
  std::uint64_t hash = 1469598103934665603ull;
  void mix(QueueId id) { hash = (hash ^ id) * 1099511628211ull; }
};

/// Runs `events` events on q, timed: each hashes the top's id and hands it and its key to `then`.
template <class Queue, class Then>
Result replay(Queue& q, std::uint64_t events, Then then) {
  Result r;
  const double start = cpu_now();
  for (std::uint64_t e = 0; e < events; ++e) {
    const QueueId top = q.top();
    r.mix(top);
    then(top, q.top_key());
  }
  r.seconds = cpu_now() - start;
  return r;
}

template <class Queue>
Result update_mix(std::size_t m, std::uint64_t events, std::uint64_t seed) {
  Pool pool(seed);
  Queue q;
  const double mean = static_cast<double>(m);
  for (QueueId id = 0; id < m; ++id) q.push(id, mean * pool.exp());
  return replay(q, events, [&](QueueId top, double now) {
    q.update(top, now + mean * pool.exp());
    for (int k = 0; k < 2; ++k) {
      const QueueId other = static_cast<QueueId>(pool.unit() * static_cast<double>(m));
      q.update(other, now + mean * pool.exp());
    }
  });
}

template <class Queue>
Result churn_mix(std::size_t m, std::uint64_t events, int k, std::uint64_t seed) {
  Pool pool(seed);
  Queue q;
  const double mean = static_cast<double>(m);
  std::vector<QueueId> live, free_ids;  // ids in the queue (unordered), ids to reuse
  std::vector<std::uint32_t> slot;      // position of each live id in `live`
  auto add = [&](double key) {
    QueueId id;
    if (free_ids.empty()) {
      id = static_cast<QueueId>(slot.size());
      slot.push_back(0);
    } else {
      id = free_ids.back();
      free_ids.pop_back();
    }
    slot[id] = static_cast<std::uint32_t>(live.size());
    live.push_back(id);
    q.push(id, key);
  };
  auto forget = [&](QueueId id) {
    const QueueId last = live.back();
    live[slot[id]] = last;
    slot[last] = slot[id];
    live.pop_back();
    free_ids.push_back(id);
  };
  for (std::size_t i = 0; i < m; ++i) add(mean * pool.exp());
  return replay(q, events, [&](QueueId top, double now) {
    q.pop();
    forget(top);
    for (int j = 0; j < k && !live.empty(); ++j) {
      const QueueId victim = live[static_cast<std::size_t>(pool.unit() * static_cast<double>(live.size()))];
      q.erase(victim);
      forget(victim);
    }
    for (int j = 0; j <= k; ++j) add(now + mean * pool.exp());
  });
}

struct Named {
  const char* name;
  Result (*update)(std::size_t, std::uint64_t, std::uint64_t);
  Result (*churn)(std::size_t, std::uint64_t, int, std::uint64_t);
};

template <class Queue>
Named named(const char* name) {
  return Named{name, &update_mix<Queue>, &churn_mix<Queue>};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  std::vector<double> ms{1000, 10000, 100000, 1000000};
  double events = 2e6, churn_events = 1e5;
  int churn = 90;
  std::uint64_t seed = 1;
  std::string csv_path;
  CommandLine line("kds_bench_event_queue", "Event queues on synthetic operation mixes: nanoseconds per event.");
  line.add_option("--m", ms, "queue sizes")->delimiter(',')->check(at_least(4))->capture_default_str();
  line.add_option("--events", events, "events of the update mix")->check(at_least(1))->capture_default_str();
  line.add_option("--churn", churn, "entries erased and pushed per event in the churn mix")
      ->check(integer_in(0))
      ->capture_default_str();
  line.add_option("--churn-events", churn_events, "events of the churn mix")->check(at_least(1))->capture_default_str();
  line.add_option("--seed", seed, "seed of the random pool")->check(integer_in(0))->capture_default_str();
  line.add_option("--csv", csv_path, "CSV output")->type_name("FILE");
  line.parse_or_exit(argc, argv);

  const std::vector<Named> queues{named<kds::bench::BoostDaryQueue>("boost_4ary_mutable (kds today)"),
                                  named<kds::bench::IndexedHeap<2>>("indexed_binary"),
                                  named<kds::bench::IndexedHeap<4>>("indexed_4ary"),
                                  named<kds::bench::PairingQueue>("boost_pairing")};
  kds::bench::CsvFile csv("kds_bench_event_queue", csv_path, "mix,m,queue,events,cpu_s,ns_per_event,agrees");
  std::printf("%-8s %9s %-32s %12s %8s\n", "mix", "m", "queue", "ns/event", "agrees");
  bool all_agree = true;
  for (const char* mix : {"update", "churn"})
    for (double md : ms) {
      const auto m = static_cast<std::size_t>(md);
      const bool update = std::string(mix) == "update";
      const auto n = static_cast<std::uint64_t>(update ? events : churn_events);
      std::uint64_t reference = 0;
      for (std::size_t i = 0; i < queues.size(); ++i) {
        const Result r = update ? queues[i].update(m, n, seed) : queues[i].churn(m, n, churn, seed);
        if (i == 0) reference = r.hash;
        const bool agrees = r.hash == reference;
        all_agree = all_agree && agrees;
        const double ns = 1e9 * r.seconds / static_cast<double>(n);
        std::printf("%-8s %9zu %-32s %12.1f %8s\n", mix, m, queues[i].name, ns, agrees ? "yes" : "NO");
        std::fflush(stdout);
        csv.row(mix, m, queues[i].name, n, r.seconds, ns, agrees ? 1 : 0);
      }
    }
  csv.close();
  return all_agree ? 0 : 1;
}
