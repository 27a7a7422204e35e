#!/usr/bin/env bash
# Software counters per received batch for a Berth server and the C echo under the same C load generator: system
# calls (tracepoints), context switches, migrations, and the messages each recv carried. Counts only, no timings, so
# it may run on a busy machine; busy makes batches and involuntary switches drift, so compare servers within one run.
#
#   bash bench/count-small-messages.sh                        this build's `berth serve`, then `berth-echo --threads $(nproc)`
#   BERTH_EPOLL_LOOPS=1 bash bench/count-small-messages.sh    the same with one epoll loop in the Berth server
#   bash bench/count-small-messages.sh --previous COMMIT --size 1024
#
# Needs gcc, perf with the syscalls tracepoints, and root or a perf_event_paranoid that lets perf attach.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

cli=src/Berth.Cli/bin/Release/net10.0
size=64
connections=100
while (($#)); do
    case "$1" in
        --previous) cli=$(bash bench/build-previous-engine.sh "$2"); shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        *) echo "count-small-messages: unknown option $1 (see the header of bench/count-small-messages.sh)" >&2; exit 2 ;;
    esac
done

out=artifacts/count-small-messages
mkdir -p "$out"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
if [ "$cli" = src/Berth.Cli/bin/Release/net10.0 ]; then
    dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
fi

events=context-switches,cpu-migrations
for call in recvfrom sendmsg sendto epoll_wait futex sched_yield getsockopt; do
    events="$events,syscalls:sys_enter_$call"
done
events="$events,raw_syscalls:sys_enter"

count() {
    local name=$1; shift
    : > "$out/$name.log"
    "$@" --port 0 > "$out/$name.log" 2>&1 &
    local server=$! port
    port=$(listening_port "$out/$name.log" "$server" "count-small-messages: $name") || exit 1
    artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
        --warmup 1 --duration 7 > /dev/null &
    local load=$!
    sleep 3
    perf record -q -e syscalls:sys_exit_recvfrom -p "$server" -o "$out/$name.recv" -- sleep 3 > /dev/null 2>&1 &
    local record=$!
    perf stat -x, -e "$events" -p "$server" -o "$out/$name.stat" -- sleep 3
    wait "$record"
    for task in /proc/"$server"/task/*; do
        echo "$(tr ' ' _ < "$task/comm") $(grep ctxt "$task/status" | awk '{printf "%s ", $2}')"
    done > "$out/$name.threads"
    wait "$load"
    kill "$server" 2> /dev/null || true
    wait "$server" 2> /dev/null || true
    perf script -i "$out/$name.recv" -F trace 2> /dev/null |
        awk -v frame=$((size + 4)) '{ n = $NF + 0; if (n > 0) { bytes += n; calls++ } }
            END { printf "%.1f\n", bytes / frame / calls }' > "$out/$name.batch"
    python3 - "$out/$name" "$name" <<'PY'
import sys
base, name = sys.argv[1:3]
counts = {}
for line in open(base + ".stat"):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0].replace(".", "").isdigit():
        counts[fields[2].replace("syscalls:sys_enter_", "")] = float(fields[0])
recvs = counts.get("recvfrom") or 1
batch = open(base + ".batch").read().strip()
print(f"{name}: {batch} messages per recv carrying data; per recvfrom:")
for key, value in counts.items():
    if value:
        print(f"  {key:20} {value:>10.0f}  {value / recvs:.3f}")
print("  threads (voluntary, involuntary switches since start):")
for line in open(base + ".threads"):
    fields = line.split()
    if int(fields[1]) + int(fields[2]) > 100:
        print(f"    {fields[0]:24} {fields[1]:>8} {fields[2]:>8}")
PY
}

count berth dotnet "$cli/Berth.Cli.dll" serve
count c-echo artifacts/compare/berth-echo --threads "$(nproc)"
