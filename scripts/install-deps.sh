#!/usr/bin/env bash
# Installs the Debian packages kds needs, and nothing when they are all present.
set -euo pipefail
packages=(g++ cmake make libcgal-dev libboost-dev libboost-graph-dev libgmp-dev libmpfr-dev libmpfi-dev
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev python3 python3-ase
          clang libclang-rt-14-dev  # clang and libFuzzer: the fuzz targets (fuzz/)
          nodejs chromium)          # the replay viewer's build and its e2e test (viewer/)
# npm: Debian's package, unless an npm is already there (NodeSource's nodejs bundles its
# own npm and conflicts with Debian's).
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
