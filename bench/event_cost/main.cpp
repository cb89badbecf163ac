// kds_bench_event_cost: every figure of issue 8's table, kds beside the plain floating-point
// codes of bench/baselines/ on identical input, in one run. Each configuration runs in its
// own process (this program started again with --child), so that its peak resident size
// is its own. See docs/benchmarks/event-cost.md.
//
//   kds_bench_event_cost [--works hard_spheres,paper,sorted_list] [--hard-spheres-n 1000,10000,100000]
//                        [--kds-max-n N] [--paper-n 1000] [--sorted-n 1000,...] [--phi 0.4] [--collisions-per-sphere K]
//                        [--paper-seconds T] [--min-events E] [--budget S] [--seed S] [--shuffled]
//                        [--machine NAME] [--csv FILE]
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/event_cost/process.hpp"
#include "bench/event_cost/runs.hpp"
#include "bench/event_cost/validation.hpp"
#include "examples/common/command_line.hpp"

namespace {

using kds::bench::Measurement;

struct Plan {
  std::string work, code;
  std::size_t n;
};

std::vector<Plan> plan(const std::vector<double>& spheres_n, double kds_max_n, const std::vector<double>& paper_n,
                       const std::vector<double>& sorted_n) {
  std::vector<Plan> p;
  for (double n : spheres_n) {
    if (n <= kds_max_n) p.push_back({"hard_spheres", "kds", static_cast<std::size_t>(n)});
    p.push_back({"hard_spheres", "kds_hard_spheres", static_cast<std::size_t>(n)});  // item 3's path
    p.push_back({"hard_spheres", "baseline", static_cast<std::size_t>(n)});
  }
  for (double n : paper_n) {
    p.push_back({"paper_unknown", "kds", static_cast<std::size_t>(n)});
    p.push_back({"paper_unknown", "baseline", static_cast<std::size_t>(n)});
    p.push_back({"paper_ballistic", "kds", static_cast<std::size_t>(n)});
    p.push_back({"paper_ballistic", "kds_hard_spheres", static_cast<std::size_t>(n)});  // item 3's path
    p.push_back({"paper_ballistic", "baseline", static_cast<std::size_t>(n)});
  }
  for (double n : sorted_n)
    for (const char* code : {"kds", "kds_floating", "kds_linear", "baseline"})
      p.push_back({"sorted_list", code, static_cast<std::size_t>(n)});
  return p;
}

const char* unit_of(const std::string& work) {
  if (work == "hard_spheres") return "collision";
  if (work == "sorted_list") return "event";
  return "simulated s";
}

/// The rate the table states for this work: per CPU second, or CPU s per simulated s.
double table_figure(const Measurement& m) {
  return m.work == "hard_spheres" || m.work == "sorted_list" ? 1 / m.cost() : m.cost();
}

/// --validate: the table of item 6, and the exit status (1 if any code disagrees).
int run_validation(std::size_t n, const kds::bench::RunSettings& s) {
  std::printf("%-16s %-17s %6s %10s %10s %9s %7s %8s %9s\n", "work", "code", "n", "horizon", "reference", "contacts",
              "missed", "spurious", "reordered");
  bool all = true;
  for (const kds::bench::ValidationRow& r : kds::bench::validate(n, s)) {
    std::printf("%-16s %-17s %6zu %10.4g %10zu %9zu %7zu %8zu %9zu\n", r.work.c_str(), r.code.c_str(), r.n, r.horizon,
                r.reference_contacts, r.contacts, r.missed, r.spurious, r.reordered);
    all = all && r.agrees();
  }
  std::printf(all ? "every code agrees with the all-pairs reference\n" : "DISAGREEMENT with the all-pairs reference\n");
  return all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace kds::programs;
  std::vector<double> spheres_n{1000, 10000, 100000}, paper_n{1000}, sorted_n{1000, 10000, 100000, 1000000};
  double kds_max_n = 100000;
  kds::bench::RunSettings s;
  s.per_sphere = 1;
  std::string csv_path, machine = "unnamed";
  std::vector<std::string> child, works{"hard_spheres", "paper", "sorted_list"};
  CommandLine line("kds_bench_event_cost",
                   "Issue 8's table: kds beside plain floating-point codes on identical input, one process per "
                   "configuration.");
  line.add_option("--works", works, "which parts of the table run: hard_spheres, paper (the Kim-Guibas-Shin scene), sorted_list")
      ->delimiter(',')
      ->check(CLI::IsMember({"hard_spheres", "paper", "sorted_list"}))
      ->capture_default_str();
  line.add_option("--hard-spheres-n", spheres_n, "hard-sphere counts")
      ->delimiter(',')
      ->check(at_least(8));
  line.add_option("--kds-max-n", kds_max_n, "largest hard-sphere count kds runs (kds needs ~10 KB per sphere)")
      ->capture_default_str();
  line.add_option("--paper-n", paper_n, "Kim-Guibas-Shin scene sizes")->delimiter(',')->check(at_least(2));
  line.add_option("--sorted-n", sorted_n, "sorted-list sizes")->delimiter(',')->check(at_least(2));
  line.add_option("--phi", s.phi, "hard-sphere volume fraction")->check(at_least(1e-6))->capture_default_str();
  line.add_option("--collisions-per-sphere", s.per_sphere, "timed collisions per sphere, after a quarter as many")
      ->check(at_least(1e-3))
      ->capture_default_str();
  line.add_option("--paper-seconds", s.paper_seconds, "simulated seconds of the paper's scene")
      ->check(at_least(1e-3))
      ->capture_default_str();
  line.add_option("--min-events", s.min_events, "sorted list: events per configuration, repeating small scenes")
      ->check(at_least(1))
      ->capture_default_str();
  line.add_option("--budget", s.budget, "CPU seconds after which a timed stretch stops early")
      ->check(at_least(0.01))
      ->capture_default_str();
  line.add_option("--seed", s.seed, "seed of every scene")->check(integer_in(0))->capture_default_str();
  line.add_flag("--shuffled", s.shuffled,
                "hard spheres: number the lattice's spheres in a random order (seeded), not along its rows");
  line.add_option("--machine", machine, "machine class written in the CSV")->capture_default_str();
  line.add_option("--csv", csv_path, "CSV output (default: the table only)")->type_name("FILE");
  std::size_t validate_n = 0;
  line.add_option("--validate", validate_n,
                  "instead of timing: run the hard-sphere codes at this n, audited after every event, against the "
                  "all-pairs reference, and report missed, spurious and reordered contacts (exit 1 if any)")
      ->check(integer_in(8));
  line.add_option("--child", child, "internal: run WORK CODE N in this process and print its CSV line")
      ->expected(3)
      ->group("");
  line.parse_or_exit(argc, argv);

  if (!child.empty()) {
    const Measurement m = kds::bench::measure(child[0], child[1], std::stoul(child[2]), s);
    std::cout << kds::bench::csv_line(m) << '\n';
    return 0;
  }

  if (validate_n > 0) return run_validation(validate_n, s);
  auto runs = [&](const char* work) { return std::find(works.begin(), works.end(), work) != works.end(); };
  if (!runs("hard_spheres")) spheres_n.clear();
  if (!runs("paper")) paper_n.clear();
  if (!runs("sorted_list")) sorted_n.clear();

  const std::vector<std::string> passed{"--phi",
                                        std::to_string(s.phi),
                                        "--collisions-per-sphere",
                                        std::to_string(s.per_sphere),
                                        "--paper-seconds",
                                        std::to_string(s.paper_seconds),
                                        "--min-events",
                                        std::to_string(s.min_events),
                                        "--budget",
                                        std::to_string(s.budget),
                                        "--seed",
                                        std::to_string(s.seed)};
  std::vector<std::string> passed_on = passed;
  if (s.shuffled) passed_on.push_back("--shuffled");
  // Opened before the runs: a path that cannot be written stops the program at once
  // (bench/common/csv_file.hpp), not after minutes of measuring.
  kds::bench::CsvFile csv("kds_bench_event_cost", csv_path,
                          "machine," + kds::bench::csv_header() +
                              ",unit,cpu_s_per_unit,table_figure,bytes_per_item,cost_over_baseline,filtered_over_floating,"
                              "phi,seed,ids");
  std::vector<Measurement> rows;
  std::map<std::tuple<std::string, std::string, std::size_t>, double> cost;
  for (const Plan& p : plan(spheres_n, kds_max_n, paper_n, sorted_n)) {
    std::cerr << p.work << ' ' << p.code << " n = " << p.n << " ..." << std::flush;
    std::vector<std::string> arguments = passed_on;
    for (const std::string& w : {std::string("--child"), p.work, p.code, std::to_string(p.n)}) arguments.push_back(w);
    const std::vector<std::string> out = kds::bench::run_self(arguments);
    if (out.empty()) throw std::runtime_error("no result from " + p.work + " " + p.code);
    rows.push_back(kds::bench::parse_csv_line(out.back()));
    cost[{p.work, p.code, p.n}] = rows.back().cost();
    std::cerr << " done\n";
  }

  std::printf("%-16s %-12s %8s %9s %12s %12s %10s %9s %9s\n", "work", "code", "n", "setup s", "table figure", "unit",
              "B/item", "x base", "filt/flt");
  for (const Measurement& m : rows) {
    const double bytes = static_cast<double>(m.peak_rss - m.start_rss) / static_cast<double>(m.n);
    const auto base = cost.find({m.work, "baseline", m.n});
    const auto floating = cost.find({m.work, "kds_floating", m.n});
    const double over_base = base != cost.end() && m.code != "baseline" ? m.cost() / base->second : 0;
    const double over_floating = floating != cost.end() && m.code == "kds" ? m.cost() / floating->second : 0;
    const bool per_cpu_second = m.work == "hard_spheres" || m.work == "sorted_list";
    std::printf("%-16s %-12s %8zu %9.3f %12.4g %12s %10.0f %9.3g %9.3g\n", m.work.c_str(), m.code.c_str(), m.n,
                m.setup_cpu_s, table_figure(m),
                per_cpu_second ? (std::string(unit_of(m.work)) + "s/CPU s").c_str() : "CPU s/sim s", bytes, over_base,
                over_floating);
    std::ostringstream line;  // the last two fields empty where there is no ratio
    line << machine << ',' << kds::bench::csv_line(m) << ',' << unit_of(m.work) << ',' << m.cost() << ','
         << table_figure(m) << ',' << bytes << ',';
    if (over_base > 0) line << over_base;
    line << ',';
    if (over_floating > 0) line << over_floating;
    // The scene's settings (phi and the numbering of the lattice concern the hard spheres).
    line << ',' << s.phi << ',' << s.seed << ',' << (s.shuffled ? "shuffled" : "lattice");
    csv.row(line.str());
  }
  csv.close();
  return 0;
} catch (const std::exception& e) {
  std::cerr << "kds_bench_event_cost: " << e.what() << '\n';
  return 1;
}
