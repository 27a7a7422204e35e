#!/usr/bin/env bash
# berth serve from a NativeAOT publish against the JIT builds (framework-dependent, and ReadyToRun), interleaved in
# rounds in one run: time from process start to the listening line, idle RSS, msg/s under 64 B x 100 connections, and
# size on disk (docs/AOT.md). Publishes the three builds into artifacts/aot-vs-jit/, then runs `berth aot-vs-jit`;
# any further option goes to it (berth aot-vs-jit --help).
#   bash bench/aot-vs-jit.sh --data docs/data/deploy/aot-vs-jit.json    the run docs/AOT.md renders
#   bash bench/aot-vs-jit.sh --rounds 1 --idle 0 --warmup 0 --duration 0.5    a smoke run: proves it works, measures nothing
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/aot-vs-jit
publish() {
    local folder=$1; shift
    dotnet publish src/Berth.Cli -c Release -nologo -v quiet -o "$out/$folder" "$@"
}
publish native -r linux-x64 -p:PublishAot=true
publish jit
publish ready-to-run -r linux-x64 --self-contained false -p:PublishReadyToRun=true
"$out/jit/berth" aot-vs-jit --native "$out/native/berth" --jit "$out/jit/berth" --ready-to-run "$out/ready-to-run/berth" \
    --command "bash bench/aot-vs-jit.sh $*" "$@"
