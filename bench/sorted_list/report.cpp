#include "bench/sorted_list/report.hpp"

#include <cstdio>

namespace kds::bench {

const char* mode_name(Exactness mode) { return mode == Exactness::filtered ? "filtered" : "floating"; }

void write_csv(std::ostream& os, const std::vector<Row>& rows) {
  os << "n,mode,repetitions,horizon,events,swaps_per_point,setup_cpu_seconds,run_cpu_seconds,run_wall_seconds,events_per_cpu_second,"
        "failure_computations,failure_exact,sign_queries,sign_exact,comparisons,comparisons_exact,"
        "exact_roots_built,exact_fallbacks,fallbacks_per_1e6_comparisons,fallbacks_per_1e4_comparisons,"
        "filtered_over_floating,out_of_order\n";
  for (const Row& r : rows) {
    const SolverCounters& s = r.total.solver;
    os << r.n << ',' << mode_name(r.mode) << ',' << r.repetitions << ',' << r.horizon << ',' << r.total.events << ','
       << r.swaps_per_point() << ',' << r.total.setup_seconds << ',' << r.total.run_seconds << ',' << r.total.run_wall_seconds << ','
       << r.events_per_second() << ',' << s.failure_computations << ',' << s.failure_exact << ',' << s.sign_queries
       << ',' << s.sign_exact << ',' << s.comparisons << ',' << s.comparisons_exact << ',' << s.exact_roots_built
       << ',' << r.exact_fallbacks() << ',' << r.fallbacks_per(1e6) << ',' << r.fallbacks_per(1e4) << ',';
    if (r.filtered_over_floating > 0) os << r.filtered_over_floating;
    os << ',' << r.total.out_of_order << '\n';
  }
}

void write_table(std::ostream& os, const std::vector<Row>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%9s  %-8s %4s %10s %7s %9s %12s %10s %9s %9s %8s %6s\n", "n", "mode", "reps",
                "events", "swaps/n", "cpu [s]", "events/s", "fallbacks", "per 1e6", "per 1e4", "filt/flt",
                "wrong");
  os << line;
  for (const Row& r : rows) {
    char ratio[16] = "";
    if (r.filtered_over_floating > 0) std::snprintf(ratio, sizeof ratio, "%.3f", r.filtered_over_floating);
    std::snprintf(line, sizeof line, "%9zu  %-8s %4d %10llu %7.2f %9.3f %12.4g %10llu %9.3g %9.3g %8s %6llu\n", r.n,
                  mode_name(r.mode), r.repetitions, static_cast<unsigned long long>(r.total.events),
                  r.swaps_per_point(), r.total.run_seconds, r.events_per_second(),
                  static_cast<unsigned long long>(r.exact_fallbacks()), r.fallbacks_per(1e6), r.fallbacks_per(1e4),
                  ratio, static_cast<unsigned long long>(r.total.out_of_order));
    os << line;
  }
}

}  // namespace kds::bench
