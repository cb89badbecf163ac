#!/usr/bin/env python3
"""Sums a flat perf profile into the cost categories of docs/benchmarks/event-cost.md, so
that "before" and "after" profiles are compared in the same words.

    perf record -e cpu-clock -F 999 -o run.data -- <program> <arguments>
    perf report -i run.data --no-children --sort dso,symbol --stdio | python3 scripts/profile_categories.py

A symbol goes to the first category whose pattern it contains; the rest is "other".
"""
import re
import sys

CATEGORIES = [
    ("event queue", ["HeapEventQueue", "_List_node_base", "fires_before", "kds::compare"]),
    ("certificate life cycle", ["Simulator::destroy", "Simulator::adopt", "Simulator::create_with", "create_pair",
                                "destroy_certificates", "refresh_pairs", "create_faces", "Simulator::flush",
                                "~BoundSeparation", "~PlaneSide", "~Order", "~Deadline", "CertificateBase::operator",
                                "SortedList::link", "candidates_changed"]),
    ("interval polynomials and root filter", ["<kds::Interval>", "kds::operator*", "kds::operator-", "kds::operator+",
                                              "filter", "first_failure", "sign_just_after", "ceil_to_double",
                                              "next_up", "solver_counters", "Key::bodies", "scalbn"]),
    ("exact path (GMP, CGAL, MPFR)", ["libgmp", "libmpfr", "CGAL", "Dyadic", "ExactRoot", "__gmp"]),
    ("broad phase", ["TvbGrid", "HierarchicalGrid", "Level::"]),
    ("memory allocation", ["malloc", "_int_free", "cfree", "unlink_chunk", "sysmalloc", "malloc_consolidate",
                           "operator new", "operator delete", "memset", "memmove"]),
    ("kernel (page faults, VM)", ["[kernel.kallsyms]", "[k]"]),
]


def main():
    totals = {name: 0.0 for name, _ in CATEGORIES}
    totals["other"] = 0.0
    symbols = {}
    for line in sys.stdin:
        m = re.match(r"\s*([\d.]+)%\s+(.*)", line)
        if not m or line.lstrip().startswith("#"):
            continue
        share, what = float(m.group(1)), m.group(2).strip()
        for name, patterns in CATEGORIES:
            if any(p in what for p in patterns):
                totals[name] += share
                symbols.setdefault(name, []).append((share, what))
                break
        else:
            totals["other"] += share
            symbols.setdefault("other", []).append((share, what))
    for name, share in sorted(totals.items(), key=lambda kv: -kv[1]):
        top = ", ".join(re.sub(r"\s+", " ", re.sub(r"(\s+-)+\s*$", "", w.split("[.]")[-1])).strip()[:60] for _, w in sorted(symbols.get(name, []),
                                                                                               reverse=True)[:3])
        print(f"{share:6.1f}%  {name:40s} {top}")


if __name__ == "__main__":
    main()
