#!/usr/bin/env bash
# Builds the C load generator into bench/native/build/ (git-ignored), or into the directory given: berth-load, and
# berth-load-spin (its load mode polling epoll for up to 50 us before it sleeps, as berth-echo-spin does).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../build}"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -pthread -o "$out/berth-load" "$here/loadgen.c" -lm
gcc -O2 -Wall -Wextra -Werror -pthread -DLOAD_SPIN -o "$out/berth-load-spin" "$here/loadgen.c" -lm
echo "$out/berth-load"
