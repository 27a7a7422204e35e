#!/usr/bin/env bash
# Where `berth load`'s time per message goes when it pipelines small frames on BerthClient: system calls and context
# switches per echoed message (perf stat on syscall tracepoints; strace would slow the client enough to change how
# frames batch, which is the thing being looked at) and the shares of CPU samples (perf record -e cpu-clock) by where
# the code lives and by user-space frame. Attribution, not timing: counts and shares only, so it may run on a busy
# machine (the provenance says how busy).
#
#   bash bench/profile-client.sh --data docs/data/decisions/client-pipelining-after.json
#   bash bench/profile-client.sh --previous a842445 --data docs/data/decisions/client-pipelining-before.json
#   bash bench/profile-client.sh --rate 1 --connections 2000 --size 10240 --data docs/data/decisions/client-rate-after.json
#   bash bench/profile-client.sh --loops 1 --data docs/data/decisions/client-batch-clock-after.json
#
# Runs `berth load` (this build's, or the one of --previous COMMIT, built by bench/build-previous-engine.sh) against
# the C epoll echo (bench/native/echo): --connections (default 100), pipeline 16, --size (default 64) bytes. Messages
# in the counted window are the run's echoed messages per second times the window, so per-message counts are averages.
# With --rate R each session sends R requests per second instead of a closed loop, and the counts add the waits a
# paced client makes (epoll_pwait2 and clock_nanosleep): per echoed message is then per request. --loops N runs berth
# load on N epoll loops (BERTH_EPOLL_LOOPS; one per core when not given), as bench/client-vs-c.sh runs it with --threads.
# Needs gcc, python3 and perf, and root or a perf_event_paranoid that lets perf attach to the client.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

cli=src/Berth.Cli/bin/Release/net10.0
size=64
connections=100
rate=""
loops=""
data=""
command="bash bench/profile-client.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --previous) cli=$(bash bench/build-previous-engine.sh "$2"); shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --loops) loops="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "profile-client: unknown option $1 (see the header of bench/profile-client.sh)" >&2; exit 2 ;;
    esac
done
if [ -z "$data" ]; then
    echo "profile-client: --data FILE is required" >&2
    exit 2
fi

out=artifacts/profile-client
# berth load raises its own soft limit; the echo needs one descriptor per session too (--rate runs 10,000).
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true
mkdir -p "$out"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
if [ "$cli" = src/Berth.Cli/bin/Release/net10.0 ]; then
    dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
fi

state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
# A fresh log, so the port read below is this echo's and not the previous run's.
rm -f "$out/echo.log"
artifacts/compare/berth-echo --port 0 --threads "$(nproc)" > "$out/echo.log" 2>&1 &
echo=$!
port=$(listening_port "$out/echo.log" "$echo" "profile-client: the C echo") || exit 1

# Write-xor-execute off, so perf finds the JIT's code under the names the perf map gives it.
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 BERTH_EPOLL_LOOPS="$loops" dotnet "$cli/Berth.Cli.dll" load --port "$port" \
    --connections "$connections" --pipeline 16 --size "$size" ${rate:+--rate "$rate"} --warmup 2 --duration 8 --data "$out/load.json" \
    > "$out/load.out" 2>&1 &
load=$!
if [ -n "$rate" ]; then
    # Thousands of sessions take a while to connect: count from when they all hold a descriptor, a second into warm-up.
    for _ in $(seq 600); do
        [ "$(ls "/proc/$load/fd" 2> /dev/null | wc -l)" -ge "$connections" ] && break
        sleep 0.1
    done
    sleep 1
else
    sleep 4
fi
window=2
perf stat -x, -o "$out/stat.csv" -p "$load" \
    -e syscalls:sys_enter_sendmsg,syscalls:sys_enter_recvfrom,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_futex,context-switches${rate:+,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_clock_nanosleep} \
    -- sleep "$window" > /dev/null 2>&1 || true
# perf record may exit non-zero after writing its data (a thread of the client ended meanwhile); the report below reads what it wrote.
perf record -e cpu-clock -g -p "$load" -o "$out/perf.data" -- sleep 3 > /dev/null 2>&1 || true
wait "$load" || { echo "profile-client: berth load failed: $(tail -3 "$out/load.out")" >&2; exit 1; }
kill "$echo" 2> /dev/null || true
wait "$echo" 2> /dev/null || true
perf report -i "$out/perf.data" --stdio --no-children -g none --sort dso 2> /dev/null > "$out/dso.txt"
perf report -i "$out/perf.data" --stdio --no-children -g none --sort dso,sym 2> /dev/null > "$out/sym.txt"
python3 scripts/long_results.py step-end "$state"

python3 - "$out" "$state" "$data" "$size" "$connections" "$cli" "$window" "$rate" "$loops" <<'PY'
import json, sys
sys.path.insert(0, "scripts")
import long_results
import perf_shares
out, state, data, size, connections, cli, window, rate, loops = sys.argv[1:10]

table = json.load(open(f"{out}/load.json"))["tables"]["load"]
row = dict(zip([c["name"] for c in table["columns"]], table["rows"][0]))
messages = float(row["msg/s"]) * float(window)

names = {"syscalls:sys_enter_sendmsg": "sendmsg", "syscalls:sys_enter_recvfrom": "recvfrom",
         "syscalls:sys_enter_epoll_wait": "epoll_wait", "syscalls:sys_enter_futex": "futex",
         "syscalls:sys_enter_epoll_pwait2": "epoll_pwait2", "syscalls:sys_enter_clock_nanosleep": "clock_nanosleep",
         "context-switches": "context switches"}
counts = []
for line in open(f"{out}/stat.csv"):
    fields = line.strip().split(",")
    if len(fields) >= 3 and fields[2] in names and fields[0].isdigit():
        counts.append([names[fields[2]], int(fields[0]), f"{int(fields[0]) / messages:.3f}" if messages else "–"])

shares = perf_shares.places(f"{out}/dso.txt")
frames = perf_shares.frames(f"{out}/sym.txt")

workload = (f"{connections} sessions of {rate} request(s) of {size} B per second, against the C echo" if rate
            else f"{size} B x {connections} connections, pipeline 16, against the C echo")
build = "the build of " + (cli.split("/")[-2] if "previous-engine" in cli else "this commit")
if loops:
    build += f", {loops} epoll loop(s)"
long_results.write_json(data, {
    "schema": long_results.SCHEMA,
    "provenance": long_results.provenance(state),
    "tables": {
        "syscalls": {
            "title": f"berth load ({build}): system calls and context switches over {window} s of {workload} (perf stat)",
            "columns": [{"name": "event", "format": "text"}, {"name": "count", "format": "int"},
                        {"name": "per echoed message", "format": "text"}],
            "rows": counts,
            "notes": ["Messages in the window are the run's echoed messages per second times the window: per-message counts are averages over the run."],
        },
        "places": {
            "title": f"berth load ({build}): where the CPU samples fell over 3 s of {workload} (perf record -e cpu-clock)",
            "columns": [{"name": "code", "format": "text"}, {"name": "share of samples", "format": "percent"}],
            "rows": shares,
            "notes": ["On loopback the sender's sendmsg also runs the receiving side's TCP input, so the kernel share includes the echo server's receive path."],
        },
        "frames": {
            "title": "The user-space frames with the largest own share of samples (kernel frames left out)",
            "columns": [{"name": "frame", "format": "text"}, {"name": "share of samples", "format": "percent"}],
            "rows": frames,
        },
    },
})
print(f"wrote {data}")
PY
