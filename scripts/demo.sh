#!/usr/bin/env bash
# Installs what is missing, builds the main example and runs it: the experiment of Kim,
# Guibas and Shin (spheres with unknown trajectories in a box). Extra arguments go to the
# example, e.g. scripts/demo.sh --n 1000 --seconds 15 for the paper's full run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
"$here/scripts/install-deps.sh"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j "$(nproc)" --target kds_example_paper_experiment
"$build/examples/paper_experiment/kds_example_paper_experiment" "$@"
