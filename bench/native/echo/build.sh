#!/usr/bin/env bash
# Builds the C epoll framed-echo server into bench/native/build/ (git-ignored), or into the directory given:
# berth-echo (level-triggered, one recv per readiness: the comparison's anchor) and berth-echo-drain
# (edge-triggered, recv until EAGAIN: the alternative docs/decisions/c-echo-anchor.md compares it with), and
# berth-echo-spin (berth-echo polling epoll for up to 50 us before it sleeps: the comparison's other C server).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../build}"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -pthread -o "$out/berth-echo" "$here/echo.c"
gcc -O2 -Wall -Wextra -Werror -pthread -DECHO_DRAIN -o "$out/berth-echo-drain" "$here/echo.c"
gcc -O2 -Wall -Wextra -Werror -pthread -DECHO_SPIN -o "$out/berth-echo-spin" "$here/echo.c"
echo "$out/berth-echo"
