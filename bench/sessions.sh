#!/usr/bin/env bash
# Many sessions at a low rate: every connection sends one 4-16 KiB request per second on a fixed schedule, and each
# round trip is timed from when it was due. Runs each server as its own fresh process under two clients in turn:
# `berth load --rate` (.NET, random 4-16 KiB bodies) and the C load generator's --rate mode (10 KiB bodies, one
# thread), so a slow client shows up as the same latency against every server, including the C one.
#
#   bash bench/sessions.sh                        10,000 connections, 5 s warm-up, 20 s measured, 1 round
#   bash bench/sessions.sh --connections 1000 --duration 30 --rounds 3
#
# Prints one line per run and a table at the end: p50/p99 per server and client, and the server's resident memory
# at the end of the run. Needs what `bash scripts/setup.sh --compare` installs (gcc), and python3 to read JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

connections=10000
warmup=5
duration=20
rounds=1
while (($#)); do
    case "$1" in
        --connections) connections="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        *) echo "sessions: unknown option $1 (see the header of bench/sessions.sh)" >&2; exit 2 ;;
    esac
done

out=artifacts/sessions
mkdir -p "$out"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build bench/Berth.KestrelEcho/Berth.KestrelEcho.csproj -c Release -nologo -v quiet -o artifacts/compare/kestrel-echo > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
berth=(dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll)

declare -A servers=(
    [berth-inline]="${berth[*]} serve --port 0 --max-connections $((connections * 2))"
    [berth-threadpool]="${berth[*]} serve --port 0 --max-connections $((connections * 2)) --scheduling threadpool"
    [c-epoll]="artifacts/compare/berth-echo --port 0 --threads $(nproc)"
    [kestrel]="dotnet artifacts/compare/kestrel-echo/Berth.KestrelEcho.dll --port 0"
)
order=(berth-inline berth-threadpool c-epoll kestrel)
results="$out/results.tsv"
: > "$results"

# Starts a server, waits for its "listening on HOST:PORT" line, sets $server_pid and $port.
start_server() {
    local log="$out/$1.log"
    : > "$log"
    # shellcheck disable=SC2086 # the command line is split on purpose
    ${servers[$1]} > "$log" 2>&1 &
    server_pid=$!
    port=$(listening_port "$log" "$server_pid" "sessions: $1") || exit 1
}

# The server process's resident memory in MB (the dotnet launcher execs the app, so the PID is the server's).
resident_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

run_client() {
    local server=$1 client=$2 json="$out/$1-$2.json" p50 p99 errors
    if [ "$client" = dotnet ]; then
        "${berth[@]}" load --port "$port" --connections "$connections" --rate 1 --size-min 4096 --size-max 16384 \
            --pipeline 16 --warmup "$warmup" --duration "$duration" --data "$json" > "$out/$1-$2.out" 2>&1 || true
        read -r p50 p99 errors < <(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tables"]["load"]; c=[x["name"] for x in t["columns"]]; r=t["rows"][0]; print(r[c.index("p50")]/1e3, r[c.index("p99")]/1e3, r[c.index("errors")])' "$json")
    else
        artifacts/compare/berth-load --port "$port" --connections "$connections" --rate 1 --size 10240 --pipeline 16 \
            --warmup "$warmup" --duration "$duration" > "$out/$1-$2.out" 2>&1 || true
        read -r p50 p99 errors < <(python3 -c 'import json,sys; r=json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1]); print(r["p50_us"]/1e3, r["p99_us"]/1e3, r["errors"])' "$out/$1-$2.out")
    fi
    local rss
    rss=$(resident_mb "$server_pid")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$server" "$client" "$p50" "$p99" "$errors" "$rss" >> "$results"
    printf '  %-17s %-7s p50 %8.2f ms  p99 %8.2f ms  errors %s  server RSS %s MB\n' "$server" "$client" "$p50" "$p99" "$errors" "$rss"
}

echo "$connections connections, 1 request per second each; $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for client in dotnet c; do
        for server in "${order[@]}"; do
            start_server "$server"
            run_client "$server" "$client"
            kill "$server_pid" 2> /dev/null || true
            wait "$server_pid" 2> /dev/null || true
        done
    done
    echo "round $round done"
done

python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
print("\n| server | client | runs | p50 ms (median) | p99 ms (median) [min-max] | errors | server RSS MB (median) |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
seen = []
for row in rows:
    if (row[0], row[1]) not in seen:
        seen.append((row[0], row[1]))
for server, client in sorted(seen, key=lambda k: (k[1], k[0])):
    runs = [r for r in rows if r[0] == server and r[1] == client]
    p50 = statistics.median(float(r[2]) for r in runs)
    p99s = [float(r[3]) for r in runs]
    rss = statistics.median(float(r[5]) for r in runs)
    errors = sum(int(float(r[4])) for r in runs)
    name = "berth load (.NET)" if client == "dotnet" else "C load generator"
    print(f"| {server} | {name} | {len(runs)} | {p50:.2f} | {statistics.median(p99s):.1f} [{min(p99s):.1f}-{max(p99s):.1f}] | {errors} | {rss:.0f} |")
EOF
