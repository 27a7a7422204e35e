#!/usr/bin/env bash
# Many sessions at a low rate: every connection sends one 4-16 KiB request per second on a fixed schedule, and each
# round trip is timed from when it was due. Runs each server as its own fresh process under two clients in turn:
# `berth load --rate` (.NET, random 4-16 KiB bodies) and the C load generator's --rate mode (10 KiB bodies, one
# thread), so a slow client shows up as the same latency against every server, including the C one.
#
#   bash bench/sessions.sh                        1,000 then 10,000 connections, 5 s warm-up, 20 s measured, 1 round
#   bash bench/sessions.sh --connections 1000 --duration 30 --rounds 3
#   bash bench/sessions.sh --rounds 3 --data docs/data/tcp/sessions.json
#   bash bench/sessions.sh --connections 200 --warmup 0.5 --duration 1      a smoke run, not a measurement
#
# --connections takes one count or several separated by commas. Prints one line per run and writes a berth-result/1
# file (docs/RESULTS.md; --data FILE, artifacts/sessions/result.json by default) with every run (p50, p99, errors, the
# server's resident memory at the end of the run), each server and client's range over the rounds, and the targets:
# p99 at most 20 ms at 10,000 sessions and at most 5 ms at 1,000, judged on the C load generator's p99 against
# `berth serve` (the .NET client measures itself as much as the server) over every round's run: met when the highest
# is within the limit (scripts/paired_rounds.py at_most). Needs what `bash scripts/setup.sh --compare` installs
# (gcc), and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh
command="bash bench/sessions.sh${*:+$(printf ' %q' "$@")}"

connection_counts=1000,10000
warmup=5
duration=20
rounds=1
data=artifacts/sessions/result.json
while (($#)); do
    case "$1" in
        --connections) connection_counts="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "sessions: unknown option $1 (see the header of bench/sessions.sh)" >&2; exit 2 ;;
    esac
done
IFS=, read -r -a counts <<< "$connection_counts"

out=artifacts/sessions
mkdir -p "$out"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build bench/Berth.KestrelEcho/Berth.KestrelEcho.csproj -c Release -nologo -v quiet -o artifacts/compare/kestrel-echo > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
berth=(dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll)
# Every server needs one descriptor per session; the clients raise their own soft limit.
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true

order=(berth-inline berth-threadpool c-epoll kestrel)
# server_command SERVER CONNECTIONS: the command line that starts SERVER for that many sessions.
server_command() {
    case "$1" in
        berth-inline) echo "${berth[*]} serve --port 0 --max-connections $(($2 * 2))" ;;
        berth-threadpool) echo "${berth[*]} serve --port 0 --max-connections $(($2 * 2)) --scheduling threadpool" ;;
        c-epoll) echo "artifacts/compare/berth-echo --port 0 --threads $(nproc)" ;;
        kestrel) echo "dotnet artifacts/compare/kestrel-echo/Berth.KestrelEcho.dll --port 0" ;;
    esac
}
results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the servers and the clients are this shell's children, so the CPU
# they used is what it reaped; everything else over the rounds is the others' share.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"

# Starts a server for $connections sessions, waits for its "listening on HOST:PORT" line, sets $server_pid and $port.
start_server() {
    local log="$out/$1.log"
    : > "$log"
    # shellcheck disable=SC2046 # the command line is split on purpose
    $(server_command "$1" "$connections") > "$log" 2>&1 &
    server_pid=$!
    port=$(listening_port "$log" "$server_pid" "sessions: $1") || exit 1
}

# The server process's resident memory in bytes (the dotnet launcher execs the app, so the PID is the server's), or
# None when it has already exited.
resident_bytes() { awk '/VmRSS/ { print $2 * 1024 }' "/proc/$1/status" 2> /dev/null || echo None; }

# run_client SERVER CLIENT ROUND: one run; appends "round connections server client p50-ms p99-ms errors rss-bytes"
# to the results, with None for what a client that wrote no result did not measure.
run_client() {
    local server=$1 client=$2 round=$3 file="$out/$1-$2" p50 p99 errors
    if [ "$client" = dotnet ]; then
        rm -f "$file.json"
        "${berth[@]}" load --port "$port" --connections "$connections" --rate 1 --size-min 4096 --size-max 16384 \
            --pipeline 16 --warmup "$warmup" --duration "$duration" --data "$file.json" > "$file.out" 2>&1 || true
        read -r p50 p99 errors < <(python3 -c '
import json, sys
try:
    t = json.load(open(sys.argv[1]))["tables"]["load"]
except (OSError, ValueError, KeyError):
    print("None None no-result"); sys.exit()
c = [x["name"] for x in t["columns"]]; r = t["rows"][0]
print("%.3f %.3f %s" % (r[c.index("p50")] / 1e3, r[c.index("p99")] / 1e3, r[c.index("errors")]))' "$file.json")
    else
        artifacts/compare/berth-load --port "$port" --connections "$connections" --rate 1 --size 10240 --pipeline 16 \
            --warmup "$warmup" --duration "$duration" > "$file.out" 2>&1 || true
        read -r p50 p99 errors < <(python3 -c '
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
if not lines:
    print("None None no-result"); sys.exit()
r = json.loads(lines[-1])
print("%.3f %.3f %s" % (r["p50_us"] / 1e3, r["p99_us"] / 1e3, r["errors"]))' "$file.out")
    fi
    local rss
    rss=$(resident_bytes "$server_pid")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$connections" "$server" "$client" "$p50" "$p99" "$errors" "$rss" >> "$results"
    printf '  %6s sessions  %-17s %-7s p50 %8s ms  p99 %8s ms  errors %s  server RSS %s MB\n' "$connections" "$server" "$client" \
        "$p50" "$p99" "$errors" "$(awk -v bytes="$rss" 'BEGIN { if (bytes == "None") print "-"; else printf "%.1f", bytes / 1048576 }')"
}

echo "${counts[*]} connections, 1 request per second each; $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for connections in "${counts[@]}"; do
        for client in dotnet c; do
            for server in "${order[@]}"; do
                start_server "$server"
                run_client "$server" "$client" "$round"
                kill "$server_pid" 2> /dev/null || true
                wait "$server_pid" 2> /dev/null || true
            done
        done
    done
    echo "round $round done"
done

python3 scripts/long_results.py step-end "$state"
python3 bench/sessions_result.py "$results" "$state" "$data"
