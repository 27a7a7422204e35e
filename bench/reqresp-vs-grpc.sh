#!/usr/bin/env bash
# Request/response round trips over loopback: Berth's typed requests (bench/Berth.RequestServer) against gRPC unary
# calls (bench/Berth.GrpcPeer: Grpc.AspNetCore on Kestrel, HTTP/2 without TLS), both carrying the codec benchmarks'
# five-field Position, each server its own process, driven by the same closed-loop driver (bench/Berth.CallLoad, one
# GrpcChannel or one BerthClient per connection, `outstanding` calls in flight on each).
#
#   bash bench/reqresp-vs-grpc.sh                    3 rounds, 1 s warm-up, 4 s measured per run, the 4 cells
#   bash bench/reqresp-vs-grpc.sh --rounds 5 --duration 8
#   bash bench/reqresp-vs-grpc.sh --cells 1x1        connections x outstanding, space-separated
#   bash bench/reqresp-vs-grpc.sh --data docs/data/messages/reqresp-vs-grpc.json   also writes a berth-result/1 file
#
# Each round runs every cell on Berth, on gRPC and on the loopback limit back to back, in an order that rotates by one
# each round, so a round gives one ratio per cell. The limit is the C load generator (bench/native/load) against a fresh
# C epoll echo (bench/native/echo, one thread per core) with the same connections, the same frames in flight on each
# (--pipeline) and frames of the size of Berth's request (envelope and message, Berth.CallLoad --request-bytes), run
# twice per round: the pair that sleeps in epoll_wait and the pair that polls for up to 50 us first (berth-echo-spin with
# berth-load-spin); the faster of the two in that round is the round's limit, and the result records which it was.
# Targets: calls/s at least 5x gRPC's, p99 at most 0.3x gRPC's. A target is "met" when the median of at least 3 rounds'
# ratios reaches it and so does every round, "within noise" when only the median does, "not met" when the median does
# not ("< 3 rounds" with fewer). Where 5x gRPC is above the C limit, the "limit" column judges Berth against the limit
# instead: at least 0.95x the C round trips per second (docs/RESULTS.md, Verdicts). Also reported: the server's CPU
# (utime + stime of /proc/PID/stat over the window) per million calls, and each process's allocated bytes per call
# (GC.GetTotalAllocatedBytes deltas over the window).
# Without --data the result file goes to artifacts/reqresp-vs-grpc/reqresp-vs-grpc.json; its HTML page, rendered by
# Berth.Figures as the other producers' pages are, to artifacts/reqresp-vs-grpc/reqresp-vs-grpc.html.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
warmup=1
duration=4
cells="1x1 1x64 100x1 100x64"
data=""
command="bash bench/reqresp-vs-grpc.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --cells) cells="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "reqresp-vs-grpc: unknown option $1 (see the header of bench/reqresp-vs-grpc.sh)" >&2; exit 2 ;;
    esac
done

out=artifacts/reqresp-vs-grpc
mkdir -p "$out"
for project in Berth.RequestServer Berth.GrpcPeer Berth.CallLoad Berth.Figures; do
    dotnet build "bench/$project/$project.csproj" -c Release -nologo -v quiet > /dev/null
done
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
driver=(dotnet bench/Berth.CallLoad/bin/Release/net10.0/Berth.CallLoad.dll)
request_bytes=$("${driver[@]}" --request-bytes)
declare -A servers=(
    [berth]=bench/Berth.RequestServer/bin/Release/net10.0/Berth.RequestServer.dll
    [grpc]=bench/Berth.GrpcPeer/bin/Release/net10.0/Berth.GrpcPeer.dll
)
results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the drivers are this shell's children and the servers theirs, so the
# CPU they used is what this shell reaped; everything else over the rounds is the others' share.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"

source bench/lib/listening-port.sh
# start_echo ECHO: starts a fresh C echo (berth-echo or berth-echo-spin), waits for its "listening on HOST:PORT" line,
# sets $echo_pid and $port.
start_echo() {
    local log=$out/echo.log
    : > "$log"
    "artifacts/compare/$1" --port 0 --threads "$(nproc)" > "$log" 2>&1 &
    echo_pid=$!
    port=$(listening_port "$log" "$echo_pid" "reqresp-vs-grpc: the C echo") || exit 1
}

# The two C pairs of the limit: the C programs that sleep in epoll_wait, and the same programs built to poll for up to
# 50 us before they sleep (docs/decisions/c-echo-anchor.md). Each round runs both; reqresp_vs_grpc.py takes the faster.
declare -A c_pairs=(
    [c-sleeping]="berth-echo berth-load"
    [c-spinning]="berth-echo-spin berth-load-spin"
)

# run TARGET CONNECTIONS OUTSTANDING: one run, its JSON line on stdout (empty when it printed none).
run() {
    local target=$1 connections=$2 outstanding=$3
    if [ -n "${c_pairs[$target]:-}" ]; then
        local pair=(${c_pairs[$target]})
        start_echo "${pair[0]}"
        "artifacts/compare/${pair[1]}" --port "$port" --connections "$connections" --pipeline "$outstanding" \
            --size "$request_bytes" --warmup "$warmup" --duration "$duration" | grep '^{' || true
        kill "$echo_pid" 2> /dev/null || true
        wait "$echo_pid" 2> /dev/null || true
    else
        "${driver[@]}" --target "$target" --server "${servers[$target]}" --connections "$connections" \
            --outstanding "$outstanding" --warmup "$warmup" --duration "$duration" | grep '^{' || true
    fi
}

targets=(berth grpc c)
for round in $(seq "$rounds"); do
    # The target that goes first rotates, so none always meets the machine in the same state.
    first=$(((round - 1) % ${#targets[@]}))
    order=("${targets[@]:first}" "${targets[@]:0:first}")
    for cell in $cells; do
        connections=${cell%x*}
        outstanding=${cell#*x}
        # The C limit's two pairs run back to back in its slot, the sleeping pair first in odd rounds.
        c_order=(c-sleeping c-spinning)
        ((round % 2)) || c_order=(c-spinning c-sleeping)
        for target in $(printf '%s\n' "${order[@]}" | sed "s/^c$/${c_order[*]}/"); do
            line=$(run "$target" "$connections" "$outstanding")
            if [ -z "$line" ]; then
                echo "reqresp-vs-grpc: the $target run of $cell printed no result" >&2
                exit 1
            fi
            printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$target" "$connections" "$outstanding" "$line" >> "$results"
            printf '  round %s  %-10s %3s x %-2s %s\n' "$round" "$target" "$connections" "$outstanding" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print("{:,.0f} calls/s, p99 {:,.0f} us, failed calls {}".format(r.get("calls_per_s", r.get("msg_per_s")), r["p99_us"], r["errors"]))' "$line")"
        done
    done
done

python3 scripts/long_results.py step-end "$state"
python3 bench/reqresp_vs_grpc.py "$results" "$state" "${data:-$out/reqresp-vs-grpc.json}"
dotnet bench/Berth.Figures/bin/Release/net10.0/Berth.Figures.dll html "${data:-$out/reqresp-vs-grpc.json}" \
    "$out/reqresp-vs-grpc.html" "Berth against gRPC: request/response"
