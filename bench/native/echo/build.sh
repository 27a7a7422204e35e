#!/usr/bin/env bash
# Builds the C epoll framed-echo server into bench/native/build/berth-echo (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../build"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -pthread -o "$out/berth-echo" "$here/echo.c"
echo "$out/berth-echo"
