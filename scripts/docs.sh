#!/usr/bin/env bash
# Builds the API reference (Doxygen, from the /// comments and the guides of docs/) into
# <build-dir>/docs/api/html. Usage: scripts/docs.sh [build-dir]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
"$here/scripts/install-deps.sh"
if ! command -v doxygen >/dev/null; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends doxygen
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target kds_api_docs
echo "API reference: $build/docs/api/html/index.html"
if [ -s "$build/docs/api/warnings.log" ]; then
  echo "Doxygen warnings: $(wc -l < "$build/docs/api/warnings.log") lines in $build/docs/api/warnings.log"
fi
