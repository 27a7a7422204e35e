#!/usr/bin/env bash
# Builds the C load generator into bench/native/build/berth-load (git-ignored), or into the directory given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../build}"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -pthread -o "$out/berth-load" "$here/loadgen.c" -lm
echo "$out/berth-load"
