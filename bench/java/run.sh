#!/usr/bin/env bash
# Runs the Java 17 benchmark programs (single files, no build tool). --smoke runs one short
# iteration of each case, only to prove they compile and run. --json FILE also writes the tables
# in the report's table format. Exits non-zero when a program fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

library=bench/native/build/libberthinterop.so
[ -f "$library" ] || bash bench/native/interop/build.sh >/dev/null

# The incubator module makes every start print a warning; it is expected on Java 17.
exec java --add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED \
    bench/java/NativeMemoryBench.java --lib "$library" "$@" 2> >(grep -vE "jdk.incubator.foreign|^1 warning$" >&2)
