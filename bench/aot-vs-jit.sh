#!/usr/bin/env bash
# berth serve from NativeAOT publishes against the JIT builds (framework-dependent, and ReadyToRun), interleaved in
# rounds in one run: time from process start to the listening line, idle RSS, msg/s under 64 B x 100 connections, and
# size on disk (docs/AOT.md). Publishes the builds into artifacts/aot-vs-jit/, then runs `berth aot-vs-jit`; any
# further option goes to it (berth aot-vs-jit --help). Besides the NativeAOT publish CI ships (the compiler's
# defaults), two variants run in the same rounds, each a row judged against the same targets, so the quiet run shows
# whether either pays over the simpler default: OptimizationPreference=Speed, and Speed with the x86-64-v3
# instruction set (AVX2, BMI2, FMA: every x86-64 server CPU since about 2015; the binary refuses to start without it).
# A third variant compiles with Speed and the framework's own profile, the StandardOptimizationData.mibc that the
# .NET runtime package (Microsoft.NETCore.App.Runtime.linux-x64, restored by the ReadyToRun publish) ships: the
# compiler's Speed setting asks for a profile but its own package carries none (docs/AOT.md, Static PGO).
#   bash bench/aot-vs-jit.sh --data docs/data/deploy/aot-vs-jit.json    the run docs/AOT.md renders
#   bash bench/aot-vs-jit.sh --rounds 1 --idle 0 --warmup 0 --duration 0.5    a smoke run: proves it works, measures nothing
#   bash bench/aot-vs-jit.sh --previous 4ef7cb4 --data F    also that commit's NativeAOT publish (as CI publishes it), a
#                                                           row of its own in the same rounds: what a change to the
#                                                           per-frame code did to the native build
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/aot-vs-jit
command="bash bench/aot-vs-jit.sh${*:+$(printf ' %q' "$@")}"
previous=()
if [ "${1:-}" = --previous ]; then
    folder=$(bash bench/build-previous-engine.sh --native "$2")
    previous=(--native-variant "NativeAOT at $(git rev-parse --short=7 "$2^{commit}")=$folder/berth")
    shift 2
fi
publish() {
    local folder=$1; shift
    dotnet publish src/Berth.Cli -c Release -nologo -v quiet -o "$out/$folder" "$@"
}
publish native -r linux-x64 -p:PublishAot=true
publish native-speed -r linux-x64 -p:PublishAot=true -p:OptimizationPreference=Speed
publish native-speed-v3 -r linux-x64 -p:PublishAot=true -p:OptimizationPreference=Speed -p:IlcInstructionSet=x86-64-v3
publish jit
publish ready-to-run -r linux-x64 --self-contained false -p:PublishReadyToRun=true
runtime_version=$(dotnet msbuild src/Berth.Cli -getProperty:BundledNETCoreAppPackageVersion)
packages=$(dotnet nuget locals global-packages --list | sed 's/^global-packages: //')
framework_profile="$packages/microsoft.netcore.app.runtime.linux-x64/$runtime_version/tools/"
if ! compgen -G "$framework_profile*.mibc" > /dev/null; then
    echo "aot-vs-jit: no .mibc in $framework_profile (the ReadyToRun publish restores that package)" >&2
    exit 1
fi
publish native-speed-framework-pgo -r linux-x64 -p:PublishAot=true -p:OptimizationPreference=Speed \
    -p:IlcMibcPath="$framework_profile"
"$out/jit/berth" aot-vs-jit --native "$out/native/berth" \
    --native-variant "NativeAOT, Speed=$out/native-speed/berth" \
    --native-variant "NativeAOT, Speed, x86-64-v3=$out/native-speed-v3/berth" \
    --native-variant "NativeAOT, Speed, framework PGO=$out/native-speed-framework-pgo/berth" \
    "${previous[@]}" --jit "$out/jit/berth" --ready-to-run "$out/ready-to-run/berth" --command "$command" "$@"
