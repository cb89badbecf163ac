#!/usr/bin/env bash
# Turns the benchmark CSVs into the figures of docs/: one command after `kds bench`.
#   scripts/plots.sh [CSV_DIR] [OUT_DIR]     (defaults: bench/results, docs/images)
# Needs python3 with matplotlib (Debian: python3-matplotlib).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
csv="${1:-$here/bench/results}"
out="${2:-$here/docs/images}"
python=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c "import matplotlib" 2>/dev/null; then python="$p"; break; fi
done
if [ -z "$python" ]; then
  echo "plots.sh: needs python3 with matplotlib: apt-get install python3-matplotlib" >&2
  exit 1
fi
mkdir -p "$out"
if [ -f "$csv/tvb_paper.csv" ]; then
  "$python" "$here/scripts/plot_tvb_benchmarks.py" "$csv/tvb_paper.csv" "$out/tvb-benchmarks.png"
else
  echo "plots.sh: no $csv/tvb_paper.csv: skipped"
fi
"$python" "$here/scripts/plot_benchmarks.py" "$csv" "$out"
