#!/usr/bin/env bash
# Wakeups per batch at one pipelined connection, for the C echoes, Kestrel's and NetCoreServer's echoes and this
# build's `berth serve`, each under the same C load generator (64 B x 1, pipeline 16 unless told): how often the
# server's threads went to sleep, how often a vCPU halted, how many epoll_wait and sched_yield calls each batch took,
# and how many messages each recv carried. Counts only, no timings (docs/decisions/c-echo-anchor.md reads them); the
# halts and the idle share mean something only on an otherwise quiet machine, which the last column shows.
#
#   bash bench/count-wakeups.sh
#   bash bench/count-wakeups.sh --netcoreserver /path/to/NetCoreServer --data docs/data/decisions/c-echo-wakeups.json
#   bash bench/count-wakeups.sh --connections 100 --size 1024
#
# Needs gcc, perf with the syscalls tracepoints (root or a permissive perf_event_paranoid), and a cpuidle driver
# (/sys/devices/system/cpu/cpu*/cpuidle: state 1 and up are halts).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

size=64
connections=1
netcoreserver=""
data=""
command="bash bench/count-wakeups.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --netcoreserver) netcoreserver="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "count-wakeups: unknown option $1 (see the header of bench/count-wakeups.sh)" >&2; exit 2 ;;
    esac
done

out=artifacts/count-wakeups
mkdir -p "$out"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
dotnet build bench/Berth.KestrelEcho/Berth.KestrelEcho.csproj -c Release -nologo -v quiet -o artifacts/compare/Berth.KestrelEcho > /dev/null
if [ -n "$netcoreserver" ]; then
    bash bench/peers/build-netcoreserver.sh "$netcoreserver" artifacts/compare/Berth.NetCoreServerEcho > /dev/null
fi

state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
rm -f "$out/rows.txt"

halts() { cat /sys/devices/system/cpu/cpu*/cpuidle/state[1-9]/usage 2> /dev/null | awk '{ n += $1 } END { print n + 0 }'; }
switches() { cat /proc/"$1"/task/*/status 2> /dev/null | awk '/^voluntary_ctxt/ { n += $2 } END { print n + 0 }'; }

count() {
    local name=$1; shift
    : > "$out/$name.log"
    "$@" --port 0 > "$out/$name.log" 2>&1 &
    local server=$! port
    port=$(listening_port "$out/$name.log" "$server" "count-wakeups: $name") || exit 1
    artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
        --warmup 1 --duration 6 > /dev/null &
    local load=$!
    sleep 2
    local halts0 switches0 cpu0
    halts0=$(halts); switches0=$(switches "$server"); cpu0=$(head -1 /proc/stat)
    perf record -q -e syscalls:sys_exit_recvfrom -p "$server" -o "$out/$name.recv" -- sleep 2 > /dev/null 2>&1 &
    local record=$!
    perf stat -x, -e syscalls:sys_enter_sendto,syscalls:sys_enter_sendmsg,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex \
        -p "$server" -o "$out/$name.stat" -- sleep 2
    echo "$(( $(halts) - halts0 )) $(( $(switches "$server") - switches0 ))" > "$out/$name.wakes"
    echo "$cpu0" > "$out/$name.cpu"; head -1 /proc/stat >> "$out/$name.cpu"
    wait "$record"
    wait "$load"
    kill "$server" 2> /dev/null || true
    wait "$server" 2> /dev/null || true
    # perf prints each return in hex; a failed call's (-EAGAIN) is a huge unsigned value.
    perf script -i "$out/$name.recv" -F trace 2> /dev/null | python3 -c '
import sys
returns = [int(line.split()[-1], 0) for line in sys.stdin if line.strip()]
data = [n for n in returns if 0 < n < 1 << 31]
print(f"{sum(data) / int(sys.argv[1]) / max(1, len(data)):.1f}")' $((size + 4)) > "$out/$name.batch"
    python3 - "$out/$name" "$name" <<'PY'
import json
import sys
base, name = sys.argv[1:3]
calls = {}
for line in open(base + ".stat"):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0].isdigit():
        calls[fields[2].replace("syscalls:sys_enter_", "")] = int(fields[0])
batches = (calls.get("sendto", 0) + calls.get("sendmsg", 0)) or 1
halts, sleeps = map(int, open(base + ".wakes").read().split())
before, after = ([int(v) for v in line.split()[1:]] for line in open(base + ".cpu"))
idle = (after[3] - before[3]) / max(1, sum(after) - sum(before))
per = lambda value: f"{value / batches:.2f}"
row = [name, open(base + ".batch").read().strip(), per(sleeps), per(halts), per(calls.get("epoll_wait", 0)),
       per(calls.get("sched_yield", 0)), per(calls.get("futex", 0)), round(idle, 4)]
print("| " + " | ".join(row[:-1]) + f" | {idle:.0%} |")
with open(base.rsplit("/", 1)[0] + "/rows.txt", "a") as rows:
    rows.write(json.dumps(row) + "\n")
PY
}

echo "$size B x $connections connection(s), pipeline 16; per batch (one send of replies):"
echo "| server | messages per recv | server threads' sleeps | vCPU halts | epoll_wait | sched_yield | futex | idle CPU |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
count berth-echo artifacts/compare/berth-echo --threads "$(nproc)"
count berth-echo-spin artifacts/compare/berth-echo-spin --threads "$(nproc)"
count kestrel dotnet artifacts/compare/Berth.KestrelEcho/Berth.KestrelEcho.dll
if [ -n "$netcoreserver" ]; then
    count netcoreserver dotnet artifacts/compare/Berth.NetCoreServerEcho/Berth.NetCoreServerEcho.dll
fi
count berth dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll serve
python3 scripts/long_results.py step-end "$state"

if [ -n "$data" ]; then
    python3 - "$out" "$state" "$data" "$size" "$connections" <<'PY'
import json
import sys
sys.path.insert(0, "scripts")
import long_results
out, state, data, size, connections = sys.argv[1:6]
rows = [json.loads(line) for line in open(f"{out}/rows.txt")]
per_batch = ["messages per recv", "server threads' sleeps", "vCPU halts", "epoll_wait", "sched_yield", "futex"]
long_results.write_json(data, {
    "schema": long_results.SCHEMA,
    "provenance": long_results.provenance(state),
    "tables": {
        "wakeups": {
            "title": f"Per batch of replies at {size} B x {connections} connection(s), pipeline 16, over 2 s of each server (perf stat, /proc, cpuidle)",
            "columns": [{"name": "server", "format": "text"}]
                       + [{"name": column, "format": "text"} for column in per_batch]
                       + [{"name": "idle CPU", "format": "percent"}],
            "rows": rows,
            "notes": ["A batch is one send of replies. Sleeps are the server threads' voluntary context switches; halts are "
                      "entries of any vCPU into an idle state; both, and the idle share of the machine, mean something only "
                      "when nothing else runs (the provenance line says whether the run was quiet)."],
        },
    },
})
print(f"wrote {data}")
PY
fi
