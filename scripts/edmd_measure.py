#!/usr/bin/env python3
"""Builds FSmallenburg/EDMD (the fastest published event-driven hard-sphere code,
Smallenburg 2022) outside the repository and measures its collisions per CPU second on
kds's hard-sphere scenes, for docs/benchmarks/event-cost.md. kds does not include or
depend on its code; CI does not run this script.

    python3 scripts/edmd_measure.py [--n 1000,10000,100000] [--phi 0.4] [--workdir DIR]
                                    [--source DIR_OR_GIT_DIR] [--warm-up T] [--collisions C]
                                    [--csv FILE] [--machine NAME]

The scene: equal spheres on kds's simple cubic lattice start at volume fraction phi (the
first n sites of ceil(cbrt n)^3, as bench/tvb_grid/lattice_scene.hpp), in EDMD's units
(diameter 1). EDMD differs from kds's scene in what it cannot be told: its box is
periodic (no walls) and it draws its own Gaussian velocities. The code is EDMD's
"Single" variant (one event per particle, neighbour lists, calendar queue) with its own
compiler flags; only parameters are changed: the input file, the run length, no
thermostat, no snapshots. The rate is measured between two runs of different lengths
from the same start (a warm-up, and a longer one with about 2e6 collisions more), so
set-up and warm-up cancel out. The peak resident size is that of the longer run.

If EDMD cannot be obtained (offline, no git), the script says so and exits with 0.
"""
import argparse
import math
import os
import re
import resource
import shutil
import subprocess
import sys

URL = "https://github.com/FSmallenburg/EDMD"


def get_source(source, workdir):
    """A directory holding Single/mdSingle.c, or None."""
    target = os.path.join(workdir, "src")
    if os.path.isfile(os.path.join(target, "Single", "mdSingle.c")):
        return target
    os.makedirs(target, exist_ok=True)
    try:
        if source and os.path.isfile(os.path.join(source, "Single", "mdSingle.c")):
            return source
        if source and os.path.isdir(source):  # a bare git directory, e.g. a mirror
            archive = subprocess.run(["git", "--git-dir", source, "archive", "HEAD"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", target], input=archive, check=True)
        else:
            shutil.rmtree(target)
            subprocess.run(["git", "clone", "--depth", "1", URL, target], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"EDMD is not available ({e}); nothing measured.")
        return None
    return target if os.path.isfile(os.path.join(target, "Single", "mdSingle.c")) else None


def build(src, workdir, maxtime):
    """EDMD's Single code with the run length `maxtime`; returns the program's path."""
    code = open(os.path.join(src, "Single", "mdSingle.c")).read()
    changes = [(r"double maxtime = [^;]*;", f"double maxtime = {maxtime};"),
               (r"int makesnapshots = [^;]*;", "int makesnapshots = 0;"),
               (r"int initialconfig = [^;]*;", "int initialconfig = 0;"),
               (r"const int usethermostat = [^;]*;", "const int usethermostat = 0;"),
               (r"double writeinterval = [^;]*;", f"double writeinterval = {maxtime};")]
    for pattern, value in changes:
        code, count = re.subn(pattern, value, code, count=1)
        if count != 1:
            sys.exit(f"edmd_measure: EDMD's source changed: no '{pattern}' in mdSingle.c")
    build_dir = os.path.join(workdir, f"build-{maxtime}")
    os.makedirs(build_dir, exist_ok=True)
    for name in ("mdSingle.h", "mt19937ar.c"):
        shutil.copy(os.path.join(src, "Single", name), build_dir)
    open(os.path.join(build_dir, "mdSingle.c"), "w").write(code)
    program = os.path.join(build_dir, "md")
    subprocess.run(["gcc", "-Wall", "-Ofast", "-funroll-loops", "-march=native", "mdSingle.c", "-o", "md", "-lm"],
                   cwd=build_dir, check=True, capture_output=True)
    return program


def write_lattice(path, n, phi):
    """kds's lattice scene scaled to diameter 1: side^3 phi = n pi / 6."""
    side = (n * math.pi / 6 / phi) ** (1 / 3)
    m = math.ceil(round(n ** (1 / 3), 9))
    while m ** 3 < n:
        m += 1
    spacing = side / m
    with open(path, "w") as f:
        f.write(f"{n}\n{side!r} {side!r} {side!r}\n")
        count = 0
        for i in range(m):
            for j in range(m):
                for k in range(m):
                    if count == n:
                        return
                    f.write(f"a {(i + 0.5) * spacing!r} {(j + 0.5) * spacing!r} {(k + 0.5) * spacing!r} 0.5\n")
                    count += 1


def run(program, directory):
    """(user + system CPU seconds, peak resident bytes, collisions) of one run in `directory`."""
    process = subprocess.Popen([program], cwd=directory, stdout=subprocess.PIPE, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"edmd_measure: EDMD failed in {directory}:\n{out}")
    collisions = [int(c) for c in re.findall(r"Collisions: (\d+)", out)]
    if not collisions:
        sys.exit("edmd_measure: EDMD printed no collision count:\n" + out)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, collisions[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", default="1000,10000,100000")
    parser.add_argument("--phi", type=float, default=0.4)
    parser.add_argument("--workdir", default="/tmp/edmd")
    parser.add_argument("--source", help="an EDMD checkout or bare git directory (default: clone from GitHub)")
    parser.add_argument("--warm-up", type=float, default=1, help="simulated time of the first run (EDMD's units)")
    parser.add_argument("--collisions", type=float, default=2e6, help="collisions timed (the second run's extra)")
    parser.add_argument("--csv")
    parser.add_argument("--machine", default="unnamed")
    args = parser.parse_args()

    os.makedirs(args.workdir, exist_ok=True)
    src = get_source(args.source, args.workdir)
    if src is None:
        return 0
    builds = {}

    def program(maxtime):
        if maxtime not in builds:
            builds[maxtime] = build(src, args.workdir, maxtime)
        return builds[maxtime]

    rows = []
    print(f"{'n':>8} {'collisions':>11} {'CPU s':>8} {'coll/CPU s':>11} {'peak B/sphere':>14}")
    for n in (int(float(x)) for x in args.n.split(",")):
        directory = os.path.join(args.workdir, f"n{n}")
        os.makedirs(directory, exist_ok=True)
        write_lattice(os.path.join(directory, "init.sph"), n, args.phi)
        cpu1, _, c1 = run(program(args.warm_up), directory)
        # The second run goes on long enough for about --collisions more (two digits of
        # simulated time, so that few builds serve every n).
        extra = float(f"{args.collisions / (c1 / args.warm_up):.2g}")
        cpu2, rss, c2 = run(program(args.warm_up + extra), directory)
        rate = (c2 - c1) / (cpu2 - cpu1)
        rows.append((n, c2 - c1, cpu2 - cpu1, rate, rss / n))
        print(f"{n:>8} {c2 - c1:>11} {cpu2 - cpu1:>8.2f} {rate:>11.4g} {rss / n:>14.0f}", flush=True)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("machine,code,n,phi,collisions,cpu_s,collisions_per_cpu_s,peak_rss_bytes_per_sphere\n")
            for n, c, cpu, rate, b in rows:
                f.write(f"{args.machine},edmd_single,{n},{args.phi},{c},{cpu:.4f},{rate:.6g},{b:.1f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
