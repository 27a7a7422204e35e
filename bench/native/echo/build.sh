#!/usr/bin/env bash
# Builds the C epoll framed-echo server into bench/native/build/berth-echo (git-ignored), or into the directory given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../build}"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -pthread -o "$out/berth-echo" "$here/echo.c"
echo "$out/berth-echo"
