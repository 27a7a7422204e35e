#!/usr/bin/env bash
# Pipelined bursts through this build's `berth serve` and through the previous engine's (commit 1d6416c: a 64 KiB
# receive ring rented per connection up front and kept while idle, handlers on the thread pool), each its own
# process, driven by the same C load generator, interleaved. Shows what receiving only while data is in flight
# costs or saves on traffic that never lets the ring sit idle.
#
#   bash bench/engine-vs-previous.sh                 3 rounds, 1 s warm-up, 4 segments of 1 s per server and cell
#   bash bench/engine-vs-previous.sh --rounds 5
#   bash bench/engine-vs-previous.sh --previous f2b8af0   another commit's engine as the baseline
#   bash bench/engine-vs-previous.sh --data docs/data/tcp/engine-vs-previous.json   also writes a berth-result/1 file
#   bash bench/engine-vs-previous.sh --cells "65536 1" --rounds 20 --duration 2   only the workloads named ("SIZE
#                                                           CONNECTIONS", separated by ';'), e.g. to look at one's spread
#   bash bench/engine-vs-previous.sh --pin 0:1      load generator on CPU 0, each server on CPU 1 (taskset)
#   bash bench/engine-vs-previous.sh --serve-args "--typed" --load-args "--message-id 1"   both servers run
#                                                           `berth serve --typed` and the load sends the typed layout:
#                                                           the typed echo of this build against a previous commit's
#
# CPU placement is left to the scheduler unless --pin LOAD_CPUS:SERVER_CPUS is given. Pinning was tried as the cure
# for the 64 KB x 1 rounds that collapse to about half their rate; the quiet runs kept the collapse with pinning and
# lowered every 64 KB rate, so it is not the default (docs/decisions/tcp-64k-rounds.md). A pinned server sees one CPU,
# so it runs one event loop.
#
# Each round starts both servers for every workload and alternates the load between them in short segments (this build
# first in odd rounds, the previous engine first in even ones), so a round gives one ratio per workload. A workload is "met" when the median of at least 3 rounds' ratios is at least 0.97x and so is
# every round, "within noise" when only the median is, "not met" when the median is not ("< 3 rounds" with fewer);
# the rounds and the verdicts are bench/paired-echo.sh's.
# Needs a clone with history (the previous engine is built from git into artifacts/previous-engine), gcc, taskset and
# python3.
set -euo pipefail
cd "$(dirname "$0")/.."

previous=1d6416c
rounds=3
warmup=1
segments=4
duration=1
data=""
cells="64 100;1024 100;16384 10;65536 1;65536 100"
pin=none
serve_args=""
load_args=""
command="bash bench/engine-vs-previous.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --segments) segments="$2"; shift 2 ;;
        --previous) previous="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --cells) cells="$2"; shift 2 ;;
        --pin) pin="$2"; shift 2 ;;
        --serve-args) serve_args="$2"; shift 2 ;;
        --load-args) load_args="$2"; shift 2 ;;
        *) echo "engine-vs-previous: unknown option $1 (see the header of bench/engine-vs-previous.sh)" >&2; exit 2 ;;
    esac
done

# One build per baseline commit, so a run against another commit never reuses the wrong engine.
cli=$(bash bench/build-previous-engine.sh "$previous")
out=$(dirname "$cli")
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null

[ "$pin" = none ] && pin=""
serve="serve --port 0${serve_args:+ $serve_args}"
bash bench/paired-echo.sh --out "$out" --command "$command" --rounds "$rounds" --warmup "$warmup" --segments "$segments" --duration "$duration" \
    --target 0.97 --cells "$cells" --data "$data" --table engine-vs-previous \
    --title "This build against the engine of $(git rev-parse "$previous^{commit}" | cut -c1-7): pipelined bursts (pipeline 16), one C load generator" \
    --note "Each round starts both builds' servers for a workload, warms each up for ${warmup} s, then alternates the load between them, ${segments} segments of ${duration} s on each (this build first in odd rounds, the previous engine first in even ones); a round's ratio is that of the two servers' mean msg/s. Both servers ran berth $serve, and berth-load took${load_args:+ $load_args on top of} its default arguments.$([ -n "$pin" ] || echo " CPU placement was left to the scheduler (--pin none).")" \
    --pin "$pin" \
    --first "this build" --first-server "dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll $serve" --first-load "$load_args" \
    --second "previous" --second-server "dotnet $cli/Berth.Cli.dll $serve" --second-load "$load_args"
