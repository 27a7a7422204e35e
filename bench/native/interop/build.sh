#!/usr/bin/env bash
# Builds libberthinterop.so into bench/native/build/ (ignored by git). The C# and Java benchmarks
# call the same build, so both sides measure the same machine code.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../build"
mkdir -p "$out"
gcc -O3 -shared -fPIC -o "$out/libberthinterop.so.tmp" "$here/berth_interop.c"
mv -f "$out/libberthinterop.so.tmp" "$out/libberthinterop.so"
echo "$out/libberthinterop.so"
