#!/usr/bin/env bash
# Builds the C reference programs against Debian's libzmq3-dev into bench/native/build/ (ignored by git).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../build"
mkdir -p "$out"
for program in push_pull_thr router_dealer_thr req_rep_lat; do
    gcc -O2 -o "$out/$program" "$here/$program.c" -lzmq -lpthread
done
echo "$out"
