#!/usr/bin/env bash
# Builds everything, runs every test project and the smoke runs below, and ends with one line
# "N passed, N failed, N skipped". Exits non-zero when anything fails. scripts/mutations.sh (each fixed test run
# against a patch that removes what it names) is not run here: one build and run per mutation is too slow.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --tests || exit 1

results=$(mktemp -d)
# One build of the whole solution: `dotnet test` alone builds only the test projects and what they reference, and
# the smoke runs below need the samples and every other project built too.
dotnet build Berth.slnx -c Release 2>&1 | tee "$results/build.log"
build_status=${PIPESTATUS[0]}
dotnet test Berth.slnx -c Release --no-build --logger "trx" --results-directory "$results" 2>&1 | tee "$results/test.log"
test_status=${PIPESTATUS[0]}
[ "$build_status" -eq 0 ] || test_status=$build_status

passed=0
failed=0
skipped=0
for trx in "$results"/*.trx; do
    [ -e "$trx" ] || continue
    counters=$(grep -o '<Counters [^>]*>' "$trx")
    p=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
    f=$(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters")
    n=$(sed -n 's/.* notExecuted="\([0-9]*\)".*/\1/p' <<<"$counters")
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    skipped=$((skipped + ${n:-0}))
done
if [ "$test_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "dotnet test exited $test_status without a failed test (build or runner error)"
    failed=$((failed + 1))
fi

# Every test project in the solution must have written a result file that names its assembly and counts at least one
# test: a project that ran nothing (a filter gone wrong, a runner that crashed before the first test) is a failure.
for project in $(grep -o 'Path="[^"]*\.csproj"' Berth.slnx | sed 's/Path="\(.*\)"/\1/'); do
    [ "$(dotnet msbuild "$project" -getProperty:IsTestProject)" = "true" ] || continue
    assembly=$(basename "$project" .csproj)
    total=0
    for trx in $(grep -il "[/\\]$assembly\.dll\"" "$results"/*.trx 2>/dev/null); do
        t=$(grep -o '<Counters [^>]*>' "$trx" | sed -n 's/.* total="\([0-9]*\)".*/\1/p')
        total=$((total + ${t:-0}))
    done
    if [ "$total" -eq 0 ]; then
        echo "$project ran no test or wrote no result file"
        failed=$((failed + 1))
    fi
done

# Smoke runs: each counts as one check; they prove that the benchmarks, the packages, the installed tool, the
# samples and the documented code still build and run, never how fast.
smoke() {
    local name=$1; shift
    if "$@" >"$results/smoke-$name.log" 2>&1; then
        echo "smoke $name: ok"
        passed=$((passed + 1))
    else
        echo "smoke $name: FAILED (log follows)"
        tail -n 40 "$results/smoke-$name.log"
        failed=$((failed + 1))
    fi
}
smoke benchmarks dotnet run -c Release --project bench/Berth.Benchmarks -- --filter '*' --job dry --inProcess \
    --exporters json --artifacts "$results/bdn"
smoke report dotnet run -c Release --project bench/Berth.Report -- --results "$results/bdn/results" \
    --output "$results/report/PERFORMANCE.md" --charts "$results/report/charts" --command dry
smoke java bash bench/java/run.sh --smoke
smoke compare dotnet run -c Release --project src/Berth.Cli -- bench --compare --quick --out "$results/compare"
# Request/response against gRPC (docs/MESSAGES.md): one cell, one short round, only to prove the producer runs.
smoke reqresp-vs-grpc bash bench/reqresp-vs-grpc.sh --rounds 1 --warmup 0.5 --duration 1 --cells 1x1

# What a user installs: every package, and the berth tool installed from them into a throwaway tool path
# with only the local packages as a source. Its own NuGet cache keeps an earlier package of the same version,
# cached by an earlier run, from standing in for the one just packed.
packages="$results/packages"
tool="$results/tool"
version=$(dotnet msbuild src/Berth.Cli/Berth.Cli.csproj -getProperty:Version)
printf '<configuration><packageSources><clear /><add key="local" value="%s" /></packageSources></configuration>\n' \
    "$packages" >"$results/nuget.config"
smoke pack dotnet pack Berth.slnx -c Release --no-build -o "$packages"
smoke tool-install env NUGET_PACKAGES="$results/nuget-cache" dotnet tool install Berth.Cli --version "$version" --tool-path "$tool" --configfile "$results/nuget.config"
smoke tool-version bash -c '"$1/berth" --version | tee /dev/stderr | grep -q "^$2\(+\|$\)"' version "$tool" "$version"
smoke tool-serve-load bash scripts/serve-load-check.sh "$tool/berth"

# Every sample runs by itself for a moment and must end with the line named here.
sample() {
    smoke "sample-$1" bash -c 'set -o pipefail; timeout 60 dotnet "samples/$1/bin/Release/net10.0/$1.dll" | tee /dev/stderr | tail -n 1 | grep -q "^$2"' \
        sample "$1" "$2"
}
sample TcpRoundTrip "round trip ok"
sample PacketRouting "routing ok"
sample GenericHost "host ok"
sample ZmqPushPull "push/pull ok"
sample ZmqRequestReply "request/reply ok"
sample ChatRoom "chat room ok"
# Separate processes: a worker is killed with SIGKILL mid-stream and the ledger must still show every request
# answered to its caller exactly once.
smoke sample-ZmqBroker bash -c 'set -o pipefail; timeout 300 dotnet samples/ZmqBroker/bin/Release/net10.0/ZmqBroker.dll run | tee /dev/stderr | tail -n 1 | grep -q "^broker ok:"'

# Generated message code publishes under NativeAOT with no trim or AOT warning and round-trips every contract shape.
smoke aot-messages bash -c 'set -o pipefail; dotnet publish tests/Berth.AotMessages -c Release -r linux-x64 -o "$1" && "$1/Berth.AotMessages" | tee /dev/stderr | grep -q "^messages round-tripped$"' \
    aot "$results/aot-messages"

# berth as NativeAOT (docs/AOT.md): it publishes with no trim or AOT warning; the native binary serves the load smoke
# and runs the tests that start berth as a process (serve's signals, a hostile peer beside a witness, Unix sockets,
# the PROXY protocol, zmq echo); the Generic Host sample publishes the same way and runs.
native_berth="$results/aot-berth"
smoke aot-publish bash -c 'set -o pipefail; dotnet publish src/Berth.Cli -c Release -r linux-x64 -p:PublishAot=true -o "$1" | tee /dev/stderr | { ! grep -q " warning "; }' \
    aot "$native_berth"
smoke aot-serve-load bash scripts/serve-load-check.sh "$native_berth/berth"
smoke aot-process-tests bash -c 'set -o pipefail; BERTH_EXECUTABLE="$1" dotnet test tests/Berth.Tests -c Release --no-build --filter "$2" | tee /dev/stderr | grep -q "Passed: *[1-9]"' \
    aot "$native_berth/berth" "FullyQualifiedName~Berth.Tests.Cli.ServeSignalTests|FullyQualifiedName~Berth.Tests.Cli.ServeHostilePeerTests|FullyQualifiedName~Berth.Tests.Cli.UnixSocketCommandTests|FullyQualifiedName~Berth.Tests.Cli.ServeProxyProtocolTests|FullyQualifiedName~Berth.Tests.Cli.ZmqEchoCommandTests"
smoke aot-generic-host bash -c 'set -o pipefail; dotnet publish samples/GenericHost -c Release -r linux-x64 -p:PublishAot=true -o "$1" && timeout 60 "$1/GenericHost" | tee /dev/stderr | tail -n 1 | grep -q "^host ok"' \
    aot "$results/aot-generic-host"
# An application that references only the Berth package gets what the package carries for a native publish
# (src/Berth/buildTransitive/Berth.targets): samples/PackageAot, TcpRoundTrip's program on the package just packed,
# publishes as NativeAOT with the libc calls bound at link time (the compiler's response file names libc) and runs.
# Berth's packages come only from the ones just packed, everything else from the NuGet cache, into a cache of its own.
printf '<configuration><packageSources><clear /><add key="local" value="%s" /><add key="cache" value="%s" /></packageSources><packageSourceMapping><packageSource key="local"><package pattern="Berth" /><package pattern="Berth.*" /></packageSource><packageSource key="cache"><package pattern="*" /></packageSource></packageSourceMapping></configuration>\n' \
    "$packages" "$(dotnet nuget locals global-packages --list | sed 's/^global-packages: //')" >"$results/nuget-package-aot.config"
smoke aot-package bash -c 'set -o pipefail; NUGET_PACKAGES="$2/package-aot-cache" dotnet publish samples/PackageAot -c Release -r linux-x64 --configfile "$2/nuget-package-aot.config" -o "$1" && grep -qx -- "--directpinvoke:libc" samples/PackageAot/obj/Release/net10.0/linux-x64/native/PackageAot.ilc.rsp && timeout 60 "$1/PackageAot" | tee /dev/stderr | tail -n 1 | grep -q "^round trip ok"' \
    aot "$results/package-aot" "$results"
# The Protobuf codec publishes under NativeAOT with no trim or AOT warning and round-trips a message.
smoke aot-codecs bash -c 'set -o pipefail; dotnet publish tests/Berth.AotCodecs -c Release -r linux-x64 -o "$1" && "$1/Berth.AotCodecs" | tee /dev/stderr | grep -q "^codecs round-tripped$"' \
    aot "$results/aot-codecs"

# The C# in README.md, docs/ and the package READMEs compiles, and the README's runs.
smoke doc-snippets bash scripts/check-snippets.sh
smoke generated-figures bash scripts/render-docs.sh --check

# 20 s is too short to judge memory (RSS still climbs while the attack mix first fills its buffers): the smoke holds
# the witness and the server to account and lets RSS double; the documented long run applies the 1.2x rule.
smoke soak dotnet run -c Release --project src/Berth.Cli -- soak --duration 20s --max-growth 2 --output "$results/soak"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
